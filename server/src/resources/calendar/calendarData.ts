import {
  CALENDAR_MONTH_MAX_ROWS,
  type CalendarMonthQuery,
  calendarMonthRange,
  type DashboardAppointment,
  type WireAvailability,
} from '@dental/shared/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { readAppointments } from '../appointments/appointmentRows';
import { readAvailabilityRange } from '../availability/availabilityData';

/**
 * One month's appointments by date, time: a range [first of the month, first of the next) on
 * appointments_date_idx (clinic_id, date, time), or appointments_dentist_date_idx for one dentist.
 * At most CALENDAR_MONTH_MAX_ROWS rows (a month of one clinic is far below it).
 */
export async function readMonthAppointments(
  db: Database,
  clinicId: number,
  query: CalendarMonthQuery,
): Promise<DashboardAppointment[]> {
  const { first, next } = calendarMonthRange(query.year, query.month);
  const conditions: SQL[] = [
    sql`a.clinic_id = ${clinicId}`,
    sql`a.date >= ${first}::date`,
    sql`a.date < ${next}::date`,
  ];
  if (query.dentist_id !== undefined) conditions.push(sql`a.dentist_id = ${query.dentist_id}`);
  return readAppointments(db, sql.join(conditions, sql` and `), CALENDAR_MONTH_MAX_ROWS);
}

/** One month's availability days by date, dentist name, on availability_date_idx (clinic_id, date). */
export async function readMonthAvailability(
  db: Database,
  clinicId: number,
  query: CalendarMonthQuery,
): Promise<WireAvailability[]> {
  const range = calendarMonthRange(query.year, query.month);
  return readAvailabilityRange(db, clinicId, range, query.dentist_id, CALENDAR_MONTH_MAX_ROWS);
}
