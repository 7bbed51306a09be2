import {
  type Appointment,
  FUTURE_BIRTH_DATE_MESSAGE,
  type NameCursor,
  nameCursorOf,
  PATIENT_SEEKING_SORTS,
  type PatientListQuery,
  type PatientListRow,
  type PatientSort,
  type PatientWrite,
  type WirePatient,
  wirePatientSchema,
} from '@dental/shared/domain';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { pagePlanOf, pageWithTotal, readCountedPage, type SeekPage, seekPage } from '../../db/cappedCount';
import { type Database, onOneConnectionEachCall, type Reader, type Transaction } from '../../db/client';
import { clinicNow, clinicToday } from '../../db/clinicTime';
import { databaseError, FOREIGN_KEY_VIOLATION } from '../../db/databaseErrors';
import { patients } from '../../db/schema';
import { isoTimestamp } from '../../db/utcTimestamps';
import { Conflict, InvalidValue, NotFound } from '../../domain/errors';
import { type ExpectedVersion, requireVersion } from '../../plugins/versions';
import { type Actor, recordActorAudit } from '../actorAudit';
import { countAppointments, readAppointments } from '../appointments/appointmentRows';
import { queueNewPatientAlert } from '../notifications/automaticMessages';
import { canScanInNameOrder, matchingPatientIds, patientsInNameOrder, searchWordsOf } from './patientSearch';

export const PATIENT_NOT_FOUND = 'Patient not found';
export const PATIENT_HAS_APPOINTMENTS =
  'This patient has appointments and cannot be deleted; delete those appointments first, or set the patient inactive';

interface PatientRow {
  id: number | string;
  name: string;
  email: string | null;
  phone: string;
  date_of_birth: string | null;
  address: string | null;
  emergency_contact: string | null;
  medical_history: string | null;
  status: WirePatient['status'];
  created_at: string | Date;
  updated_at: string | Date;
  version: number | string;
  last_visit: string | null;
  next_id: number | string | null;
  next_date: string | null;
  next_time: string | null;
}

type PatientDetailsRow = Pick<
  PatientRow,
  'name' | 'email' | 'phone' | 'date_of_birth' | 'address' | 'emergency_contact' | 'medical_history'
>;

/**
 * A patient's own details as the table's columns and the wire name them, from a row named in
 * snake_case: what SQL reads, and a clinic export's patient (backup/clinicImport.ts).
 */
export function patientDetailsOf(row: PatientDetailsRow) {
  return {
    name: row.name,
    email: row.email,
    phone: row.phone,
    dateOfBirth: row.date_of_birth,
    address: row.address,
    emergencyContact: row.emergency_contact,
    medicalHistory: row.medical_history,
  };
}

function toWirePatient(row: PatientRow): WirePatient {
  return {
    id: Number(row.id),
    ...patientDetailsOf(row),
    lastVisit: row.last_visit,
    nextAppointment:
      row.next_id !== null && row.next_date !== null && row.next_time !== null
        ? { id: Number(row.next_id), date: row.next_date, time: row.next_time }
        : null,
    status: row.status,
    created_at: isoTimestamp(row.created_at),
    updated_at: isoTimestamp(row.updated_at),
    version: Number(row.version),
  };
}

const SORT_COLUMNS: Record<string, SQL> = {
  name: sql`name`,
  created_at: sql`created_at`,
  date_of_birth: sql`date_of_birth`,
};

function orderOf(sort: PatientSort | undefined, alias: SQL): SQL {
  const key = sort ?? 'name';
  const descending = key.startsWith('-');
  const column = SORT_COLUMNS[descending ? key.slice(1) : key] ?? SORT_COLUMNS.name;
  const direction = descending ? sql`desc nulls last` : sql`asc nulls last`;
  return sql`${alias}.${column} ${direction}, ${alias}.id asc`;
}

/**
 * The patients `chosen` selects (a subquery on `patients`, already filtered, ordered and paged),
 * with what their appointments say, by the clinic's clock: the last visit (a completed appointment,
 * or one not cancelled whose time has passed) and the next pending or confirmed one still to come.
 * Both walk appointments_patient_date_idx (clinic_id, patient_id, date, time) for the page's rows only.
 */
async function readPatients(
  db: Reader,
  now: { date: string; time: string },
  chosen: SQL,
  order: SQL,
): Promise<WirePatient[]> {
  return (await selectPatients(db, now, chosen, order, { withHistory: true })).map(toWirePatient);
}

/** A list's row: the patient without their medical history (never read for a list). */
function toListRow(row: PatientRow): PatientListRow {
  const { medicalHistory: _unread, ...listed } = toWirePatient(row);
  return listed;
}

async function selectPatients(
  db: Reader,
  now: { date: string; time: string },
  chosen: SQL,
  order: SQL,
  { withHistory, extraColumn }: { withHistory: boolean; extraColumn?: SQL },
): Promise<PatientRow[]> {
  const passed = sql`(a.date, a.time) < (${now.date}::date, ${now.time})`;
  const result = await db.execute(sql`
    select p.id, p.name, p.email, p.phone, to_char(p.date_of_birth, 'YYYY-MM-DD') as date_of_birth,
      p.address, p.emergency_contact, ${withHistory ? sql`p.medical_history` : sql`null as medical_history`},
      p.status, p.created_at, p.updated_at,
      p.version,
      (select to_char(max(a.date), 'YYYY-MM-DD') from appointments a
        where a.clinic_id = p.clinic_id and a.patient_id = p.id and a.date <= ${now.date}::date
          and (a.status = 'completed' or (a.status <> 'cancelled' and ${passed}))) as last_visit,
      next.id as next_id, next.date as next_date, next.time as next_time
      ${extraColumn ? sql`, ${extraColumn}` : sql``}
    from (${chosen}) p
    left join lateral (
      select a.id, to_char(a.date, 'YYYY-MM-DD') as date, a.time from appointments a
      where a.clinic_id = p.clinic_id and a.patient_id = p.id
        and (a.date, a.time) >= (${now.date}::date, ${now.time})
        and a.status in ('pending', 'confirmed')
      order by a.date, a.time limit 1
    ) next on true
    order by ${order}
  `);
  return result.rows as unknown as PatientRow[];
}

/**
 * The rows past `after` (the previous page's last row) in name order (`name`, then `id` ascending
 * either way): a seek on the name indexes instead of a count of the earlier pages' rows.
 */
function pastNameCursor(name: SQL, id: SQL, after: NameCursor | undefined, descending: boolean): SQL[] {
  if (!after) return [];
  if (!descending) return [sql`(${name}, ${id}) > (${after.name}, ${after.id})`];
  return [sql`${name} <= ${after.name}`, sql`(${name} < ${after.name} or ${id} > ${after.id})`];
}

/**
 * A page of the clinic's patients. A search (patientSearch.ts) in name order reads its page and its
 * count from patient_search_terms_prefix_idx alone; in another order it narrows by the matching ids.
 * Plain pages come from the (clinic_id, status, name) and (clinic_id, name) indexes. The total is
 * exact up to listCountCap, counted in the page's own statement (readCountedPage). In name order a
 * page may start `after` the previous page's last row (its `next_cursor`), sought in those indexes;
 * the rows from there on are counted, the earlier pages' added to them.
 */
async function readPatientList(
  db: Database,
  clinicId: number,
  query: PatientListQuery,
): Promise<SeekPage<PatientListRow>> {
  const plan = pagePlanOf(query);
  const { offset, cap } = plan;
  const sort = query.sort ?? 'name';
  const descending = sort === '-name';
  const conditions: SQL[] = [sql`${patients.clinicId} = ${clinicId}`];
  if (query.status) conditions.push(sql`${patients.status} = ${query.status}`);
  const words = query.search ? await searchWordsOf(db, query.search) : [];
  if (query.search && words.length === 0) return { data: [], total: 0, capped: false };

  let chosen: SQL;
  let matches: SQL;
  if (words.length && PATIENT_SEEKING_SORTS.has(sort) && canScanInNameOrder(words)) {
    const past = pastNameCursor(sql`t.name`, sql`t.patient_id`, query.after, descending);
    matches = patientsInNameOrder(clinicId, words, query.status, descending, past);
    chosen = sql`select ${patients}.* from (${matches} limit ${query.limit} offset ${offset}) as page
      join ${patients} on ${patients.clinicId} = ${clinicId} and ${patients.id} = page.patient_id`;
  } else {
    if (words.length) conditions.push(sql`${patients.id} in (${matchingPatientIds(clinicId, words)})`);
    conditions.push(...pastNameCursor(sql`${patients.name}`, sql`${patients.id}`, query.after, descending));
    const where = sql.join(conditions, sql` and `);
    matches = sql`select 1 from ${patients} where ${where}`;
    chosen = sql`select * from ${patients} where ${where}
      order by ${orderOf(query.sort, sql`${patients}`)}
      limit ${query.limit} offset ${offset}`;
  }
  const now = await clinicNow(db, clinicId);
  const { rows, ...counted } = await readCountedPage(db, { matches, offset, cap }, (countColumn) =>
    selectPatients(db, now, chosen, orderOf(query.sort, sql`p`), {
      withHistory: false,
      extraColumn: countColumn,
    }),
  );
  const page = { data: rows.map(toListRow), ...counted };
  return seekPage(page, plan, PATIENT_SEEKING_SORTS.has(sort) ? nameCursorOf : null);
}

/** A page of the list (readPatientList), its statements on one connection. */
export const listPatients = onOneConnectionEachCall(readPatientList);

export async function findPatient(
  db: Reader,
  clinicId: number,
  patientId: number,
): Promise<WirePatient | null> {
  const now = await clinicNow(db, clinicId);
  const chosen = sql`select * from ${patients}
    where ${patients.clinicId} = ${clinicId} and ${patients.id} = ${patientId}`;
  const [patient] = await readPatients(db, now, chosen, sql`p.id`);
  return patient ?? null;
}

/** One patient as its routes read it (rowRoutes): its wire schema, its read and its 404. */
export const patientLookup = { schema: wirePatientSchema, find: findPatient, notFound: PATIENT_NOT_FOUND };

function refuseFutureBirthDate(dateOfBirth: string, today: string): void {
  if (dateOfBirth > today) {
    throw InvalidValue.of('dateOfBirth', FUTURE_BIRTH_DATE_MESSAGE);
  }
}

export async function createPatient(db: Database, actor: Actor, input: PatientWrite): Promise<WirePatient> {
  return db.transaction(async (tx) => {
    refuseFutureBirthDate(input.dateOfBirth, await clinicToday(tx, actor.clinicId));
    const [created] = await tx
      .insert(patients)
      // The write schema's output holds the patient's columns and nothing else.
      .values({ clinicId: actor.clinicId, ...input, status: 'active' })
      .returning({ id: patients.id });
    if (!created) throw new Error('Patient insert returned no row');
    await queueNewPatientAlert(tx, actor.clinicId, created.id);
    await recordActorAudit(tx, actor, {
      action: 'create',
      entity: 'patient',
      entityId: created.id,
      details: { name: input.name },
    });
    return (await findPatient(tx, actor.clinicId, created.id)) as WirePatient;
  });
}

/** The patient a write changes, locked to the commit; refused (412) when not at the `expected` version. */
async function lockPatient(tx: Transaction, clinicId: number, patientId: number, expected: ExpectedVersion) {
  const [row] = await tx
    .select({ id: patients.id, name: patients.name, status: patients.status, version: patients.version })
    .from(patients)
    .where(and(eq(patients.clinicId, clinicId), eq(patients.id, patientId)))
    .for('update');
  if (!row) throw new NotFound(PATIENT_NOT_FOUND);
  requireVersion(row.version, expected);
  return row;
}

export async function updatePatient(
  db: Database,
  actor: Actor,
  patientId: number,
  input: PatientWrite,
  expected: ExpectedVersion = null,
): Promise<WirePatient> {
  return db.transaction(async (tx) => {
    const current = await lockPatient(tx, actor.clinicId, patientId, expected);
    refuseFutureBirthDate(input.dateOfBirth, await clinicToday(tx, actor.clinicId));
    const status = input.status ?? (current.status as WirePatient['status']);
    await tx
      .update(patients)
      .set({ ...input, status, updatedAt: new Date() })
      .where(and(eq(patients.clinicId, actor.clinicId), eq(patients.id, patientId)));
    await recordActorAudit(tx, actor, {
      action: 'update',
      entity: 'patient',
      entityId: patientId,
      details: { name: input.name, status, ...(status !== current.status ? { from: current.status } : {}) },
    });
    return (await findPatient(tx, actor.clinicId, patientId)) as WirePatient;
  });
}

/** A patient with appointments keeps them: the delete is refused (their history is the clinic's record). */
export async function deletePatient(
  db: Database,
  actor: Actor,
  patientId: number,
  expected: ExpectedVersion = null,
): Promise<void> {
  try {
    await db.transaction(async (tx) => {
      const current = await lockPatient(tx, actor.clinicId, patientId, expected);
      const booked = await countAppointments(
        tx,
        sql`a.clinic_id = ${actor.clinicId} and a.patient_id = ${patientId}`,
      );
      if (booked > 0) throw new Conflict(PATIENT_HAS_APPOINTMENTS);
      await tx.delete(patients).where(and(eq(patients.clinicId, actor.clinicId), eq(patients.id, patientId)));
      await recordActorAudit(tx, actor, {
        action: 'delete',
        entity: 'patient',
        entityId: patientId,
        details: { name: current.name },
      });
    });
  } catch (error) {
    // An appointment booked for the patient while the delete ran.
    if (databaseError(error, [FOREIGN_KEY_VIOLATION])) throw new Conflict(PATIENT_HAS_APPOINTMENTS);
    throw error;
  }
}

/**
 * A patient's appointments, newest first, on appointments_patient_date_idx: usually one statement,
 * the page (counted only when full); the patient is looked up only when the page is empty.
 */
export async function listPatientAppointments(
  db: Database,
  clinicId: number,
  patientId: number,
  page: { page: number; limit: number },
): Promise<{ data: Appointment[]; total: number }> {
  const where = sql`a.clinic_id = ${clinicId} and a.patient_id = ${patientId}`;
  const paging = { offset: (page.page - 1) * page.limit, limit: page.limit };
  const { data, total } = await pageWithTotal(
    paging,
    () =>
      readAppointments(
        db,
        clinicId,
        where,
        paging.limit,
        paging.offset,
        sql`a.date desc, a.time desc, a.id desc`,
      ),
    () => countAppointments(db, where),
  );
  // No appointments on the page: the patient may not be the clinic's.
  if (data.length === 0) {
    const [exists] = await db
      .select({ id: patients.id })
      .from(patients)
      .where(and(eq(patients.clinicId, clinicId), eq(patients.id, patientId)));
    if (!exists) throw new NotFound(PATIENT_NOT_FOUND);
  }
  return { data, total };
}
