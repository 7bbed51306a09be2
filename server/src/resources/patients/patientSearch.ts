import { type SQL, sql } from 'drizzle-orm';
import type { Reader } from '../../db/client';
import { prefixPattern, startsWithInBytes, wordStartPattern } from '../../db/search';

/**
 * What a patient search matches: every word typed must be the start of a word of the patient's
 * name or of the local part of their e-mail (before the @); text with an @ is the start of the
 * whole e-mail address; digits typed as a phone number are the start of the number's digits from
 * any group on. 'jo smi' finds John Smith and Joan Smithers; '555 010', '010-04' and '0447' find
 * (555) 010-0447. The words come from patient_search_terms (migration 0009), whose btree indexes
 * answer a prefix as a range, however short.
 */

/** Typed with only digits and a phone number's punctuation: one number, compared by its digits. */
const PHONE_LIKE = /^[\d\s()+\-./]+$/;
const ASCII = /^[\x20-\x7e]*$/;
/** PostgreSQL's [[:space:][:punct:]] on ASCII. */
const ASCII_SEPARATORS = /[\s!-/:-@[-`{-~]+/;
/** More words than this narrow nothing a person would type; the rest are ignored. */
const MAX_WORDS = 5;

/**
 * The words of what staff typed, split and lower-cased by the same expressions as the patients'
 * words (patient_search_words() of migration 0009), so both sides agree in any database locale.
 */
export async function searchWordsOf(db: Reader, typed: string): Promise<string[]> {
  const text = typed.trim();
  if (/\d/.test(text) && PHONE_LIKE.test(text)) return [text.replace(/\D/g, '')];
  let words: string[];
  if (ASCII.test(text)) {
    // ASCII text splits and lower-cases the same in JavaScript as in PostgreSQL, in any locale: no
    // round trip to the database for what staff usually type.
    const lowered = text.toLowerCase();
    words = lowered.includes('@') ? [lowered] : lowered.split(ASCII_SEPARATORS);
  } else {
    const result = await db.execute(
      text.includes('@')
        ? sql`select array[lower(${text})] as words`
        : sql`select regexp_split_to_array(lower(${text}), '[[:space:][:punct:]]+') as words`,
    );
    words = (result.rows[0] as { words?: string[] | null } | undefined)?.words ?? [];
  }
  // The longest word first: it narrows most, and it leads the ordered scan.
  return [...new Set(words.filter(Boolean))].slice(0, MAX_WORDS).sort((a, b) => b.length - a.length);
}

/**
 * A word of patient_search_terms (`column`) starts with `word`. Letter words are a range, so the
 * statement is prepared once per connection (db/client.ts). A phone's digits are left as `like`,
 * which is planned for each search: their first digits are shared by most of the clinic (an area
 * code, read best in name order) or by a few patients (read best by the digits), and only the
 * digits typed tell which.
 */
const startsWithWord = (column: SQL, word: string) =>
  /^[0-9]/.test(word) ? sql`${column} like ${prefixPattern(word)}` : startsWithInBytes(column, word);

/** The patient `patientId` has a word starting with `word`. */
const hasWord = (clinicId: number, patientId: SQL, word: string) =>
  sql`exists (select 1 from patient_search_terms other
    where other.clinic_id = ${clinicId} and other.patient_id = ${patientId}
      and ${startsWithWord(sql`other.term`, word)})`;

/**
 * The patient `patientId` matches every word, tested row by row as a walk in its own order reaches
 * each row: `offset 0` keeps PostgreSQL from gathering every patient of the words into a hash first,
 * which costs more than the probes when most rows of the walk match.
 */
export function patientMatchesRowByRow(clinicId: number, patientId: SQL, words: string[]): SQL {
  return sql.join(
    words.map(
      (word) => sql`exists (select 1 from patient_search_terms other
        where other.clinic_id = ${clinicId} and other.patient_id = ${patientId}
          and ${startsWithWord(sql`other.term`, word)}
        offset 0)`,
    ),
    sql` and `,
  );
}

/** ` and` the row `t` of patient_search_terms also has each of these words; nothing for none. */
const andAlso = (clinicId: number, words: string[]) =>
  words.length ? sql` and ${patientMatches(clinicId, sql`t.patient_id`, words)}` : sql``;

/** The first two characters of a word, as left(word, 2) in the database. */
export const startOf = (word: string) => Array.from(word).slice(0, 2).join('');

/**
 * A typed word that can only be the start of a patient's word of two characters or more that does
 * not start with a digit: those are the words of patient_search_pairs and appointment_search_terms
 * (patient_word_starts() of migration 0011).
 */
export const isLetterWord = (word: string) => Array.from(word).length >= 2 && !/^[0-9]/.test(word);

/** Byte order, as the database compares the C-collated prefixes. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

interface WordPair {
  /** The word whose start is the pair's prefix_a (the smaller by bytes), and the other. */
  a: string;
  b: string;
  others: string[];
}

/**
 * The two longest words, when patient_search_pairs holds them: letter words with different starts.
 * Two words of the same start (`mar mat`) are left to the longer word's own range.
 */
function pairOf(words: string[]): WordPair | null {
  const [first, second, ...others] = words;
  if (!first || !second || !isLetterWord(first) || !isLetterWord(second)) return null;
  const order = byBytes(startOf(first), startOf(second));
  if (order === 0) return null;
  return order < 0 ? { a: first, b: second, others } : { a: second, b: first, others };
}

/** The rows `t` of patient_search_pairs whose two words start the pair's two words. */
const pairRange = (clinicId: number, pair: WordPair) =>
  sql`t.clinic_id = ${clinicId} and t.prefix_a = ${startOf(pair.a)} and t.prefix_b = ${startOf(pair.b)}
    and t.terms_a like ${wordStartPattern(pair.a)} and t.terms_b like ${wordStartPattern(pair.b)}`;

/**
 * The ids of the clinic's patients matching every word: a select of `patient_id`, for
 * `id in (…)`. Two letter words of different starts read their range of patient_search_pairs;
 * otherwise the first word reads its range of the primary key (clinic_id, term, patient_id). Each
 * other word is a probe of patient_search_terms_patient_idx.
 */
export function matchingPatientIds(clinicId: number, words: string[]): SQL {
  const pair = pairOf(words);
  if (pair) {
    return sql`select t.patient_id from patient_search_pairs t
      where ${pairRange(clinicId, pair)}${andAlso(clinicId, pair.others)}`;
  }
  const [first = '', ...others] = words;
  return sql`select t.patient_id from patient_search_terms t
    where t.clinic_id = ${clinicId} and ${startsWithWord(sql`t.term`, first)}${andAlso(clinicId, others)}`;
}

/**
 * The patient `patientId` (a column of the outer query) matches every word: one probe of
 * patient_search_terms_patient_idx (clinic_id, patient_id, term) per word, read from the index alone.
 */
export function patientMatches(clinicId: number, patientId: SQL, words: string[]): SQL {
  return sql.join(
    words.map((word) => hasWord(clinicId, patientId, word)),
    sql` and `,
  );
}

/** A word of two characters or more leads a scan of patient_search_terms_prefix_idx. */
export function canScanInNameOrder(words: string[]): boolean {
  return (words[0]?.length ?? 0) >= 2;
}

/**
 * The matching patients in name order, as `patient_id` and `name` rows (each patient once), read
 * from one index alone, already in name order, so a page is the next few entries of the index and a
 * count stops at its cap: two letter words of different starts (`ma jo`) from
 * patient_search_pairs_prefix_idx (one row a patient), else the first word's two first characters
 * from patient_search_terms_prefix_idx (clinic_id, prefix, name, patient_id, term, status). Needs
 * canScanInNameOrder(words).
 */
export function patientsInNameOrder(
  clinicId: number,
  words: string[],
  status: string | undefined,
  descending: boolean,
  /** More conditions on the rows `t` (name, patient_id): where a page starts. */
  also: SQL[] = [],
): SQL {
  const statusTest = status ? sql` and t.status = ${status}` : sql``;
  const alsoTest = also.length ? sql` and ${sql.join(also, sql` and `)}` : sql``;
  const direction = descending ? sql`desc` : sql`asc`;
  const pair = pairOf(words);
  if (pair) {
    return sql`select t.patient_id, t.name from patient_search_pairs t
      where ${pairRange(clinicId, pair)}${statusTest}${alsoTest}${andAlso(clinicId, pair.others)}
      order by t.name ${direction}, t.patient_id`;
  }
  const [first = '', ...others] = words;
  return sql`select t.patient_id, t.name from patient_search_terms t
    where t.clinic_id = ${clinicId} and t.prefix = ${startOf(first)}
      and ${startsWithWord(sql`t.term`, first)}
      ${statusTest}${alsoTest}${andAlso(clinicId, others)}
    group by t.name, t.patient_id
    order by t.name ${direction}, t.patient_id`;
}
