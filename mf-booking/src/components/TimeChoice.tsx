import type { PublicFreeTimes } from '@dental/shared/domain';
import type { Read } from '../api/usePublicRead';
import { Notice } from './Notice';
import { dayLabel } from './visitFormat';

export type FreeTime = PublicFreeTimes['times'][number];

interface Props {
  date: string;
  times: Read<PublicFreeTimes>;
  anyDentist: boolean;
  busy: boolean;
  onPick: (time: FreeTime) => void;
  onRetry: () => void;
}

/** The free starts of the day, one button each; with any dentist, each names whose time it is. */
export function TimeChoice({ date, times, anyDentist, busy, onPick, onRetry }: Props) {
  return (
    <section
      className="booking-times"
      aria-labelledby="booking-times-heading"
      aria-busy={times.state === 'loading'}
    >
      <h2 id="booking-times-heading">Free times on {dayLabel(date)}</h2>
      {times.state === 'loading' && <p className="booking-muted">Finding free times…</p>}
      {times.state === 'failed' && (
        <Notice tone="error">
          {times.error.message}{' '}
          <button type="button" className="booking-link" onClick={onRetry}>
            Try again
          </button>
        </Notice>
      )}
      {times.state === 'ready' && times.data.times.length === 0 && (
        <p>No free times on this day: please try another day.</p>
      )}
      {times.state === 'ready' && times.data.times.length > 0 && (
        <ul className="booking-time-list">
          {times.data.times.map((time) => (
            <li key={`${time.time}-${time.dentist_id}`}>
              <button type="button" className="booking-time" disabled={busy} onClick={() => onPick(time)}>
                <span className="booking-time-start">{time.time}</span>
                {anyDentist && <span className="booking-time-dentist"> {time.dentist_name}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
