import {
  listCountCap,
  type PartOfDay,
  type PracticeSettings,
  type Treatment,
  WAITLIST_NOT_FOUND,
  type WaitlistEntry,
  waitlistEntrySchema,
  type waitlistQuerySchema,
} from '@dental/shared/domain';
import { asc, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { cappedCount, pageWithTotal, type SeekPage } from '../../db/cappedCount';
import type { Reader } from '../../db/client';
import { liveDentist } from '../../db/liveDentists';
import { dentists } from '../../db/schema';
import { type DentistDays, dentistDaysColumns } from '../availability/openHours';
import { readSettings } from '../settings/settingsData';

interface EntryRecord {
  id: number;
  patient_id: number;
  patient_name: string;
  phone: string | null;
  treatment: string;
  dentist_id: number | null;
  dentist_name: string | null;
  weekdays: number[] | string;
  part_of_day: string;
  earliest_on: string;
  latest_on: string;
  note: string;
  created_at: Date | string;
  version: number;
}

/** A smallint[] as the driver hands it: an array, or its text `{1,2,3}` on the wire protocol. */
const weekdaysOf = (value: number[] | string): number[] =>
  Array.isArray(value)
    ? value.map(Number)
    : value.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);

const entryOf =
  (settings: PracticeSettings) =>
  (row: EntryRecord): WaitlistEntry => {
    // Entries are written with the product's treatments only (the table's check says so too).
    const treatment = row.treatment as Treatment;
    return {
      id: row.id,
      patient_id: row.patient_id,
      patient_name: row.patient_name,
      phone: row.phone ?? '',
      treatment,
      duration: settings.treatmentMinutes[treatment],
      dentist_id: row.dentist_id,
      dentist_name: row.dentist_name,
      weekdays: weekdaysOf(row.weekdays),
      part_of_day: row.part_of_day as PartOfDay,
      earliest_on: row.earliest_on,
      latest_on: row.latest_on,
      note: row.note,
      created_at: new Date(row.created_at).toISOString(),
      version: row.version,
    };
  };

/** An entry as every answer gives it, with its patient's and dentist's names. */
export function entrySelect(clinicId: number): SQL {
  return sql`
    select w.id, w.patient_id, p.name as patient_name, p.phone, w.treatment, w.dentist_id,
      d.name as dentist_name, w.weekdays, w.part_of_day, to_char(w.earliest_on, 'YYYY-MM-DD') as earliest_on,
      to_char(w.latest_on, 'YYYY-MM-DD') as latest_on, w.note, w.created_at, w.version
    from waitlist_entries w
    join patients p on p.clinic_id = w.clinic_id and p.id = w.patient_id
    left join dentists d on d.clinic_id = w.clinic_id and d.id = w.dentist_id
    where w.clinic_id = ${clinicId}`;
}

export async function readEntries(db: Reader, clinicId: number, query: SQL): Promise<WaitlistEntry[]> {
  const settings = await readSettings(db, clinicId);
  const { rows } = await db.execute(query);
  return (rows as unknown as EntryRecord[]).map(entryOf(settings));
}

export async function findEntry(
  db: Reader,
  clinicId: number,
  id: number,
  /** Held to the transaction's end (the entry's row only). */
  lock = false,
): Promise<WaitlistEntry | null> {
  const [entry] = await readEntries(
    db,
    clinicId,
    sql`${entrySelect(clinicId)} and w.id = ${id} ${lock ? sql`for update of w` : sql``}`,
  );
  return entry ?? null;
}

/** One waitlist entry as its routes read it (rowRoutes): its wire schema, its read and its 404. */
export const entryLookup = { schema: waitlistEntrySchema, find: findEntry, notFound: WAITLIST_NOT_FOUND };

/** The clinic's waitlist, oldest entry first (the order it is worked in), read through its queue index. */
export async function listWaitlist(
  db: Reader,
  clinicId: number,
  query: z.output<typeof waitlistQuerySchema>,
): Promise<SeekPage<WaitlistEntry>> {
  const conditions: SQL[] = [sql`true`];
  // An entry for any dentist is one this dentist can take too.
  if (query.dentist_id) conditions.push(sql`(w.dentist_id = ${query.dentist_id} or w.dentist_id is null)`);
  if (query.treatment) conditions.push(sql`w.treatment = ${query.treatment}`);
  if (query.search) conditions.push(sql`p.name ilike ${`%${query.search.replace(/[\\%_]/g, '\\$&')}%`}`);
  const where = sql.join(conditions, sql` and `);
  const offset = (query.page - 1) * query.limit;
  let capped = false;
  const { data, total } = await pageWithTotal(
    { offset, limit: query.limit },
    () =>
      readEntries(
        db,
        clinicId,
        sql`${entrySelect(clinicId)} and ${where} order by w.created_at, w.id limit ${query.limit} offset ${offset}`,
      ),
    async () => {
      const counted = await cappedCount(
        db,
        sql`select 1 from waitlist_entries w join patients p on p.clinic_id = w.clinic_id and p.id = w.patient_id
          where w.clinic_id = ${clinicId} and ${where}`,
        listCountCap(query.page, query.limit),
      );
      capped = counted.capped;
      return counted.total;
    },
  );
  return { data, total, capped };
}

/** The clinic's live, active dentists, or the one an entry names (none when it is gone). */
export function dentistsFor(db: Reader, clinicId: number, dentistId: number | null): Promise<DentistDays[]> {
  return db
    .select(dentistDaysColumns)
    .from(dentists)
    .where(liveDentist(clinicId, dentistId ?? undefined, { active: true }))
    .orderBy(asc(dentists.name), asc(dentists.id));
}
