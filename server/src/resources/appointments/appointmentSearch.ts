import { type AppointmentListQuery, type DateCursor, TREATMENTS } from '@dental/shared/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { Reader } from '../../db/client';
import { wordStartPattern } from '../../db/search';
import { isLetterWord, matchingPatientIds, patientMatchesRowByRow, startOf } from '../patients/patientSearch';

/**
 * What the appointments list's search and filters read, as SQL (docs/product.md, Appointments):
 * which patients, dentists and treatments the words typed match, and the conditions and ordered
 * parts a page of the list (appointmentReads.ts) is read through.
 */

export const valueList = (values: readonly (number | string)[]) =>
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
export async function fewPatients(db: Reader, clinicId: number, words: string[]): Promise<number[] | null> {
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
export async function searchCondition(
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
export function filtersOn(table: SQL, query: AppointmentListQuery): SQL[] {
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
export function pastCursor(table: SQL, id: SQL, after: DateCursor | undefined, descending: boolean): SQL[] {
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
export async function patientsPart(
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
export async function matchedInDateOrder(
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
