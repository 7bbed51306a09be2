import { z } from 'zod';
import { dentistIdFilter, wireAvailabilitySchema } from './availability';
import { dashboardAppointmentSchema } from './dashboard';
import { pageSchema } from './validation';

/**
 * The calendar's month views (docs/product.md, Screens: Calendar; API calls): one month of one clinic. Appointments come in
 * date and time order, all of them by default (up to CALENDAR_MONTH_MAX_ROWS a page), with the
 * month's `total`, so a client can page through a very busy month.
 */

/** A month answers at most this many rows (appointments or availability days); more are left off. */
export const CALENDAR_MONTH_MAX_ROWS = 5000;
export const CALENDAR_YEAR_MIN = 1900;
export const CALENDAR_YEAR_MAX = 2200;

export const calendarMonthQuerySchema = z.object({
  month: z.coerce
    .number({ message: 'month is a number from 1 to 12' })
    .int('month is a whole number')
    .min(1, 'month is a number from 1 to 12')
    .max(12, 'month is a number from 1 to 12'),
  year: z.coerce
    .number({ message: `year is a number from ${CALENDAR_YEAR_MIN} to ${CALENDAR_YEAR_MAX}` })
    .int('year is a whole number')
    .min(CALENDAR_YEAR_MIN, `year is at least ${CALENDAR_YEAR_MIN}`)
    .max(CALENDAR_YEAR_MAX, `year is at most ${CALENDAR_YEAR_MAX}`),
  dentist_id: dentistIdFilter,
  page: z.coerce.number().int('page is a whole number').min(1, 'page starts at 1').default(1),
  limit: z.coerce
    .number()
    .int('limit is a whole number')
    .min(1, 'limit is at least 1')
    .max(CALENDAR_MONTH_MAX_ROWS, `limit is at most ${CALENDAR_MONTH_MAX_ROWS}`)
    .default(CALENDAR_MONTH_MAX_ROWS),
});
export type CalendarMonthQuery = z.infer<typeof calendarMonthQuerySchema>;

/** The month's availability days: a clinic has at most one a dentist and date, so no paging. */
export const calendarAvailabilityQuerySchema = calendarMonthQuerySchema.omit({ page: true, limit: true });
export type CalendarAvailabilityQuery = z.infer<typeof calendarAvailabilityQuerySchema>;

export const calendarAppointmentsSchema = pageSchema(dashboardAppointmentSchema);
export const calendarAvailabilitySchema = z.object({ data: z.array(wireAvailabilitySchema) });

/** The first day of a month and of the month after: the half-open range [first, next). */
export function calendarMonthRange(year: number, month: number): { first: string; next: string } {
  const pad = (value: number) => String(value).padStart(2, '0');
  const first = `${String(year).padStart(4, '0')}-${pad(month)}-01`;
  const nextYear = month === 12 ? year + 1 : year;
  const nextMonth = month === 12 ? 1 : month + 1;
  return { first, next: `${String(nextYear).padStart(4, '0')}-${pad(nextMonth)}-01` };
}

/** A dentist's calendar feed (RFC 5545) covers these days around today. */
export const CALENDAR_FEED_PAST_DAYS = 30;
export const CALENDAR_FEED_FUTURE_DAYS = 180;

/** GET /api/calendar/feeds/:dentistId: whether the dentist has a live feed URL, and since when. */
export const calendarFeedStatusSchema = z.object({
  dentist_id: z.number().int(),
  active: z.boolean(),
  created_at: z.string().nullable(),
});
export type CalendarFeedStatus = z.infer<typeof calendarFeedStatusSchema>;

/** POST /api/calendar/feeds/:dentistId: a new private URL (shown this once); the old one stops working. */
export const calendarFeedGrantSchema = z.object({
  dentist_id: z.number().int(),
  url: z.string(),
  created_at: z.string(),
});
export type CalendarFeedGrant = z.infer<typeof calendarFeedGrantSchema>;
