const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const fullFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dayFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** `just now`, `5 minutes ago`, `3 hours ago`, `yesterday`; older than a week: the day. */
export function timeAgo(iso: string, now: number = Date.now()): string {
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return iso;
  const past = Math.max(0, now - at);
  if (past < MINUTE) return 'just now';
  if (past < HOUR) return relative.format(-Math.floor(past / MINUTE), 'minute');
  if (past < DAY) return relative.format(-Math.floor(past / HOUR), 'hour');
  if (past < 7 * DAY) return relative.format(-Math.floor(past / DAY), 'day');
  return dayFormat.format(at);
}

/** The exact moment, for a tooltip and the `<time>` element. */
export function fullTime(iso: string): string {
  const at = Date.parse(iso);
  return Number.isFinite(at) ? fullFormat.format(at) : iso;
}
