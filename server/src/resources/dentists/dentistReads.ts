import {
  type DashboardAppointment,
  type DentistAppointmentsQuery,
  type DentistListQuery,
  type DentistSort,
  daysPerWeekOf,
  type PersonStatus,
  type WireDentist,
  wireDentistSchema,
  workingHoursOf,
} from '@dental/shared/domain';
import { and, asc, count, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import { pageWithTotal } from '../../db/cappedCount';
import type { Database, Reader } from '../../db/client';
import { liveDentist } from '../../db/liveDentists';
import { dentists } from '../../db/schema';
import { containsPattern } from '../../db/search';
import { isoTimestamp } from '../../db/utcTimestamps';
import { NotFound } from '../../domain/errors';
import { BY_DATE_AND_TIME, countAppointments, readAppointments } from '../appointments/appointmentRows';
import { dentistDaysColumns } from '../availability/openHours';

export const DENTIST_NOT_FOUND = 'Dentist not found';

/** The columns a dentist is answered from (toWireDentist). */
export const dentistColumns = {
  id: dentists.id,
  name: dentists.name,
  email: dentists.email,
  phone: dentists.phone,
  specialty: dentists.specialty,
  license: dentists.license,
  yearsOfExperience: dentists.yearsOfExperience,
  workingDays: dentists.workingDays,
  status: dentists.status,
  createdAt: dentists.createdAt,
  updatedAt: dentists.updatedAt,
  version: dentists.version,
};

type DentistRow = {
  id: number;
  name: string;
  email: string;
  phone: string;
  specialty: string;
  license: string;
  yearsOfExperience: number;
  workingDays: string;
  status: string;
  createdAt: Date;
  updatedAt: Date;
  version: number;
};

/** A dentist's own details as answered and exported (backup/clinicExport.ts), from the table's row. */
export function dentistDetailsOf({
  name,
  email,
  phone,
  specialty,
  license,
  yearsOfExperience,
  workingDays,
}: DentistRow) {
  return {
    name,
    email,
    phone,
    specialty,
    license,
    years_of_experience: yearsOfExperience,
    working_days: workingDays,
  };
}

export function toWireDentist(row: DentistRow): WireDentist {
  return {
    id: row.id,
    ...dentistDetailsOf(row),
    status: row.status as PersonStatus,
    working_hours: workingHoursOf(row.workingDays),
    days_per_week: daysPerWeekOf(row.workingDays),
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
    version: row.version,
  };
}

const SORT_COLUMNS: Record<string, SQL> = {
  name: sql`${dentists.name}`,
  years_of_experience: sql`${dentists.yearsOfExperience}`,
  specialty: sql`${dentists.specialty}`,
  created_at: sql`${dentists.createdAt}`,
};

function orderOf(sort: DentistSort | undefined): SQL[] {
  const key = sort ?? 'name';
  const descending = key.startsWith('-');
  const column = SORT_COLUMNS[descending ? key.slice(1) : key] ?? sql`${dentists.name}`;
  const primary = descending ? sql`${column} desc` : sql`${column} asc`;
  // Ties (same specialty, same experience) in name order, then id, so pages never overlap.
  return key.endsWith('name') ? [primary, asc(dentists.id)] : [primary, asc(dentists.name), asc(dentists.id)];
}

/**
 * A clinic has tens of dentists: the primary key (clinic_id, id), or dentists_specialty_idx
 * (clinic_id, specialty, name) for a specialty filter, narrows to the clinic and the page is
 * sorted from there.
 */
export async function listDentists(
  db: Database,
  clinicId: number,
  query: DentistListQuery,
): Promise<{ data: WireDentist[]; total: number }> {
  const conditions: SQL[] = [liveDentist(clinicId)];
  if (query.search) {
    const pattern = containsPattern(query.search);
    const matches = or(
      ilike(dentists.name, pattern),
      ilike(dentists.email, pattern),
      ilike(dentists.license, pattern),
    );
    if (matches) conditions.push(matches);
  }
  if (query.status) conditions.push(eq(dentists.status, query.status));
  if (query.specialty) conditions.push(eq(dentists.specialty, query.specialty));
  const where = and(...conditions);
  const [totalRow] = await db.select({ total: count() }).from(dentists).where(where);
  const rows = await db
    .select(dentistColumns)
    .from(dentists)
    .where(where)
    .orderBy(...orderOf(query.sort))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  return { data: rows.map(toWireDentist), total: totalRow?.total ?? 0 };
}

export async function findDentist(
  db: Reader,
  clinicId: number,
  dentistId: number,
): Promise<WireDentist | null> {
  const [row] = await db
    .select(dentistColumns)
    .from(dentists)
    .where(liveDentist(clinicId, dentistId))
    .limit(1);
  return row ? toWireDentist(row) : null;
}

/** One dentist as its routes read it (rowRoutes): its wire schema, its read and its 404. */
export const dentistLookup = { schema: wireDentistSchema, find: findDentist, notFound: DENTIST_NOT_FOUND };

/** A dentist's appointments on appointments_dentist_date_idx (clinic_id, dentist_id, date, time). */
export async function listDentistAppointments(
  db: Database,
  clinicId: number,
  dentistId: number,
  query: DentistAppointmentsQuery,
): Promise<{ data: DashboardAppointment[]; total: number }> {
  if (!(await findDentist(db, clinicId, dentistId))) throw new NotFound(DENTIST_NOT_FOUND);
  const conditions: SQL[] = [sql`a.clinic_id = ${clinicId}`, sql`a.dentist_id = ${dentistId}`];
  if (query.date) conditions.push(sql`a.date = ${query.date}::date`);
  if (query.from) conditions.push(sql`a.date >= ${query.from}::date`);
  if (query.to) conditions.push(sql`a.date <= ${query.to}::date`);
  if (query.status) conditions.push(sql`a.status = ${query.status}`);
  const where = sql.join(conditions, sql` and `);
  const page = { offset: (query.page - 1) * query.limit, limit: query.limit };
  const { data, total } = await pageWithTotal(
    page,
    () => readAppointments(db, clinicId, where, page.limit, page.offset, BY_DATE_AND_TIME, { dentistId }),
    () => countAppointments(db, where),
  );
  return { data, total };
}

/** A dentist of the clinic (not deleted) as the open-hours rule reads them, or null. */
export async function dentistDaysOf(
  db: Database,
  clinicId: number,
  dentistId: number,
): Promise<{ id: number; name: string; workingDays: string } | null> {
  const [row] = await db.select(dentistDaysColumns).from(dentists).where(liveDentist(clinicId, dentistId));
  return row ?? null;
}
