import type { Appointment, AppointmentStatus } from '@dental/shared/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { Reader } from '../../db/client';

interface AppointmentRow {
  id: number | string;
  patient: string;
  patient_id: number | string;
  phone: string;
  dentist_id: number | string;
  dentist_name: string;
  date: string;
  time: string;
  treatment: string;
  status: AppointmentStatus;
  notes: string | null;
  /** ISO 8601 in UTC, formatted by the database (ISO_TIMESTAMP). */
  created_at: string;
  updated_at: string;
}

/**
 * A timestamp as JavaScript's toISOString() writes it ('2026-11-25T06:15:23.000Z'), formatted by the
 * database: parsing a month of rows' timestamps into Dates and back was a tenth of the API's time.
 */
const isoTimestamp = (column: SQL) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

function toAppointment(row: AppointmentRow): Appointment {
  return {
    id: Number(row.id),
    patient: row.patient,
    patient_id: Number(row.patient_id),
    phone: row.phone,
    dentist_id: Number(row.dentist_id),
    dentist_name: row.dentist_name,
    date: row.date,
    time: row.time,
    treatment: row.treatment,
    status: row.status,
    notes: row.notes,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export const BY_DATE_AND_TIME = sql`a.date, a.time, a.id`;

/**
 * Appointments in their wire shape (spec §3): `where` on the appointments table `a` (which may also
 * test the patient `p` and the dentist `d`), in the given order. Every list of appointments in the
 * API reads through here, so an appointment looks the same wherever it is answered.
 *
 * When neither `where` nor the order reads `p` or `d`, the page is cut from the appointments alone
 * and only its rows are joined: a deep page skips index entries, not joined rows.
 */
export async function readAppointments(
  db: Reader,
  where: SQL,
  limit: number,
  offset = 0,
  orderBy: SQL = BY_DATE_AND_TIME,
  options: { orderReadsPeople?: boolean } = {},
): Promise<Appointment[]> {
  const source = options.orderReadsPeople
    ? sql`appointments a`
    : sql`(select * from appointments a where ${where} order by ${orderBy} limit ${limit} offset ${offset}) as a`;
  const paging = options.orderReadsPeople
    ? sql`where ${where} order by ${orderBy} limit ${limit} offset ${offset}`
    : sql`order by ${orderBy}`;
  const result = await db.execute(sql`
    select a.id, p.name as patient, a.patient_id, p.phone, a.dentist_id, d.name as dentist_name,
      to_char(a.date, 'YYYY-MM-DD') as date, a.time, a.treatment, a.status, a.notes,
      ${isoTimestamp(sql`a.created_at`)} as created_at, ${isoTimestamp(sql`a.updated_at`)} as updated_at
    from ${source}
    join patients p on p.clinic_id = a.clinic_id and p.id = a.patient_id
    join dentists d on d.clinic_id = a.clinic_id and d.id = a.dentist_id
    ${paging}
  `);
  return (result.rows as unknown as AppointmentRow[]).map(toAppointment);
}

/** How many appointments `where` (on the appointments table `a` alone) matches. */
export async function countAppointments(db: Reader, where: SQL): Promise<number> {
  const result = await db.execute(sql`select count(*) as total from appointments a where ${where}`);
  return Number((result.rows[0] as { total?: string | number } | undefined)?.total ?? 0);
}
