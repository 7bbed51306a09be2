import { type HeldTime, heldMinutesLeft, heldOnlineLabel, minutesOf, timeRange } from '@dental/shared';

/** The holds still held at `now`: one that has let go frees its time on screen at once. */
export const stillHeld = (held: readonly HeldTime[] | undefined, now: number) =>
  (held ?? []).filter((hold) => Date.parse(hold.expires_at) > now);

/** A held time's minutes on the grid's scale. */
export const heldSpan = (hold: HeldTime) => {
  const start = minutesOf(hold.time);
  return { start, end: start + hold.duration };
};

interface Props {
  hold: HeldTime;
  now: number;
  /** Where the grid's day starts (minutes) and how many pixels a minute is. */
  dayStart: number;
  pxPerMinute: number;
  showDentist: boolean;
}

/**
 * A time a patient holds on the booking page (docs/product.md, Online booking): not bookable here
 * until it becomes a visit or lets go, so it is drawn apart from visits and counts down.
 */
export function HeldBlock({ hold, now, dayStart, pxPerMinute, showDentist }: Props) {
  const span = heldSpan(hold);
  const label = heldOnlineLabel(heldMinutesLeft(hold.expires_at, now));
  const range = timeRange(hold.time, hold.end_time);
  const who = showDentist ? `, ${hold.dentist_name}` : '';
  return (
    <div
      className="timegrid-held"
      style={{
        top: (span.start - dayStart) * pxPerMinute,
        height: Math.max(hold.duration * pxPerMinute - 2, 18),
      }}
      title={`${range} ${label}: ${hold.treatment}${who}`}
    >
      <span className="timegrid-visit-time">{range}</span> {label}
      <br />
      <span className="timegrid-visit-detail">
        {hold.treatment}
        {who}
      </span>
    </div>
  );
}
