import {
  type AvailabilityDayStatus,
  type AvailabilityListQuery,
  type DentistAvailabilityQuery,
  type WireAvailability,
  wireAvailabilitySchema,
} from '@dental/shared/domain';
import { and, asc, count, desc, eq, gte, ilike, lt, lte, type SQL } from 'drizzle-orm';
import type { Database, Reader } from '../../db/client';
import { liveDentist } from '../../db/liveDentists';
import { availability, dentists, type TimeSlot } from '../../db/schema';
import { containsPattern } from '../../db/search';
import { isoTimestamp } from '../../db/utcTimestamps';
import { NotFound } from '../../domain/errors';

/** The availability days as staff read them (docs/product.md, Availability): lists, a range, one day. */

export const AVAILABILITY_NOT_FOUND = 'Availability not found';
export const DENTIST_NOT_FOUND = 'Dentist not found';

export const availabilityColumns = {
  id: availability.id,
  dentistId: availability.dentistId,
  dentistName: dentists.name,
  date: availability.date,
  timeSlots: availability.timeSlots,
  status: availability.status,
  createdAt: availability.createdAt,
  updatedAt: availability.updatedAt,
  version: availability.version,
};

interface AvailabilityRow {
  id: number;
  dentistId: number;
  dentistName: string;
  date: string;
  timeSlots: TimeSlot[];
  status: string;
  createdAt: Date;
  updatedAt: Date;
  version: number;
}

export function toWire(row: AvailabilityRow): WireAvailability {
  return {
    id: row.id,
    dentist_id: row.dentistId,
    dentist_name: row.dentistName,
    date: row.date,
    time_slots: row.timeSlots.map((slot) => ({
      start: slot.start,
      end: slot.end,
      available: slot.available !== false,
    })),
    status: row.status as AvailabilityDayStatus,
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
    version: row.version,
  };
}

export const joinDentist = and(
  eq(dentists.clinicId, availability.clinicId),
  eq(dentists.id, availability.dentistId),
);

function dateConditions(query: { date?: string; from?: string; to?: string }): SQL[] {
  const conditions: SQL[] = [];
  if (query.date) conditions.push(eq(availability.date, query.date));
  if (query.from) conditions.push(gte(availability.date, query.from));
  if (query.to) conditions.push(lte(availability.date, query.to));
  return conditions;
}

async function page(
  db: Reader,
  where: SQL | undefined,
  query: { page: number; limit: number; sort?: string },
): Promise<{ data: WireAvailability[]; total: number }> {
  const [totalRow] = await db
    .select({ total: count() })
    .from(availability)
    .innerJoin(dentists, joinDentist)
    .where(where);
  const rows = await db
    .select(availabilityColumns)
    .from(availability)
    .innerJoin(dentists, joinDentist)
    .where(where)
    .orderBy(
      query.sort === '-date' ? desc(availability.date) : asc(availability.date),
      asc(dentists.name),
      asc(availability.id),
    )
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  return { data: rows.map(toWire), total: totalRow?.total ?? 0 };
}

/**
 * The clinic's availability, on availability_date_idx (clinic_id, date) for a date or range, or on
 * availability_dentist_date_unique (clinic_id, dentist_id, date) for one dentist.
 */
export async function listAvailability(
  db: Database,
  clinicId: number,
  query: AvailabilityListQuery,
): Promise<{ data: WireAvailability[]; total: number }> {
  const conditions: SQL[] = [eq(availability.clinicId, clinicId), ...dateConditions(query)];
  if (query.dentist_id !== undefined) conditions.push(eq(availability.dentistId, query.dentist_id));
  if (query.search) conditions.push(ilike(dentists.name, containsPattern(query.search)));
  return page(db, and(...conditions), query);
}

export async function dentistExists(db: Reader, clinicId: number, dentistId: number) {
  const [row] = await db
    .select({ id: dentists.id, name: dentists.name, workingDays: dentists.workingDays })
    .from(dentists)
    .where(liveDentist(clinicId, dentistId))
    .limit(1);
  return row ?? null;
}

export async function listDentistAvailability(
  db: Database,
  clinicId: number,
  dentistId: number,
  query: DentistAvailabilityQuery,
): Promise<{ data: WireAvailability[]; total: number }> {
  if (!(await dentistExists(db, clinicId, dentistId))) throw new NotFound(DENTIST_NOT_FOUND);
  return page(
    db,
    and(eq(availability.clinicId, clinicId), eq(availability.dentistId, dentistId), ...dateConditions(query)),
    query,
  );
}

/** The availability days of [first, next), by date then dentist name; at most `limit` rows. */
export async function readAvailabilityRange(
  db: Database,
  clinicId: number,
  range: { first: string; next: string },
  dentistId: number | undefined,
  limit: number,
): Promise<WireAvailability[]> {
  const conditions: SQL[] = [
    eq(availability.clinicId, clinicId),
    gte(availability.date, range.first),
    lt(availability.date, range.next),
  ];
  if (dentistId !== undefined) conditions.push(eq(availability.dentistId, dentistId));
  const rows = await db
    .select(availabilityColumns)
    .from(availability)
    .innerJoin(dentists, joinDentist)
    .where(and(...conditions))
    .orderBy(asc(availability.date), asc(dentists.name), asc(availability.id))
    .limit(limit);
  return rows.map(toWire);
}

/** One day's availability row of the clinic, by its id. */
export const availabilityRow = (clinicId: number, id: number) =>
  and(eq(availability.clinicId, clinicId), eq(availability.id, id));

export async function findAvailability(
  db: Reader,
  clinicId: number,
  id: number,
): Promise<WireAvailability | null> {
  const [row] = await db
    .select(availabilityColumns)
    .from(availability)
    .innerJoin(dentists, joinDentist)
    .where(availabilityRow(clinicId, id))
    .limit(1);
  return row ? toWire(row) : null;
}

/** One availability day as its routes read it (rowRoutes): its wire schema, its read and its 404. */
export const availabilityLookup = {
  schema: wireAvailabilitySchema,
  find: findAvailability,
  notFound: AVAILABILITY_NOT_FOUND,
};
