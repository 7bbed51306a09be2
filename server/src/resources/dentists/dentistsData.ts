import {
  type DashboardAppointment,
  type DentistAppointmentsQuery,
  type DentistListQuery,
  type DentistSort,
  type DentistWrite,
  daysPerWeekOf,
  type PersonStatus,
  type WireDentist,
  wireDentistSchema,
  workingHoursOf,
} from '@dental/shared/domain';
import { and, asc, count, eq, ilike, ne, or, type SQL, sql } from 'drizzle-orm';
import { pageWithTotal } from '../../db/cappedCount';
import type { Database, Reader, Transaction } from '../../db/client';
import { clinicNow } from '../../db/clinicTime';
import { databaseError, FOREIGN_KEY_VIOLATION, UNIQUE_VIOLATION } from '../../db/databaseErrors';
import { liveDentist } from '../../db/liveDentists';
import { appointments, availability, calendarFeeds, dentists, users } from '../../db/schema';
import { containsPattern } from '../../db/search';
import { isoTimestamp } from '../../db/utcTimestamps';
import { HttpError } from '../../plugins/errors';
import { type ExpectedVersion, requireVersion } from '../../plugins/versions';
import { type Actor, recordActorAudit } from '../actorAudit';
import { BY_DATE_AND_TIME, countAppointments, readAppointments } from '../appointments/appointmentRows';
import { dentistDaysColumns } from '../availability/openHours';

export const DENTIST_NOT_FOUND = 'Dentist not found';
export const DENTIST_EMAIL_TAKEN = 'Another dentist of the clinic has this e-mail address';
export const DENTIST_LICENSE_TAKEN = 'Another dentist of the clinic has this license number';
const appointmentsWord = (total: number) => `appointment${total === 1 ? '' : 's'}`;
export const dentistHasAppointmentsToCome = (total: number) =>
  `This dentist has ${total} ${appointmentsWord(total)} to come and cannot be deleted; move or cancel them, or set the dentist to inactive`;

const dentistColumns = {
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

const emailConflict = () =>
  new HttpError(409, DENTIST_EMAIL_TAKEN, [{ field: 'email', message: DENTIST_EMAIL_TAKEN }]);
const licenseConflict = () =>
  new HttpError(409, DENTIST_LICENSE_TAKEN, [{ field: 'license', message: DENTIST_LICENSE_TAKEN }]);

/** A unique index lost to a racing write answers the same 409 as the check before it. */
function conflictOf(error: unknown): HttpError | null {
  const unique = databaseError(error, [UNIQUE_VIOLATION]);
  if (!unique) return null;
  const text = `${unique.constraint ?? ''} ${unique.message ?? ''} ${unique.detail ?? ''}`;
  if (text.includes('dentists_email_unique')) return emailConflict();
  if (text.includes('dentists_license_unique')) return licenseConflict();
  return null;
}

async function inTransaction<T>(db: Database, work: (tx: Transaction) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(work);
  } catch (error) {
    throw conflictOf(error) ?? error;
  }
}

/** E-mail and license are unique within the clinic, in any letter case (the unique indexes agree). */
async function checkUnique(
  tx: Transaction,
  clinicId: number,
  input: { email: string; license: string },
  dentistId: number | null,
) {
  const others = (condition: SQL) => {
    const scoped = and(liveDentist(clinicId), condition);
    return dentistId === null ? scoped : and(scoped, ne(dentists.id, dentistId));
  };
  const [emailHolder] = await tx
    .select({ id: dentists.id })
    .from(dentists)
    .where(others(sql`lower(${dentists.email}) = ${input.email.toLowerCase()}`))
    .limit(1);
  if (emailHolder) throw emailConflict();
  const [licenseHolder] = await tx
    .select({ id: dentists.id })
    .from(dentists)
    .where(others(sql`lower(${dentists.license}) = ${input.license.toLowerCase()}`))
    .limit(1);
  if (licenseHolder) throw licenseConflict();
}

export async function createDentist(db: Database, actor: Actor, input: DentistWrite): Promise<WireDentist> {
  return inTransaction(db, async (tx) => {
    await checkUnique(tx, actor.clinicId, input, null);
    const [created] = await tx
      .insert(dentists)
      .values({
        clinicId: actor.clinicId,
        name: input.name,
        email: input.email,
        phone: input.phone,
        specialty: input.specialty,
        license: input.license,
        yearsOfExperience: input.yearsOfExperience ?? 0,
        ...(input.workingDays === undefined ? {} : { workingDays: input.workingDays }),
        status: input.status ?? 'active',
      })
      .returning(dentistColumns);
    if (!created) throw new Error('Dentist was not created');
    await recordActorAudit(tx, actor, {
      action: 'create',
      entity: 'dentist',
      entityId: created.id,
      details: { name: created.name, specialty: created.specialty, status: created.status },
    });
    return toWireDentist(created);
  });
}

/** The dentist a write changes, locked to the commit; refused (412) when not at the `expected` version. */
async function lockedDentist(
  tx: Transaction,
  clinicId: number,
  dentistId: number,
  expected: ExpectedVersion,
) {
  const [row] = await tx
    .select(dentistColumns)
    .from(dentists)
    .where(liveDentist(clinicId, dentistId))
    .for('update');
  if (!row) throw new HttpError(404, DENTIST_NOT_FOUND);
  requireVersion(row.version, expected);
  return row;
}

/** Fields left out keep their value; a change of status alone is audited as 'status_change'. */
export async function updateDentist(
  db: Database,
  actor: Actor,
  dentistId: number,
  input: DentistWrite,
  expected: ExpectedVersion = null,
): Promise<WireDentist> {
  return inTransaction(db, async (tx) => {
    const current = await lockedDentist(tx, actor.clinicId, dentistId, expected);
    await checkUnique(tx, actor.clinicId, input, dentistId);
    const next = {
      name: input.name,
      email: input.email,
      phone: input.phone,
      specialty: input.specialty,
      license: input.license,
      yearsOfExperience: input.yearsOfExperience ?? current.yearsOfExperience,
      workingDays: input.workingDays ?? current.workingDays,
      status: input.status ?? current.status,
    };
    const changed = (Object.keys(next) as Array<keyof typeof next>).filter(
      (key) => next[key] !== current[key],
    );
    const [updated] = await tx
      .update(dentists)
      .set({ ...next, updatedAt: new Date() })
      .where(and(eq(dentists.clinicId, actor.clinicId), eq(dentists.id, dentistId)))
      .returning(dentistColumns);
    if (!updated) throw new Error('Updated dentist vanished');
    const statusOnly = changed.length === 1 && changed[0] === 'status';
    await recordActorAudit(tx, actor, {
      action: statusOnly ? 'status_change' : 'update',
      entity: 'dentist',
      entityId: dentistId,
      details: {
        name: updated.name,
        status: updated.status,
        changed: changed.map((key) =>
          key === 'yearsOfExperience' ? 'years_of_experience' : key === 'workingDays' ? 'working_days' : key,
        ),
      },
    });
    return toWireDentist(updated);
  });
}

/**
 * A dentist with appointments to come (pending or confirmed, not yet passed in the clinic's time) is
 * kept (409): the desk must move or cancel them first. A dentist whose appointments are all past or
 * cancelled is deleted, but those appointments are the clinic's records: the row stays behind them,
 * marked deleted and inactive, so the history keeps its dentist while the dentist leaves every list,
 * choice and count and frees their e-mail and license. A dentist without any appointment goes
 * altogether. Either way their availability and calendar feeds go and any user account linked to
 * them is unlinked, all in one transaction. A booking racing the delete fails the appointments
 * foreign key (or finds the dentist inactive) and answers 409.
 */
export async function deleteDentist(
  db: Database,
  actor: Actor,
  dentistId: number,
  expected: ExpectedVersion = null,
): Promise<void> {
  try {
    await inTransaction(db, async (tx) => {
      const current = await lockedDentist(tx, actor.clinicId, dentistId, expected);
      const now = await clinicNow(tx, actor.clinicId);
      const [booked] = await tx
        .select({
          total: count(),
          toCome: sql<number>`count(*) filter (where ${appointments.status} in ('pending', 'confirmed')
            and (${appointments.date} > ${now.date}::date
              or (${appointments.date} = ${now.date}::date and ${appointments.time} >= ${now.time})))`.mapWith(
            Number,
          ),
        })
        .from(appointments)
        .where(and(eq(appointments.clinicId, actor.clinicId), eq(appointments.dentistId, dentistId)));
      const records = booked?.total ?? 0;
      const toCome = booked?.toCome ?? 0;
      if (toCome > 0) throw new HttpError(409, dentistHasAppointmentsToCome(toCome));
      const ofDentist = <T extends typeof users | typeof availability | typeof calendarFeeds>(table: T) =>
        and(eq(table.clinicId, actor.clinicId), eq(table.dentistId, dentistId));
      await tx.update(users).set({ dentistId: null, updatedAt: new Date() }).where(ofDentist(users));
      const ofThisDentist = and(eq(dentists.clinicId, actor.clinicId), eq(dentists.id, dentistId));
      if (records === 0) {
        await tx.delete(dentists).where(ofThisDentist);
      } else {
        await tx.delete(availability).where(ofDentist(availability));
        await tx.delete(calendarFeeds).where(ofDentist(calendarFeeds));
        const deletedAt = new Date();
        await tx
          .update(dentists)
          .set({ status: 'inactive', deletedAt, updatedAt: deletedAt })
          .where(ofThisDentist);
      }
      await recordActorAudit(tx, actor, {
        action: 'delete',
        entity: 'dentist',
        entityId: dentistId,
        details: { name: current.name, specialty: current.specialty, appointments_kept: records },
      });
    });
  } catch (error) {
    if (databaseError(error, [FOREIGN_KEY_VIOLATION])) {
      throw new HttpError(
        409,
        'This dentist has appointments and cannot be deleted; set the dentist to inactive instead',
      );
    }
    throw error;
  }
}

/** A dentist's appointments on appointments_dentist_date_idx (clinic_id, dentist_id, date, time). */
export async function listDentistAppointments(
  db: Database,
  clinicId: number,
  dentistId: number,
  query: DentistAppointmentsQuery,
): Promise<{ data: DashboardAppointment[]; total: number }> {
  if (!(await findDentist(db, clinicId, dentistId))) throw new HttpError(404, DENTIST_NOT_FOUND);
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
