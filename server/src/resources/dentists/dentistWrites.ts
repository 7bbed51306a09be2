import type { DentistWrite, WireDentist } from '@dental/shared/domain';
import { and, count, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client';
import { clinicNow } from '../../db/clinicTime';
import { databaseError, FOREIGN_KEY_VIOLATION, UNIQUE_VIOLATION } from '../../db/databaseErrors';
import { liveDentist } from '../../db/liveDentists';
import {
  appointments,
  availability,
  bookingHolds,
  calendarFeeds,
  chairs,
  dentists,
  users,
} from '../../db/schema';
import { Conflict, NotFound } from '../../domain/errors';
import { type ExpectedVersion, requireVersion } from '../../plugins/versions';
import { type Actor, recordActorAudit } from '../actorAudit';
import { DENTIST_NOT_FOUND, dentistColumns, toWireDentist } from './dentistReads';

export const DENTIST_EMAIL_TAKEN = 'Another dentist of the clinic has this e-mail address';
export const DENTIST_LICENSE_TAKEN = 'Another dentist of the clinic has this license number';
const appointmentsWord = (total: number) => `appointment${total === 1 ? '' : 's'}`;
export const dentistHasAppointmentsToCome = (total: number) =>
  `This dentist has ${total} ${appointmentsWord(total)} to come and cannot be deleted; move or cancel them, or set the dentist to inactive`;

const emailConflict = () =>
  new Conflict(DENTIST_EMAIL_TAKEN, [{ field: 'email', message: DENTIST_EMAIL_TAKEN }]);
const licenseConflict = () =>
  new Conflict(DENTIST_LICENSE_TAKEN, [{ field: 'license', message: DENTIST_LICENSE_TAKEN }]);

/** A unique index lost to a racing write answers the same 409 as the check before it. */
function conflictOf(error: unknown): Conflict | null {
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
    // A chair of their own, as every dentist had when chairs began (docs/product.md, Chairs).
    if (created.status === 'active')
      await tx.execute(sql`select chair_for_dentist(${actor.clinicId}, ${created.id})`);
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
  if (!row) throw new NotFound(DENTIST_NOT_FOUND);
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
      if (toCome > 0) throw new Conflict(dentistHasAppointmentsToCome(toCome));
      const ofDentist = <T extends typeof users | typeof availability | typeof calendarFeeds>(table: T) =>
        and(eq(table.clinicId, actor.clinicId), eq(table.dentistId, dentistId));
      await tx.update(users).set({ dentistId: null, updatedAt: new Date() }).where(ofDentist(users));
      const ofThisDentist = and(eq(dentists.clinicId, actor.clinicId), eq(dentists.id, dentistId));
      // Their chairs stay the clinic's, with no default dentist.
      await tx
        .update(chairs)
        .set({ defaultDentistId: null })
        .where(and(eq(chairs.clinicId, actor.clinicId), eq(chairs.defaultDentistId, dentistId)));
      // A time held online with them is let go: the patient is told to pick a time again.
      await tx
        .delete(bookingHolds)
        .where(and(eq(bookingHolds.clinicId, actor.clinicId), eq(bookingHolds.dentistId, dentistId)));
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
      throw new Conflict(
        'This dentist has appointments and cannot be deleted; set the dentist to inactive instead',
      );
    }
    throw error;
  }
}
