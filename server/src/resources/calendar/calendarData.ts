import {
  CALENDAR_MONTH_MAX_ROWS,
  type CalendarAvailabilityQuery,
  type CalendarMonthQuery,
  calendarMonthRange,
  type DashboardAppointment,
  type WireAvailability,
} from '@dental/shared/domain';
import { type SQL, sql } from 'drizzle-orm';
import { pageWithTotal } from '../../db/cappedCount';
import type { Database } from '../../db/client';
import type { JsonRows } from '../../plugins/responseSerialization';
import { BY_DATE_AND_TIME, countAppointments, readAppointmentsToSend } from '../appointments/appointmentRows';
import { readAvailabilityRange } from '../availability/availabilityReads';

/**
 * One month's appointments by date, time: a range [first of the month, first of the next) on
 * appointments_date_idx (clinic_id, date, time), or appointments_dentist_date_idx for one dentist.
 * Paged by `page` and `limit` (all of the month, up to CALENDAR_MONTH_MAX_ROWS, by default): a
 * whole month is one statement, counted only when a page is full. A month is the API's longest
 * answer: its visits are read to be sent as they are (readAppointmentsToSend).
 */
export async function readMonthAppointments(
  db: Database,
  clinicId: number,
  query: CalendarMonthQuery,
): Promise<{ data: DashboardAppointment[] | JsonRows<DashboardAppointment>; total: number }> {
  const { first, next } = calendarMonthRange(query.year, query.month);
  const conditions: SQL[] = [
    sql`a.clinic_id = ${clinicId}`,
    sql`a.date >= ${first}::date`,
    sql`a.date < ${next}::date`,
  ];
  if (query.dentist_id !== undefined) conditions.push(sql`a.dentist_id = ${query.dentist_id}`);
  const where = sql.join(conditions, sql` and `);
  const page = { offset: (query.page - 1) * query.limit, limit: query.limit };
  return pageWithTotal(
    page,
    () =>
      readAppointmentsToSend(db, clinicId, where, page.limit, page.offset, BY_DATE_AND_TIME, {
        dentistId: query.dentist_id,
      }),
    () => countAppointments(db, where),
  );
}

/** One month's availability days by date, dentist name, on availability_date_idx (clinic_id, date). */
export async function readMonthAvailability(
  db: Database,
  clinicId: number,
  query: CalendarAvailabilityQuery,
): Promise<WireAvailability[]> {
  const range = calendarMonthRange(query.year, query.month);
  return readAvailabilityRange(db, clinicId, range, query.dentist_id, CALENDAR_MONTH_MAX_ROWS);
}
