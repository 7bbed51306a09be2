import { createParser } from '@dental/shared/kit';

/** A month as the calendar's URL says it: `2026-11`. */
export interface Month {
  year: number;
  /** 1-12 */
  month: number;
}

const pad = (value: number) => String(value).padStart(2, '0');

export const monthKey = ({ year, month }: Month) => `${year}-${pad(month)}`;

/** `?month=2026-11`; anything else reads as absent (the month of today). */
export const parseAsMonth = createParser({
  parse: (value: string) => {
    const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(value);
    return match ? monthKey({ year: Number(match[1]), month: Number(match[2]) }) : null;
  },
  serialize: (value: string) => value,
});

export function monthOf(key: string): Month {
  const [year, month] = key.split('-').map(Number);
  return { year: year ?? 1970, month: month ?? 1 };
}

export function monthOfDay(day: string): string {
  return day.slice(0, 7);
}

export function shiftMonth(key: string, by: number): string {
  const { year, month } = monthOf(key);
  const index = year * 12 + (month - 1) + by;
  return monthKey({ year: Math.floor(index / 12), month: (index % 12) + 1 });
}

export function dayKey(year: number, month: number, day: number): string {
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** 'November 2026' */
export function monthTitle(key: string): string {
  const { year, month } = monthOf(key);
  return new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric' }).format(
    new Date(year, month - 1, 1),
  );
}

/**
 * The weeks of a month's grid, Sunday to Saturday (docs/product.md, Screens: Calendar): each cell a day of the month,
 * or null before the 1st and after the last.
 */
export function monthWeeks(key: string): Array<Array<string | null>> {
  const { year, month } = monthOf(key);
  const firstWeekday = new Date(year, month - 1, 1).getDay();
  const days = new Date(year, month, 0).getDate();
  const cells: Array<string | null> = [
    ...Array.from({ length: firstWeekday }, () => null),
    ...Array.from({ length: days }, (_, index) => dayKey(year, month, index + 1)),
  ];
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: Array<Array<string | null>> = [];
  for (let start = 0; start < cells.length; start += 7) weeks.push(cells.slice(start, start + 7));
  return weeks;
}

/** The day `by` days from `day` (`YYYY-MM-DD`), in the browser's calendar. */
export function shiftDay(day: string, by: number): string {
  const [year, month, date] = day.split('-').map(Number);
  const shifted = new Date(year ?? 1970, (month ?? 1) - 1, (date ?? 1) + by);
  return dayKey(shifted.getFullYear(), shifted.getMonth() + 1, shifted.getDate());
}

/** The week (Sunday to Saturday, as the month grid) that holds a day. */
export function weekOf(day: string): string[] {
  const [year, month, date] = day.split('-').map(Number);
  const weekday = new Date(year ?? 1970, (month ?? 1) - 1, date ?? 1).getDay();
  return Array.from({ length: 7 }, (_, index) => shiftDay(day, index - weekday));
}

const shortDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const shortDayYear = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const asDate = (day: string) => {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(year ?? 1970, (month ?? 1) - 1, date ?? 1);
};

/** 'Nov 29 – Dec 5, 2026' */
export function weekTitle(days: readonly string[]): string {
  const first = days[0] ?? '';
  const last = days[days.length - 1] ?? first;
  return `${shortDay.format(asDate(first))} – ${shortDayYear.format(asDate(last))}`;
}
