/** How the screens write dates and times: short, unambiguous, in the reader's language. */

const dayFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
const weekdayFormat = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});

const momentFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function asLocalDate(day: string): Date | null {
  const [year, month, date] = day.split('-').map(Number);
  if (!year || !month || !date) return null;
  return new Date(year, month - 1, date);
}

/** `2026-03-04` → `4 Mar 2026` (in the reader's locale); anything else is shown as it came. */
export function formatDay(day: string | null | undefined, withWeekday = false): string {
  if (!day) return '';
  const date = asLocalDate(day);
  if (!date) return day;
  return (withWeekday ? weekdayFormat : dayFormat).format(date);
}

/**
 * A moment as the server sends it (ISO 8601, e.g. `2026-03-04T09:30:00Z`) → `4 Mar 2026, 10:30` in the
 * reader's locale and time zone; anything unreadable is shown as it came.
 */
export function formatDateTime(moment: string | null | undefined): string {
  if (!moment) return '';
  const date = new Date(moment);
  return Number.isNaN(date.getTime()) ? moment : momentFormat.format(date);
}

/** Today in the browser's calendar, as `YYYY-MM-DD`. */
export function todayDay(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** A person's initials for an avatar: `Mia Martin` → `MM`. */
export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('');
}
