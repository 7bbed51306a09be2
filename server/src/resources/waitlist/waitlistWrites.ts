import { WAITLIST_NOT_FOUND, type WaitlistEntry, type waitlistBodySchema } from '@dental/shared/domain';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database, Transaction } from '../../db/client';
import { InvalidValue, NotFound } from '../../domain/errors';
import { type ExpectedVersion, requireVersion } from '../../plugins/versions';
import { type Actor, recordActorAudit } from '../actorAudit';
import { NO_ACTIVE_DENTIST, NO_SUCH_PATIENT } from '../appointments/bookingRules';
import { dentistsFor, findEntry } from './waitlistEntries';

type WaitlistFields = z.output<typeof waitlistBodySchema>;

/** The entry's patient is the clinic's, and its dentist (when one is named) an active one of the clinic. */
async function requireOwnRows(tx: Transaction, clinicId: number, body: WaitlistFields): Promise<void> {
  const { rows: patient } = await tx.execute(
    sql`select 1 from patients where clinic_id = ${clinicId} and id = ${body.patient_id}`,
  );
  if (patient.length === 0) throw InvalidValue.of('patient_id', NO_SUCH_PATIENT);
  if (body.dentist_id === null) return;
  const [dentist] = await dentistsFor(tx, clinicId, body.dentist_id);
  if (!dentist) throw InvalidValue.of('dentist_id', NO_ACTIVE_DENTIST);
}

/** `{1,3,5}`: the weekdays as a smallint[] literal both drivers take. */
const weekdaysArray = (days: readonly number[]) => sql`${`{${days.join(',')}}`}::smallint[]`;

/** The entry as a write left it, with the write's audit record (which announces it to other desks). */
async function auditedEntry(
  tx: Transaction,
  actor: Actor,
  action: string,
  id: number,
): Promise<WaitlistEntry> {
  const entry = (await findEntry(tx, actor.clinicId, id)) as WaitlistEntry;
  await recordActorAudit(tx, actor, {
    action,
    entity: 'waitlist',
    entityId: id,
    details: { patient: entry.patient_name, treatment: entry.treatment },
  });
  return entry;
}

export function createEntry(db: Database, actor: Actor, body: WaitlistFields): Promise<WaitlistEntry> {
  return db.transaction(async (tx) => {
    await requireOwnRows(tx, actor.clinicId, body);
    const { rows } = await tx.execute(sql`
      insert into waitlist_entries (clinic_id, patient_id, treatment, dentist_id, weekdays, part_of_day,
        earliest_on, latest_on, note, created_by)
      values (${actor.clinicId}, ${body.patient_id}, ${body.treatment}, ${body.dentist_id},
        ${weekdaysArray(body.weekdays)}, ${body.part_of_day}, ${body.earliest_on}::date, ${body.latest_on}::date,
        ${body.note}, ${actor.userId})
      returning id`);
    return auditedEntry(tx, actor, 'create', (rows[0] as { id: number }).id);
  });
}

/** Locks the entry for a write and checks If-Match: 404 when the clinic has no such entry. */
async function holdEntry(
  tx: Transaction,
  clinicId: number,
  id: number,
  expected: ExpectedVersion,
): Promise<WaitlistEntry> {
  const held = await findEntry(tx, clinicId, id, true);
  if (!held) throw new NotFound(WAITLIST_NOT_FOUND);
  requireVersion(held.version, expected);
  return held;
}

export function updateEntry(
  db: Database,
  actor: Actor,
  id: number,
  body: WaitlistFields,
  expected: ExpectedVersion,
): Promise<WaitlistEntry> {
  return db.transaction(async (tx) => {
    await holdEntry(tx, actor.clinicId, id, expected);
    await requireOwnRows(tx, actor.clinicId, body);
    await tx.execute(sql`
      update waitlist_entries set patient_id = ${body.patient_id}, treatment = ${body.treatment},
        dentist_id = ${body.dentist_id}, weekdays = ${weekdaysArray(body.weekdays)},
        part_of_day = ${body.part_of_day}, earliest_on = ${body.earliest_on}::date,
        latest_on = ${body.latest_on}::date, note = ${body.note}, updated_at = now()
      where clinic_id = ${actor.clinicId} and id = ${id}`);
    return auditedEntry(tx, actor, 'update', id);
  });
}

export function deleteEntry(
  db: Database,
  actor: Actor,
  id: number,
  expected: ExpectedVersion,
): Promise<void> {
  return db.transaction(async (tx) => {
    const held = await holdEntry(tx, actor.clinicId, id, expected);
    await tx.execute(sql`delete from waitlist_entries where clinic_id = ${actor.clinicId} and id = ${id}`);
    await recordActorAudit(tx, actor, {
      action: 'delete',
      entity: 'waitlist',
      entityId: id,
      details: { patient: held.patient_name, treatment: held.treatment },
    });
  });
}
