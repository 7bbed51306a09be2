import type { PublicManagedVisit } from '@dental/shared/domain';
import { useState } from 'react';
import { getFreeTimes } from '../api/bookingPage';
import { usePublicRead } from '../api/usePublicRead';
import { type FreeTime, TimeChoice } from './TimeChoice';
import { dayLabel, shiftDay } from './visitFormat';

interface Props {
  visit: PublicManagedVisit;
  today: string;
  busy: boolean;
  onMove: (to: { date: string; time: string }) => void;
  onClose: () => void;
}

/** Another free time with the same dentist for the same visit, from the clinic's booking page rules. */
export function MoveVisit({ visit, today, busy, onMove, onClose }: Props) {
  const [date, setDate] = useState(visit.appointment.date >= today ? visit.appointment.date : today);
  const [picked, setPicked] = useState<FreeTime | null>(null);
  const { appointment, clinic } = visit;
  const times = usePublicRead(`${date}`, () =>
    getFreeTimes(clinic.slug, {
      visitType: appointment.visit_type_id,
      date,
      dentistId: appointment.dentist_id,
    }),
  );
  const changeDay = (next: string) => {
    if (next < today) return;
    setPicked(null);
    setDate(next);
  };

  return (
    <section className="booking-card" aria-labelledby="booking-move-heading">
      <h2 id="booking-move-heading">Move the visit</h2>
      <div className="booking-field">
        <label htmlFor="booking-move-day">New day</label>
        <div className="booking-day">
          <button
            type="button"
            className="booking-button-secondary"
            onClick={() => changeDay(shiftDay(date, -1))}
            disabled={date <= today}
          >
            Previous day
          </button>
          <input
            id="booking-move-day"
            type="date"
            min={today}
            value={date}
            onChange={(event) => event.target.value && changeDay(event.target.value)}
          />
          <button
            type="button"
            className="booking-button-secondary"
            onClick={() => changeDay(shiftDay(date, 1))}
          >
            Next day
          </button>
        </div>
      </div>
      {picked ? (
        <div className="booking-actions">
          <p>
            Move to {dayLabel(date)}, {picked.time} to {picked.end_time}?
          </p>
          <button
            type="button"
            className="booking-button"
            disabled={busy}
            onClick={() => onMove({ date, time: picked.time })}
          >
            Yes, move my visit
          </button>
          <button type="button" className="booking-button-secondary" onClick={() => setPicked(null)}>
            Choose another time
          </button>
        </div>
      ) : (
        <TimeChoice
          date={date}
          times={times.read}
          anyDentist={false}
          busy={busy}
          onPick={setPicked}
          onRetry={times.reload}
        />
      )}
      <button type="button" className="booking-link" onClick={onClose}>
        Keep the visit as it is
      </button>
    </section>
  );
}
