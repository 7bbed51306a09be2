import {
  listCountCap,
  NO_RECALL_CHANNEL,
  type RecallRow,
  type RecallType,
  type RecallUpdate,
  type recallQuerySchema,
  type recallTypeBodySchema,
  type Treatment,
} from '@dental/shared/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { cappedCount, pageWithTotal } from '../../db/cappedCount';
import type { Database, Reader, Transaction } from '../../db/client';
import { addDays, clinicToday } from '../../db/clinicTime';
import { UNIQUE_VIOLATION, violated } from '../../db/databaseErrors';
import { Conflict, NotFound } from '../../domain/errors';
import { type ExpectedVersion, requireVersion } from '../../plugins/versions';
import { type Actor, recordActorAudit } from '../actorAudit';
import { queueRecallReminder, requireQueued } from '../notifications/patientMessages';

export const RECALL_TYPE_NOT_FOUND = 'Recall type not found';
export const RECALL_NOT_FOUND = 'This patient has no recall of that type';
export const RECALL_TYPE_NAME_TAKEN = 'A recall type of this name exists';
/** How far ahead the list looks when no `due_by` is asked. */
export const RECALL_DEFAULT_DAYS_AHEAD = 30;

interface RecallTypeRecord {
  id: number;
  name: string;
  treatment: string;
  interval_months: number;
  active: boolean;
  version: number;
}

const typeOf = (row: RecallTypeRecord): RecallType => ({
  ...row,
  // The API writes only the product's treatments.
  treatment: row.treatment as Treatment,
});

export async function listRecallTypes(db: Reader, clinicId: number): Promise<RecallType[]> {
  const { rows } = await db.execute(sql`
    select id, name, treatment, interval_months, active, version from recall_types
    where clinic_id = ${clinicId} order by lower(name), id`);
  return (rows as unknown as RecallTypeRecord[]).map(typeOf);
}

export async function findRecallType(db: Reader, clinicId: number, id: number): Promise<RecallType | null> {
  const { rows } = await db.execute(sql`
    select id, name, treatment, interval_months, active, version from recall_types
    where clinic_id = ${clinicId} and id = ${id}`);
  const [row] = rows as unknown as RecallTypeRecord[];
  return row ? typeOf(row) : null;
}

/** A duplicate name is the user's to change: said beside the name. */
async function namedUniquely<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (violated(error, [UNIQUE_VIOLATION], 'recall_types_name_unique')) {
      throw new Conflict(RECALL_TYPE_NAME_TAKEN, [{ field: 'name', message: RECALL_TYPE_NAME_TAKEN }]);
    }
    throw error;
  }
}

type RecallTypeFields = z.output<typeof recallTypeBodySchema>;

export function createRecallType(db: Database, actor: Actor, body: RecallTypeFields): Promise<RecallType> {
  return namedUniquely(() =>
    db.transaction(async (tx) => {
      const { rows } = await tx.execute(sql`
        insert into recall_types (clinic_id, name, treatment, interval_months, active)
        values (${actor.clinicId}, ${body.name}, ${body.treatment}, ${body.interval_months}, ${body.active})
        returning id, name, treatment, interval_months, active, version`);
      const created = typeOf((rows as unknown as RecallTypeRecord[])[0] as RecallTypeRecord);
      await recordActorAudit(tx, actor, {
        action: 'create',
        entity: 'recall_type',
        entityId: created.id,
        details: { name: created.name },
      });
      return created;
    }),
  );
}

export function updateRecallType(
  db: Database,
  actor: Actor,
  id: number,
  body: RecallTypeFields,
  expected: ExpectedVersion,
): Promise<RecallType> {
  return namedUniquely(() =>
    db.transaction(async (tx) => {
      const { rows: held } = await tx.execute(sql`
        select version from recall_types where clinic_id = ${actor.clinicId} and id = ${id} for update`);
      const [row] = held as Array<{ version: number }>;
      if (!row) throw new NotFound(RECALL_TYPE_NOT_FOUND);
      requireVersion(row.version, expected);
      const { rows } = await tx.execute(sql`
        update recall_types set name = ${body.name}, treatment = ${body.treatment},
          interval_months = ${body.interval_months}, active = ${body.active}, updated_at = now()
        where clinic_id = ${actor.clinicId} and id = ${id}
        returning id, name, treatment, interval_months, active, version`);
      const updated = typeOf((rows as unknown as RecallTypeRecord[])[0] as RecallTypeRecord);
      await recordActorAudit(tx, actor, {
        action: 'update',
        entity: 'recall_type',
        entityId: id,
        details: { name: updated.name },
      });
      return updated;
    }),
  );
}

/** A recall row as the list and every action answer it. */
function recallSelect(clinicId: number, today: string): SQL {
  return sql`
    select r.patient_id, p.name as patient_name, p.phone, p.email, r.recall_type_id as type_id,
      t.name as type_name, t.treatment, to_char(r.last_visit, 'YYYY-MM-DD') as last_visit,
      r.last_dentist_id, d.name as last_dentist, to_char(r.due_date, 'YYYY-MM-DD') as due_date,
      r.due_set_by_hand, to_char(r.snoozed_until, 'YYYY-MM-DD') as snoozed_until,
      -- The day is looked up only for a recall its latest booked day (kept by 0024) says is booked.
      case when r.booked_until >= ${today}::date then
        (select to_char(min(a.date), 'YYYY-MM-DD') from appointments a
          where a.clinic_id = r.clinic_id and a.patient_id = r.patient_id and a.treatment = t.treatment
            and a.date >= ${today}::date and a.status in ('pending', 'confirmed')) end as scheduled_on,
      r.last_contact_at, r.last_contact_kind, r.last_contact_note, r.active, r.note, r.version
    from patient_recalls r
    join recall_types t on t.clinic_id = r.clinic_id and t.id = r.recall_type_id
    join patients p on p.clinic_id = r.clinic_id and p.id = r.patient_id
    left join dentists d on d.clinic_id = r.clinic_id and d.id = r.last_dentist_id
    where r.clinic_id = ${clinicId}`;
}

interface RecallRecord {
  patient_id: number;
  patient_name: string;
  phone: string | null;
  email: string | null;
  type_id: number;
  type_name: string;
  treatment: string;
  last_visit: string | null;
  last_dentist_id: number | null;
  last_dentist: string | null;
  due_date: string;
  due_set_by_hand: boolean;
  snoozed_until: string | null;
  scheduled_on: string | null;
  last_contact_at: Date | string | null;
  last_contact_kind: 'call' | 'reminder' | null;
  last_contact_note: string | null;
  active: boolean;
  note: string;
  version: number;
}

const recallOf = (row: RecallRecord): RecallRow => ({
  patient_id: row.patient_id,
  patient_name: row.patient_name,
  phone: row.phone ?? '',
  email: row.email ?? '',
  type_id: row.type_id,
  type_name: row.type_name,
  // Recall types are written with the product's treatments only.
  treatment: row.treatment as Treatment,
  last_visit: row.last_visit,
  last_dentist_id: row.last_dentist_id,
  last_dentist: row.last_dentist,
  due_date: row.due_date,
  due_set_by_hand: row.due_set_by_hand,
  snoozed_until: row.snoozed_until,
  scheduled_on: row.scheduled_on,
  last_contact:
    row.last_contact_at && row.last_contact_kind
      ? {
          at: new Date(row.last_contact_at).toISOString(),
          kind: row.last_contact_kind,
          note: row.last_contact_note ?? '',
        }
      : null,
  active: row.active,
  note: row.note,
  version: row.version,
});

export async function findRecall(
  db: Reader,
  clinicId: number,
  patientId: number,
  typeId: number,
  /** Held to the transaction's end (the recall's row only, not its patient's or type's). */
  lock = false,
): Promise<RecallRow | null> {
  const today = await clinicToday(db, clinicId);
  const { rows } = await db.execute(
    sql`${recallSelect(clinicId, today)} and r.patient_id = ${patientId} and r.recall_type_id = ${typeId}
      ${lock ? sql`for update of r` : sql``}`,
  );
  const [row] = rows as unknown as RecallRecord[];
  return row ? recallOf(row) : null;
}

/**
 * One patient's recalls of the types that are on, turned off for them or not, by the type's name.
 * Null when the clinic has no such patient.
 */
export async function listPatientRecall(
  db: Reader,
  clinicId: number,
  patientId: number,
): Promise<RecallRow[] | null> {
  const { rows: found } = await db.execute(
    sql`select 1 from patients where clinic_id = ${clinicId} and id = ${patientId}`,
  );
  if (found.length === 0) return null;
  const today = await clinicToday(db, clinicId);
  const { rows } = await db.execute(sql`
    ${recallSelect(clinicId, today)} and r.patient_id = ${patientId} and t.active
    order by lower(t.name), r.recall_type_id`);
  return (rows as unknown as RecallRecord[]).map(recallOf);
}

/**
 * The recall list: the clinic's recalls that are on (and their type on), of its active patients,
 * coming up by `due_by` (from `due_from` when given, overdue ones otherwise), soonest first. The index
 * on (clinic, follow-up day) gives the page in order; the count stops at the list's cap.
 */
export async function listRecall(
  db: Reader,
  clinicId: number,
  query: z.output<typeof recallQuerySchema>,
): Promise<{ data: RecallRow[]; total: number; total_capped: boolean }> {
  const today = await clinicToday(db, clinicId);
  const dueBy = query.due_by ?? addDays(today, RECALL_DEFAULT_DAYS_AHEAD);
  const conditions: SQL[] = [
    sql`r.active`,
    sql`t.active`,
    sql`p.status = 'active'`,
    sql`r.follow_up_on <= ${dueBy}::date`,
  ];
  if (query.due_from) conditions.push(sql`r.follow_up_on >= ${query.due_from}::date`);
  if (query.type_id) conditions.push(sql`r.recall_type_id = ${query.type_id}`);
  if (query.dentist_id) conditions.push(sql`r.last_dentist_id = ${query.dentist_id}`);
  if (query.contacted) {
    conditions.push(
      query.contacted === 'yes' ? sql`r.last_contact_at is not null` : sql`r.last_contact_at is null`,
    );
  }
  if (query.search) conditions.push(sql`p.name ilike ${`%${query.search.replace(/[\\%_]/g, '\\$&')}%`}`);
  // Scheduled: a visit of its treatment is booked from today on; the recall keeps its latest booked
  // day (migration 0024), so this is a test of the row, not a probe of the patient's visits.
  if (query.scheduled === 'yes') conditions.push(sql`r.booked_until >= ${today}::date`);
  if (query.scheduled === 'no')
    conditions.push(sql`(r.booked_until is null or r.booked_until < ${today}::date)`);
  const where = sql.join(conditions, sql` and `);
  const offset = (query.page - 1) * query.limit;
  let capped = false;
  const { data, total } = await pageWithTotal(
    { offset, limit: query.limit },
    async () => {
      const { rows } = await db.execute(sql`
        ${recallSelect(clinicId, today)} and ${where}
        order by r.follow_up_on, r.patient_id, r.recall_type_id
        limit ${query.limit} offset ${offset}`);
      return (rows as unknown as RecallRecord[]).map(recallOf);
    },
    async () => {
      const counted = await cappedCount(
        db,
        sql`select 1 from patient_recalls r
          join recall_types t on t.clinic_id = r.clinic_id and t.id = r.recall_type_id
          join patients p on p.clinic_id = r.clinic_id and p.id = r.patient_id
          where r.clinic_id = ${clinicId} and ${where}`,
        listCountCap(query.page, query.limit),
      );
      capped = counted.capped;
      return counted.total;
    },
  );
  return { data, total, total_capped: capped };
}

/** Locks a patient's recall for a write, checks If-Match, and answers it after `write`. */
async function writeRecall(
  db: Database,
  actor: Actor,
  patientId: number,
  typeId: number,
  expected: ExpectedVersion,
  write: (tx: Transaction, held: RecallRow) => Promise<{ action: string; details: Record<string, unknown> }>,
): Promise<RecallRow> {
  return db.transaction(async (tx) => {
    const held = await findRecall(tx, actor.clinicId, patientId, typeId, true);
    if (!held) throw new NotFound(RECALL_NOT_FOUND);
    requireVersion(held.version, expected);
    const audited = await write(tx, held);
    await recordActorAudit(tx, actor, {
      action: audited.action,
      entity: 'recall',
      entityId: patientId,
      details: { type_id: typeId, ...audited.details },
    });
    const recall = await findRecall(tx, actor.clinicId, patientId, typeId);
    if (!recall) throw new NotFound(RECALL_NOT_FOUND);
    return recall;
  });
}

/** Staff set the due date by hand, snooze it, turn it off for the patient, or note why. */
export function updateRecall(
  db: Database,
  actor: Actor,
  patientId: number,
  typeId: number,
  update: RecallUpdate,
  expected: ExpectedVersion,
): Promise<RecallRow> {
  return writeRecall(db, actor, patientId, typeId, expected, async (tx) => {
    const sets: SQL[] = [sql`updated_at = now()`];
    if (update.due_date !== undefined)
      sets.push(sql`due_date = ${update.due_date}::date, due_set_by_hand = true`);
    if (update.snoozed_until !== undefined) sets.push(sql`snoozed_until = ${update.snoozed_until}::date`);
    if (update.active !== undefined) sets.push(sql`active = ${update.active}`);
    if (update.note !== undefined) sets.push(sql`note = ${update.note}`);
    await tx.execute(sql`
      update patient_recalls set ${sql.join(sets, sql`, `)}
      where clinic_id = ${actor.clinicId} and patient_id = ${patientId} and recall_type_id = ${typeId}`);
    const changed = Object.keys(update).filter((field) => field !== 'version');
    return { action: update.snoozed_until ? 'recall_snoozed' : 'update', details: { changed } };
  });
}

/** The patient was called about it. */
export function markContacted(
  db: Database,
  actor: Actor,
  patientId: number,
  typeId: number,
  note: string,
): Promise<RecallRow> {
  return writeRecall(db, actor, patientId, typeId, null, async (tx) => {
    await tx.execute(sql`
      update patient_recalls set last_contact_at = now(), last_contact_kind = 'call',
        last_contact_note = ${note}, updated_at = now()
      where clinic_id = ${actor.clinicId} and patient_id = ${patientId} and recall_type_id = ${typeId}`);
    return { action: 'recall_contacted', details: { kind: 'call' } };
  });
}

/**
 * A reminder through the outbox, in the same transaction as the note of it: by e-mail and SMS as the
 * clinic's reminder switches allow and the patient has addresses. None possible: 409, nothing written.
 */
export async function sendRecallReminder(
  db: Database,
  actor: Actor,
  patientId: number,
  typeId: number,
): Promise<{ recall: RecallRow; queued: Array<'email' | 'sms'> }> {
  let queued: Array<'email' | 'sms'> = [];
  const recall = await writeRecall(db, actor, patientId, typeId, null, async (tx, current) => {
    queued = requireQueued(
      await queueRecallReminder(tx, actor.clinicId, {
        patientId,
        patient: current.patient_name,
        email: current.email,
        phone: current.phone,
        recallName: current.type_name,
      }),
      NO_RECALL_CHANNEL,
    );
    await tx.execute(sql`
      update patient_recalls set last_contact_at = now(), last_contact_kind = 'reminder',
        last_contact_note = ${`Reminder by ${queued.join(' and ')}`}, updated_at = now()
      where clinic_id = ${actor.clinicId} and patient_id = ${patientId} and recall_type_id = ${typeId}`);
    return { action: 'recall_reminded', details: { channels: queued } };
  });
  return { recall, queued };
}
