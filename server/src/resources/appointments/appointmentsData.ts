import {
  APPOINTMENT_SEEKING_SORTS,
  type Appointment,
  type AppointmentListQuery,
  type AppointmentSort,
  type AppointmentStatus,
  type AppointmentWrite,
  appointmentSchema,
  canBookOutsideHours,
  canCompleteOn,
  type DateCursor,
  dateCursorOf,
  EARLY_COMPLETION_MESSAGE,
  endTimeOf,
  fitsOpenHours,
  minutesOf,
  outsideHoursMessage,
  PAST_BOOKING_MESSAGE,
  type PracticeSettings,
  type Role,
  TREATMENTS,
  timeRange,
} from '@dental/shared/domain';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { GATHERED_MATCHES, pagePlanOf, type SeekPage, seekPage } from '../../db/cappedCount';
import { type Database, onOneConnectionEachCall, type Reader, type Transaction } from '../../db/client';
import { clinicToday } from '../../db/clinicTime';
import { EXCLUSION_VIOLATION, violated } from '../../db/databaseErrors';
import { appointments, dentists, patients } from '../../db/schema';
import { wordStartPattern } from '../../db/search';
import { HttpError } from '../../plugins/errors';
import { type ExpectedVersion, requireVersion } from '../../plugins/versions';
import { type Actor as ClinicActor, recordActorAudit } from '../actorAudit';
import { lockDays, settleDays } from '../availability/availabilityData';
import { type DentistDays, dentistDaysColumns, openHoursOf } from '../availability/openHours';
import {
  queueConfirmation,
  queueNewPatientAlert,
  syncAppointmentReminders,
} from '../notifications/outboxQueue';
import {
  isLetterWord,
  matchingPatientIds,
  patientMatchesRowByRow,
  searchWordsOf,
  startOf,
} from '../patients/patientSearch';
import { readSettings } from '../settings/settingsData';
import { takeOffWaitlist } from '../waitlist/takeOffWaitlist';
import {
  BY_DATE_AND_TIME,
  countAppointments,
  readAppointments,
  readCountedAppointments,
  STILL_OVERLAPPING,
} from './appointmentRows';

export const APPOINTMENT_NOT_FOUND = 'Appointment not found';
export const NO_ACTIVE_DENTIST = 'No active dentist with this id in your clinic';
export const NO_SUCH_PATIENT = 'No patient with this id in your clinic';

/** Who acts, and their role: what they may book outside the dentist's open hours. */
export interface Actor extends ClinicActor {
  role: Role;
}

const fieldError = (field: string, message: string) =>
  new HttpError(400, `Invalid ${field}: ${message}`, [{ field, message }]);

const ORDERS: Record<AppointmentSort, SQL> = {
  date: BY_DATE_AND_TIME,
  '-date': sql`a.date desc, a.time desc, a.id desc`,
  patient: sql`a.patient_name, a.date, a.time, a.id`,
  '-patient': sql`a.patient_name desc, a.date, a.time, a.id`,
  dentist: sql`d.name, a.date, a.time, a.id`,
  '-dentist': sql`d.name desc, a.date, a.time, a.id`,
  status: sql`a.status, a.date, a.time, a.id`,
  '-status': sql`a.status desc, a.date, a.time, a.id`,
  created_at: sql`a.created_at, a.id`,
  '-created_at': sql`a.created_at desc, a.id desc`,
};
/** Orders by the dentist's name, which the appointments themselves do not hold. */
const DENTIST_NAME_ORDERS = new Set<AppointmentSort>(['dentist', '-dentist']);

const valueList = (values: readonly (number | string)[]) =>
  sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );

/** Words of a fixed text as patient_search_words() splits a name: at spaces and punctuation. */
const wordsOfText = (text: string) =>
  text
    .toLowerCase()
    .split(/[\s\p{P}]+/u)
    .filter(Boolean);

/** Up to this many matching patients are gathered first and their appointments read by patient. */
const FEW_PATIENTS = 200;

/** The ids of the patients matching the words when they are few (FEW_PATIENTS), else null. */
async function fewPatients(db: Reader, clinicId: number, words: string[]): Promise<number[] | null> {
  // A patient has a few words; more rows than this read means more patients than FEW_PATIENTS.
  const readAtMost = FEW_PATIENTS * 4;
  const found = await db.execute(
    sql`select array_agg(distinct patient_id) as ids, count(*) as seen
      from (${matchingPatientIds(clinicId, words)} limit ${readAtMost + 1}) as matching`,
  );
  const row = found.rows[0] as { ids?: Array<number | string> | null; seen?: number | string } | undefined;
  const ids = (row?.ids ?? []).map(Number);
  return Number(row?.seen ?? 0) <= readAtMost && ids.length <= FEW_PATIENTS ? ids : null;
}

/** A search matching more than this share of the clinic's patients (1 in 8) matches most rows. */
const COMMON_SHARE = 8;

/** More than one in COMMON_SHARE of the clinic's patients match the words (a phone's area code). */
async function commonPatients(db: Reader, clinicId: number, words: string[]): Promise<boolean> {
  const share = sql`(select coalesce(sum(total), 0) / ${COMMON_SHARE} from patient_status_counts
    where clinic_id = ${clinicId})`;
  const found = await db.execute(
    sql`select count(*) > ${share} as common
      from (${matchingPatientIds(clinicId, words)} limit ${share} + 1) as matching`,
  );
  return Boolean((found.rows[0] as { common?: boolean } | undefined)?.common);
}

/**
 * The appointments of patients matching the words (`few`: fewPatients, asked once per list). Few
 * patients (a name typed in full): their ids, so the appointments come from
 * appointments_patient_date_idx. Common ones (an area code): each appointment the list's own order
 * reaches is probed, and most match. In between: PostgreSQL gathers the patients into a hash, which
 * each appointment reached is tested against.
 */
async function patientArm(
  db: Reader,
  clinicId: number,
  words: string[],
  few: () => Promise<number[] | null>,
): Promise<SQL> {
  const ids = await few();
  if (ids) return ids.length ? sql`a.patient_id in (${valueList(ids)})` : sql`false`;
  return (await commonPatients(db, clinicId, words))
    ? patientMatchesRowByRow(clinicId, sql`a.patient_id`, words)
    : sql`a.patient_id in (${matchingPatientIds(clinicId, words)})`;
}

/** The treatments (a fixed list) whose own words start with every word typed. */
const treatmentsMatching = (words: string[]) =>
  TREATMENTS.filter((treatment) => {
    const own = wordsOfText(treatment);
    return words.every((word) => own.some((each) => each.startsWith(word)));
  });

/** The clinic's dentists (a few) with a word of the name starting with each word typed. */
function dentistsMatching(clinicId: number, words: string[]): SQL {
  const dentistWords = words.map(
    (word) => sql`exists (select 1 from regexp_split_to_table(lower(d.name), '[[:space:][:punct:]]+') as w
      where starts_with(w, ${word}))`,
  );
  return sql`select d.id from dentists d where d.clinic_id = ${clinicId} and ${sql.join(dentistWords, sql` and `)}`;
}

/**
 * What `search` adds to the where, on the appointments table `a` alone: every word typed starts a
 * word of the patient (as a patient search matches, patientSearch.ts), of the dentist's name or of
 * the treatment. Dentists (a few per clinic) and treatments (a fixed list) are resolved first, so
 * they become `dentist_id in (…)` and `treatment in (…)`; the patients are their ids from
 * patient_search_terms, whatever the length of the term.
 */
async function searchCondition(
  db: Reader,
  clinicId: number,
  words: string[],
  few: () => Promise<number[] | null>,
): Promise<SQL> {
  if (!words.length) return sql`false`;
  const treatments = treatmentsMatching(words);
  const arms: SQL[] = [
    await patientArm(db, clinicId, words, few),
    // A few dentists per clinic: PostgreSQL resolves these once per statement.
    sql`a.dentist_id in (${dentistsMatching(clinicId, words)})`,
  ];
  if (treatments.length) arms.push(sql`a.treatment in (${valueList(treatments)})`);
  return sql`(${sql.join(arms, sql` or `)})`;
}

/** The list's filters on `table` (appointments or appointment_search_terms: same column names). */
function filtersOn(table: SQL, query: AppointmentListQuery): SQL[] {
  const conditions: SQL[] = [];
  if (query.status) conditions.push(sql`${table}.status = ${query.status}`);
  if (query.dentist_id) conditions.push(sql`${table}.dentist_id = ${query.dentist_id}`);
  if (query.patient_id) conditions.push(sql`${table}.patient_id = ${query.patient_id}`);
  if (query.date) conditions.push(sql`${table}.date = ${query.date}::date`);
  if (query.from) conditions.push(sql`${table}.date >= ${query.from}::date`);
  if (query.to) conditions.push(sql`${table}.date <= ${query.to}::date`);
  return conditions;
}

/**
 * The rows past `after` (the previous page's last row) in the list's date order, on `table` whose
 * appointment id is `id`: a row comparison the date indexes (…, date, time) seek to.
 */
function pastCursor(table: SQL, id: SQL, after: DateCursor | undefined, descending: boolean): SQL[] {
  if (!after) return [];
  const row = sql`(${table}.date, ${table}.time, ${id})`;
  const cursor = sql`(${after.date}::date, ${after.time}, ${after.id})`;
  return [descending ? sql`${row} < ${cursor}` : sql`${row} > ${cursor}`];
}

/**
 * Letter words (isLetterWord) of one start, the first two characters: one range of
 * appointment_search_terms holds every match.
 */
const inOneStart = (words: string[]) =>
  words.every((word) => isLetterWord(word) && startOf(word) === startOf(words[0] ?? ''));

/**
 * The appointments whose patient matches, as rows `t` with the columns the list filters by
 * (date, time, status, dentist_id, patient_id, treatment) and `id`, each readable in date order:
 * words of one start are a range of appointment_search_terms; other words (a phone number, `ma jo`)
 * the appointments of their few patients. Null when they match too many patients for either.
 */
async function patientsPart(
  clinicId: number,
  words: string[],
  few: () => Promise<number[] | null>,
): Promise<{ rows: SQL; id: SQL; conditions: SQL[] } | null> {
  const [first = ''] = words;
  if (inOneStart(words)) {
    return {
      rows: sql`appointment_search_terms t`,
      id: sql`t.appointment_id`,
      conditions: [
        sql`t.clinic_id = ${clinicId} and t.prefix = ${startOf(first)}`,
        ...words.map((word) => sql`t.terms like ${wordStartPattern(word)}`),
      ],
    };
  }
  const ids = await few();
  if (!ids) return null;
  return {
    rows: sql`appointments t`,
    id: sql`t.id`,
    conditions: [
      sql`t.clinic_id = ${clinicId}`,
      ids.length ? sql`t.patient_id in (${valueList(ids)})` : sql`false`,
    ],
  };
}

/** More matching dentists than this (`dr`) go the way of searchCondition. */
const FEW_DENTISTS = 8;

/**
 * The matching appointments as (date, time, id) rows, each once, every part already in date order:
 * the patients' part (patientsPart), each matching dentist a range of appointments_dentist_date_idx,
 * matching treatments a walk of appointments_date_idx. PostgreSQL merges the parts in order, so a
 * page or a capped count reads about as many entries as it returns, however many patients the
 * letters match.
 */
async function matchedInDateOrder(
  db: Reader,
  clinicId: number,
  query: AppointmentListQuery,
  words: string[],
  patients: { rows: SQL; id: SQL; conditions: SQL[] },
  descending: boolean,
): Promise<SQL | null> {
  const found = await db.execute(dentistsMatching(clinicId, words));
  const dentistIds = (found.rows as Array<{ id: number | string }>)
    .map((row) => Number(row.id))
    .filter((id) => !query.dentist_id || id === query.dentist_id);
  // Past a few, PostgreSQL reads the dentists' ranges whole and sorts them rather than merge them.
  if (dentistIds.length > FEW_DENTISTS) return null;
  const treatments = treatmentsMatching(words);
  // Each appointment in one part only, so the parts are merged in order without removing repeats
  // (which PostgreSQL does by gathering every match first): the patients' part leaves out the
  // matching dentists and treatments, the treatments' part the matching dentists. All from indexes.
  const notTheDentists = (table: SQL) =>
    dentistIds.length ? [sql`${table}.dentist_id not in (${valueList(dentistIds)})`] : [];
  const notTheTreatments = treatments.length ? [sql`t.treatment not in (${valueList(treatments)})`] : [];
  const patientsConditions = [
    ...patients.conditions,
    ...filtersOn(sql`t`, query),
    ...pastCursor(sql`t`, patients.id, query.after, descending),
    ...notTheDentists(sql`t`),
    ...notTheTreatments,
  ];
  // Each part in the list's order: PostgreSQL merges ordered parts of a union, and would otherwise
  // gather and sort them all.
  const direction = descending ? sql`desc` : sql`asc`;
  const inOrder = sql`order by 1 ${direction}, 2 ${direction}, 3 ${direction}`;
  const parts: SQL[] = [
    sql`(select t.date, t.time, ${patients.id} as id from ${patients.rows}
      where ${sql.join(patientsConditions, sql` and `)} ${inOrder})`,
  ];
  const ofAppointments = (conditions: SQL[]) =>
    sql`(select a.date, a.time, a.id from appointments a
      where ${sql.join(
        [
          sql`a.clinic_id = ${clinicId}`,
          ...conditions,
          ...filtersOn(sql`a`, query),
          ...pastCursor(sql`a`, sql`a.id`, query.after, descending),
        ],
        sql` and `,
      )} ${inOrder})`;
  for (const id of dentistIds) parts.push(ofAppointments([sql`a.dentist_id = ${id}`]));
  if (treatments.length) {
    parts.push(ofAppointments([sql`a.treatment in (${valueList(treatments)})`, ...notTheDentists(sql`a`)]));
  }
  return sql.join(parts, sql` union all `);
}

/**
 * Filters go to the appointments indexes that lead with clinic_id (status, dentist, dentist+status,
 * patient, date, each then date and time, so pages come out in order); search in date order as
 * matchedInDateOrder says, in another order as searchCondition says. The total counts the same
 * rows, up to listCountCap, in the page's own statement (readCountedAppointments).
 *
 * In date order a page may start `after` the previous page's last row (its `next_cursor`): the
 * indexes seek there instead of stepping over the earlier pages' rows, and only the rows from there
 * on are counted, the earlier pages' added to them.
 */
async function readAppointmentList(
  db: Database,
  clinicId: number,
  query: AppointmentListQuery,
): Promise<SeekPage<Appointment>> {
  const sort = query.sort ?? 'date';
  const descending = sort === '-date';
  const plan = pagePlanOf(query);
  const { offset, cap } = plan;
  const words = query.search?.trim() ? await searchWordsOf(db, query.search) : null;
  let asked: Promise<number[] | null> | undefined;
  const few = () => {
    asked ??= fewPatients(db, clinicId, words ?? []);
    return asked;
  };
  const patients =
    words?.length && APPOINTMENT_SEEKING_SORTS.has(sort) ? await patientsPart(clinicId, words, few) : null;
  const matched =
    words && patients && (await matchedInDateOrder(db, clinicId, query, words, patients, descending));
  const cursorOf = APPOINTMENT_SEEKING_SORTS.has(sort) ? dateCursorOf : null;
  if (matched) {
    const direction = descending ? sql`desc` : sql`asc`;
    const inOrder = sql`date ${direction}, time ${direction}, id ${direction}`;
    const ids = sql`select id from ${GATHERED_MATCHES} order by ${inOrder} limit ${query.limit} offset ${offset}`;
    const page = await readCountedAppointments(
      db,
      {
        clinicId,
        where: sql`a.clinic_id = ${clinicId} and a.id in (${ids})`,
        limit: query.limit,
        offset: 0,
        orderBy: ORDERS[sort],
      },
      { matches: matched, offset, cap, gatherInOrder: inOrder },
    );
    return seekPage(page, plan, cursorOf);
  }
  const conditions: SQL[] = [
    sql`a.clinic_id = ${clinicId}`,
    ...filtersOn(sql`a`, query),
    ...pastCursor(sql`a`, sql`a.id`, query.after, descending),
  ];
  if (words) conditions.push(await searchCondition(db, clinicId, words, few));
  const where = sql.join(conditions, sql` and `);
  const page = await readCountedAppointments(
    db,
    {
      clinicId,
      where,
      limit: query.limit,
      offset,
      orderBy: ORDERS[sort],
      byDentistName: DENTIST_NAME_ORDERS.has(sort),
    },
    { matches: sql`select 1 from appointments a where ${where}`, offset, cap },
  );
  return seekPage(page, plan, cursorOf);
}

/** A page of the list (readAppointmentList), its statements on one connection. */
export const listAppointments = onOneConnectionEachCall(readAppointmentList);

export async function findAppointment(
  db: Reader,
  clinicId: number,
  appointmentId: number,
): Promise<Appointment | null> {
  const [appointment] = await readAppointments(
    db,
    clinicId,
    sql`a.clinic_id = ${clinicId} and a.id = ${appointmentId}`,
    1,
  );
  return appointment ?? null;
}

/** One visit as its routes read it (rowRoutes): its wire schema, its read and its 404. */
export const visitLookup = {
  schema: appointmentSchema,
  find: findAppointment,
  notFound: APPOINTMENT_NOT_FOUND,
};

/** The live visits kept overlapping (overlap_group, migration 0015), in date order, and how many. */
export async function listOverlapping(
  db: Database,
  clinicId: number,
  limit: number,
): Promise<{ data: Appointment[]; total: number }> {
  const kept = sql`a.clinic_id = ${clinicId} and ${STILL_OVERLAPPING}`;
  const data = await readAppointments(db, clinicId, kept, limit);
  const total = await countAppointments(db, kept);
  return { data, total };
}

interface StoredAppointment {
  id: number;
  patientId: number;
  dentistId: number;
  date: string;
  time: string;
  duration: number;
  treatment: string;
  status: AppointmentStatus;
  outsideHours: boolean;
  outsideHoursReason: string | null;
}

/** The visit a write changes, locked to the commit; refused (412) when not at the `expected` version. */
async function lockAppointment(
  tx: Transaction,
  clinicId: number,
  appointmentId: number,
  expected: ExpectedVersion,
) {
  const [row] = await tx
    .select({
      id: appointments.id,
      version: appointments.version,
      patientId: appointments.patientId,
      dentistId: appointments.dentistId,
      date: appointments.date,
      time: appointments.time,
      duration: appointments.duration,
      treatment: appointments.treatment,
      status: appointments.status,
      outsideHours: appointments.outsideHours,
      outsideHoursReason: appointments.outsideHoursReason,
    })
    .from(appointments)
    .where(visitRow(clinicId, appointmentId))
    .for('update');
  if (!row) throw new HttpError(404, APPOINTMENT_NOT_FOUND);
  requireVersion(row.version, expected);
  return row as StoredAppointment;
}

async function dentistOf(db: Reader, clinicId: number, dentistId: number) {
  const [row] = await db
    .select({ ...dentistDaysColumns, status: dentists.status })
    .from(dentists)
    .where(and(eq(dentists.clinicId, clinicId), eq(dentists.id, dentistId)));
  return row ?? null;
}

/** The visit's dentist as the open-hours rule reads them (a dentist deleted since: no working days). */
async function dentistDays(db: Reader, clinicId: number, dentistId: number): Promise<DentistDays> {
  return (
    (await dentistOf(db, clinicId, dentistId)) ?? { id: dentistId, name: 'The dentist', workingDays: '' }
  );
}

/** A booking needs an active dentist of the clinic; an edit may keep the one it had. */
async function requireDentist(tx: Transaction, clinicId: number, dentistId: number, keeping: boolean) {
  const dentist = await dentistOf(tx, clinicId, dentistId);
  if (!dentist || (dentist.status !== 'active' && !keeping))
    throw fieldError('dentist_id', NO_ACTIVE_DENTIST);
  return dentist;
}

const digitsOf = (phone: string) => phone.replace(/\D/g, '');

/**
 * The patient a booking is for: the one named by `patient_id`, else the clinic's patient with this
 * name (any letter case) and phone (same digits), else a new active patient. The phone's digits
 * are one of the patient's search words (patient_search_terms), which finds the namesakes.
 */
async function resolvePatient(tx: Transaction, clinicId: number, input: AppointmentWrite): Promise<number> {
  if (input.patientId !== null) {
    const [row] = await tx
      .select({ id: patients.id })
      .from(patients)
      .where(and(eq(patients.clinicId, clinicId), eq(patients.id, input.patientId)));
    if (!row) throw fieldError('patient_id', NO_SUCH_PATIENT);
    return row.id;
  }
  const name = input.patient.toLowerCase();
  const digits = digitsOf(input.phone);
  const samePhone = digits
    ? sql`${patients.id} in (select patient_id from patient_search_terms
        where clinic_id = ${clinicId} and term = ${digits})`
    : sql`true`;
  const candidates = await tx
    .select({ id: patients.id, phone: patients.phone })
    .from(patients)
    .where(and(eq(patients.clinicId, clinicId), sql`lower(${patients.name}) = ${name}`, samePhone))
    .orderBy(patients.id);
  const known = candidates.find((candidate) => digitsOf(candidate.phone) === digits);
  if (known) return known.id;
  const [created] = await tx
    .insert(patients)
    .values({ clinicId, name: input.patient, phone: input.phone, status: 'active' })
    .returning({ id: patients.id });
  if (!created) throw new Error('Patient insert returned no row');
  await queueNewPatientAlert(tx, clinicId, created.id);
  return created.id;
}

/** Where a visit is to land: its dentist, patient, day, start and length. */
export interface Placement {
  dentistId: number;
  patientId: number;
  date: string;
  time: string;
  duration: number;
}

const DENTIST_TIME = 'appointments_dentist_time_excl';
const PATIENT_TIME = 'appointments_patient_time_excl';

/**
 * The 409 for a write the exclusion constraints refused: names the visit in the way (its day and
 * time, and its patient or dentist), read after the failed transaction has rolled back.
 */
export async function overlapConflict(
  db: Reader,
  clinicId: number,
  wanted: Placement,
  exceptId: number | null,
  byPatient: boolean,
): Promise<HttpError> {
  const start = sql`(${wanted.date}::date - date '2000-01-01') * 1440 + ${minutesOf(wanted.time)}`;
  const result = await db.execute(sql`
    select a.date::text as date, a.time, a.duration, a.patient_name, d.name as dentist_name
    from appointments a join dentists d on d.clinic_id = a.clinic_id and d.id = a.dentist_id
    where a.clinic_id = ${clinicId} and a.status <> 'cancelled'
      and ${byPatient ? sql`a.patient_id = ${wanted.patientId}` : sql`a.dentist_id = ${wanted.dentistId}`}
      and a.span && int4range(${start}, ${start} + ${wanted.duration})
      ${exceptId === null ? sql`` : sql`and a.id <> ${exceptId}`}
    order by a.span limit 1`);
  const other = result.rows[0] as
    | { date: string; time: string; duration: number | string; patient_name: string; dentist_name: string }
    | undefined;
  const when = other
    ? `on ${other.date} at ${timeRange(other.time, endTimeOf(other.time, Number(other.duration)))}`
    : `on ${wanted.date} at ${wanted.time}`;
  const message = byPatient
    ? `${other?.patient_name ?? 'The patient'} already has an appointment ${when}${other ? ` with ${other.dentist_name}` : ''}`
    : `${other?.dentist_name ?? 'The dentist'} already has an appointment ${when}${other ? ` (${other.patient_name})` : ''}`;
  return new HttpError(409, message, [{ field: 'time', message: 'This time is taken' }]);
}

/**
 * Runs a write; when an exclusion constraint refuses it (an overlap with another live visit of the
 * dentist or the patient), answers 409 naming the visit in the way. The whole transaction is rolled
 * back, so a refused booking leaves nothing behind (no new patient either).
 */
async function bookingWrite<T>(
  db: Database,
  clinicId: number,
  exceptId: number | null,
  work: (tx: Transaction, place: (wanted: Placement) => void) => Promise<T>,
): Promise<T> {
  // Where the work said the visit lands, so that the 409 can name the visit in its way.
  const placed: { wanted?: Placement } = {};
  try {
    return await db.transaction((tx) =>
      work(tx, (wanted) => {
        placed.wanted = wanted;
      }),
    );
  } catch (error) {
    const clash = clashOf(error);
    if (!placed.wanted || !clash) throw error;
    throw await overlapConflict(db, clinicId, placed.wanted, exceptId, clash === 'patient');
  }
}

/** Whose time an exclusion constraint refused a write for (the dentist's first), or null for another error. */
export function clashOf(error: unknown): 'dentist' | 'patient' | null {
  if (violated(error, [EXCLUSION_VIOLATION], DENTIST_TIME)) return 'dentist';
  if (violated(error, [EXCLUSION_VIOLATION], PATIENT_TIME)) return 'patient';
  return null;
}

/** The visit's row, for a write's WHERE. */
function visitRow(clinicId: number, appointmentId: number) {
  return and(eq(appointments.clinicId, clinicId), eq(appointments.id, appointmentId));
}

/** A visit may be marked completed only from its day on (canCompleteOn): else 400 on `status`. */
async function requireCompletable(tx: Transaction, clinicId: number, date: string): Promise<void> {
  if (!canCompleteOn(date, await clinicToday(tx, clinicId)))
    throw fieldError('status', EARLY_COMPLETION_MESSAGE);
}

/** The audit record of a write to one visit, by the actor. */
function auditVisit(
  tx: Transaction,
  actor: Actor,
  action: string,
  appointmentId: number,
  details: Record<string, unknown>,
): Promise<void> {
  return recordActorAudit(tx, actor, {
    action,
    entity: 'appointment',
    entityId: appointmentId,
    details,
  });
}

/** After a visit's span or status changed: its days' open-hours state and its reminders follow. */
async function settleVisit(
  tx: Transaction,
  clinicId: number,
  appointmentId: number,
  days: readonly { dentistId: number; date: string }[],
): Promise<void> {
  await settleDays(tx, clinicId, days);
  await syncAppointmentReminders(tx, clinicId, appointmentId);
}

/** The clinic's settings, read at most once in a write, and only if the write needs them. */
function settingsOnce(tx: Transaction, clinicId: number): () => Promise<PracticeSettings> {
  let read: Promise<PracticeSettings> | undefined;
  return () => {
    read ??= readSettings(tx, clinicId);
    return read;
  };
}

/** The visit's length: as sent, else its treatment's from Settings. */
async function durationOf(
  input: AppointmentWrite,
  settings: () => Promise<PracticeSettings>,
): Promise<number> {
  return input.duration ?? (await settings()).treatmentMinutes[input.treatment];
}

/**
 * Refuses (409) a visit outside its dentist's open hours that day (openHoursOf), unless an admin or
 * receptionist books it as outside hours with a reason (`override`; a dentist may not). Locks the
 * days the write touches first (lockDays). Answers whether the visit lies outside the hours.
 */
async function requireOpenTime(
  tx: Transaction,
  actor: Actor,
  touched: readonly { dentistId: number; date: string }[],
  dentist: DentistDays,
  visit: { date: string; time: string; duration: number },
  override: boolean,
  settings: () => Promise<PracticeSettings>,
): Promise<boolean> {
  await lockDays(tx, actor.clinicId, [...touched, { dentistId: dentist.id, date: visit.date }]);
  const open = await openHoursOf(tx, actor.clinicId, dentist, visit.date, await settings());
  const start = minutesOf(visit.time);
  const span = { start, end: start + visit.duration };
  if (fitsOpenHours(span, open.spans)) return false;
  if (override) {
    if (!canBookOutsideHours(actor.role)) {
      throw new HttpError(403, 'Only an admin or a receptionist may book outside open hours');
    }
    return true;
  }
  const message = outsideHoursMessage(dentist.name, visit.date, open, span);
  throw new HttpError(409, message, [{ field: open.spans.length ? 'time' : 'date', message }]);
}

export async function createAppointment(
  db: Database,
  actor: Actor,
  input: AppointmentWrite,
): Promise<Appointment> {
  return bookingWrite(db, actor.clinicId, null, async (tx, place) => {
    const booked = await bookVisit(tx, actor, input, place);
    // Booked from the waitlist: the entry leaves it in the same transaction, or nothing is booked.
    if (input.waitlistEntryId !== null)
      await takeOffWaitlist(tx, actor, input.waitlistEntryId, booked.patient_id, booked.id);
    return booked;
  });
}

/** The columns a booking and an edit both take from the form, with the visit's patient and length. */
function visitOfForm(input: AppointmentWrite, patientId: number, duration: number) {
  return {
    patientId,
    dentistId: input.dentistId,
    date: input.date,
    time: input.time,
    duration,
    treatment: input.treatment,
    notes: input.notes,
  };
}

/** A visit's place in a series (migration 0022): the series and its 1-based position. */
export interface SeriesPlacement {
  seriesId: number;
  position: number;
}

/**
 * Books one visit inside the write's transaction `tx` under every rule of a booking (the day, the
 * dentist, the open hours, the overlaps, its audit record, reminders); `place` is told where it
 * lands before the insert, so that a refusal can name the visit in the way. A series books each of
 * its visits through here.
 */
export async function bookVisit(
  tx: Transaction,
  actor: Actor,
  input: AppointmentWrite,
  place: (wanted: Placement) => void,
  series: SeriesPlacement | null = null,
): Promise<Appointment> {
  const { clinicId } = actor;
  if (input.date < (await clinicToday(tx, clinicId))) throw fieldError('date', PAST_BOOKING_MESSAGE);
  const dentist = await requireDentist(tx, clinicId, input.dentistId, false);
  const settings = settingsOnce(tx, clinicId);
  const duration = await durationOf(input, settings);
  const outsideHours = await requireOpenTime(
    tx,
    actor,
    [],
    dentist,
    { ...input, duration },
    input.outsideHours,
    settings,
  );
  const visit = visitOfForm(input, await resolvePatient(tx, clinicId, input), duration);
  place(visit);
  const [created] = await tx
    .insert(appointments)
    .values({
      clinicId,
      ...visit,
      status: 'pending',
      outsideHours,
      outsideHoursReason: outsideHours ? input.outsideHoursReason : null,
      seriesId: series?.seriesId ?? null,
      seriesPosition: series?.position ?? null,
    })
    .returning({ id: appointments.id });
  if (!created) throw new Error('Appointment insert returned no row');
  await settleVisit(tx, clinicId, created.id, [input]);
  await auditVisit(tx, actor, 'create', created.id, {
    patient: input.patient,
    status: 'pending',
    date: input.date,
    time: input.time,
    duration,
    ...(outsideHours ? { outside_hours: true, reason: input.outsideHoursReason } : {}),
    ...(series ? { series_id: series.seriesId, series_position: series.position } : {}),
  });
  return (await findAppointment(tx, clinicId, created.id)) as Appointment;
}

/** A change of one visit made in a transaction of its own, under the booking's locks (bookingWrite). */
function ownWrite<Change>(
  change: (
    tx: Transaction,
    actor: Actor,
    appointmentId: number,
    value: Change,
    expected: ExpectedVersion,
    place: (wanted: Placement) => void,
  ) => Promise<Appointment>,
) {
  return (
    db: Database,
    actor: Actor,
    appointmentId: number,
    value: Change,
    expected: ExpectedVersion = null,
  ): Promise<Appointment> =>
    bookingWrite(db, actor.clinicId, appointmentId, (tx, place) =>
      change(tx, actor, appointmentId, value, expected, place),
    );
}

/** Edits a visit: PUT /api/appointments/:id. */
export const updateAppointment = ownWrite(editVisit);

/**
 * Edits one visit inside the write's transaction `tx` under every rule of an edit (its version,
 * the day, the open hours, the overlaps, its audit record, reminders and confirmation). "This and
 * the following" of a series edits each of its visits through here.
 */
export async function editVisit(
  tx: Transaction,
  actor: Actor,
  appointmentId: number,
  input: AppointmentWrite,
  expected: ExpectedVersion,
  place: (wanted: Placement) => void,
): Promise<Appointment> {
  const { clinicId } = actor;
  const current = await lockAppointment(tx, clinicId, appointmentId, expected);
  const movedDay = input.date !== current.date;
  if (movedDay && input.date < (await clinicToday(tx, clinicId)))
    throw fieldError('date', PAST_BOOKING_MESSAGE);
  const dentist = await requireDentist(tx, clinicId, input.dentistId, input.dentistId === current.dentistId);
  const status = input.status ?? current.status;
  const settings = settingsOnce(tx, clinicId);
  const duration =
    input.duration ??
    (input.treatment === current.treatment ? current.duration : await durationOf(input, settings));
  const moved =
    movedDay ||
    input.time !== current.time ||
    duration !== current.duration ||
    input.dentistId !== current.dentistId ||
    current.status === 'cancelled';
  // A visit keeps its place (and an emergency its override) until it is moved.
  let outsideHours = current.outsideHours;
  let outsideHoursReason = current.outsideHoursReason;
  if (status !== 'cancelled' && moved) {
    outsideHours = await requireOpenTime(
      tx,
      actor,
      [current],
      dentist,
      { date: input.date, time: input.time, duration },
      input.outsideHours,
      settings,
    );
    outsideHoursReason = outsideHours ? input.outsideHoursReason : null;
  } else {
    await lockDays(tx, clinicId, [current, input]);
  }
  const visit = visitOfForm(input, await resolvePatient(tx, clinicId, input), duration);
  place(visit);
  if (status === 'completed' && status !== current.status) await requireCompletable(tx, clinicId, input.date);
  await tx
    .update(appointments)
    .set({
      ...visit,
      status,
      outsideHours,
      outsideHoursReason,
      sequence: sql`${appointments.sequence} + 1`,
      updatedAt: new Date(),
    })
    .where(visitRow(clinicId, appointmentId));
  await settleVisit(tx, clinicId, appointmentId, [current, input]);
  if (status === 'confirmed' && current.status !== 'confirmed') {
    await queueConfirmation(tx, clinicId, appointmentId);
  }
  await auditVisit(tx, actor, 'update', appointmentId, {
    patient: input.patient,
    status,
    date: input.date,
    time: input.time,
    duration,
    ...(outsideHours && moved ? { outside_hours: true, reason: outsideHoursReason } : {}),
  });
  return (await findAppointment(tx, clinicId, appointmentId)) as Appointment;
}

/** Sets a visit's status: PATCH /api/appointments/:id/status. */
export const setAppointmentStatus = ownWrite(setVisitStatus);

/**
 * Sets one visit's status inside the write's transaction `tx` under every rule of a status change
 * (its version, open hours when it comes back from cancelled, its audit record, reminders and
 * confirmation). "This and the following" of a series sets each of its visits through here.
 */
export async function setVisitStatus(
  tx: Transaction,
  actor: Actor,
  appointmentId: number,
  status: AppointmentStatus,
  expected: ExpectedVersion,
  place: (wanted: Placement) => void,
): Promise<Appointment> {
  const { clinicId } = actor;
  const current = await lockAppointment(tx, clinicId, appointmentId, expected);
  place(current);
  if (current.status === 'cancelled' && status !== 'cancelled') {
    // Back from cancelled: it must fit the hours again, unless it was booked as an emergency
    // (outside hours, with its reason), which it stays.
    if (current.outsideHours) await lockDays(tx, clinicId, [current]);
    else
      await requireOpenTime(
        tx,
        actor,
        [],
        await dentistDays(tx, clinicId, current.dentistId),
        current,
        false,
        settingsOnce(tx, clinicId),
      );
  }
  if (status === 'completed' && status !== current.status)
    await requireCompletable(tx, clinicId, current.date);
  await tx
    .update(appointments)
    .set({ status, sequence: sql`${appointments.sequence} + 1`, updatedAt: new Date() })
    .where(visitRow(clinicId, appointmentId));
  if (status !== current.status) {
    await settleVisit(tx, clinicId, appointmentId, [current]);
    if (status === 'confirmed') await queueConfirmation(tx, clinicId, appointmentId);
  }
  const appointment = (await findAppointment(tx, clinicId, appointmentId)) as Appointment;
  await auditVisit(tx, actor, 'status_change', appointmentId, {
    patient: appointment.patient,
    status,
    from: current.status,
    date: current.date,
    time: current.time,
  });
  return appointment;
}

export async function deleteAppointment(
  db: Database,
  actor: Actor,
  appointmentId: number,
  expected: ExpectedVersion = null,
): Promise<void> {
  const { clinicId } = actor;
  await db.transaction(async (tx) => {
    const current = await lockAppointment(tx, clinicId, appointmentId, expected);
    const appointment = await findAppointment(tx, clinicId, appointmentId);
    await tx.delete(appointments).where(visitRow(clinicId, appointmentId));
    await settleVisit(tx, clinicId, appointmentId, [current]);
    await auditVisit(tx, actor, 'delete', appointmentId, {
      patient: appointment?.patient ?? null,
      status: current.status,
      date: current.date,
      time: current.time,
    });
  });
}
