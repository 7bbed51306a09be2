import type { ClinicExport } from '@dental/shared/domain';
import { eq, sql } from 'drizzle-orm';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import type { Transaction } from '../../db/client';
import { patientRecalls } from '../../db/schema';
import type { ClinicTable } from './clinicExport';

const CHUNK = 500;
export async function insertChunked<Row>(rows: Row[], insert: (chunk: Row[]) => Promise<unknown>) {
  for (let start = 0; start < rows.length; start += CHUNK) await insert(rows.slice(start, start + CHUNK));
}

/** What a file's row gives its table besides the clinic, its id and its creation time (keptTable adds those). */
type KeptColumns<Table extends ClinicTable> = Omit<Table['$inferInsert'], 'clinicId' | 'id' | 'createdAt'>;

/**
 * How one table of the file is loaded into the new clinic: its rows, in chunks, each keeping its id
 * and creation time, with the columns `columnsOf` gives it.
 */
export function keptTable<Table extends ClinicTable, Row extends { id: number; created_at: string }>(
  table: Table,
  rows: Row[],
  columnsOf: (row: Row) => KeptColumns<Table>,
) {
  return (tx: Transaction, clinicId: number) =>
    insertChunked(rows, (chunk) => {
      const kept = chunk.map((row) => ({
        clinicId,
        id: row.id,
        ...columnsOf(row),
        createdAt: new Date(row.created_at),
      }));
      // Typed by the caller's `columnsOf`: drizzle cannot check a table that is still a type parameter.
      return tx.insert(table).values(kept as PgInsertValue<Table>[]);
    });
}

/**
 * The patients' recalls of the file in place of those the visits just made (triggers on the visits
 * derive them, but staff may have set a due date by hand, snoozed, noted or switched one off). Then
 * each recall takes the day of its patient's latest booked visit of its treatment, by the database's
 * own rule, as the file does not hold it.
 */
export async function importPatientRecalls(
  tx: Transaction,
  clinicId: number,
  rows: NonNullable<ClinicExport['patient_recalls']>,
): Promise<void> {
  await tx.delete(patientRecalls).where(eq(patientRecalls.clinicId, clinicId));
  await insertChunked(rows, (chunk) =>
    tx.insert(patientRecalls).values(
      chunk.map((row) => ({
        clinicId,
        patientId: row.patient_id,
        recallTypeId: row.recall_type_id,
        lastVisit: row.last_visit,
        lastDentistId: row.last_dentist_id,
        dueDate: row.due_date,
        dueSetByHand: row.due_set_by_hand,
        snoozedUntil: row.snoozed_until,
        active: row.active,
        note: row.note,
        lastContactAt: row.last_contact_at ? new Date(row.last_contact_at) : null,
        lastContactKind: row.last_contact_kind,
        lastContactNote: row.last_contact_note,
        autoRemindedFor: row.auto_reminded_for,
        updatedAt: new Date(row.updated_at),
      })),
    ),
  );
  // refresh_recall_booking for every patient and treatment at once (the recalls were just written
  // without the day, by this transaction alone: nobody else can be writing this clinic's visits).
  await tx.execute(sql`
    update patient_recalls r set booked_until = booked.latest
    from recall_types t, (
      select a.patient_id, a.treatment, max(a.date) as latest from appointments a
      where a.clinic_id = ${clinicId} and a.status in ('pending', 'confirmed')
      group by a.patient_id, a.treatment
    ) booked
    where r.clinic_id = ${clinicId} and t.clinic_id = r.clinic_id and t.id = r.recall_type_id
      and booked.patient_id = r.patient_id and booked.treatment = t.treatment
      and r.booked_until is distinct from booked.latest`);
}

/** The file's waitlist, each entry keeping its id; `authorOf` is who made it, as the new clinic knows them. */
export async function importWaitlist(
  tx: Transaction,
  clinicId: number,
  rows: NonNullable<ClinicExport['waitlist']>,
  authorOf: (userId: number | null) => number | null,
): Promise<void> {
  await insertChunked(rows, (chunk) =>
    tx.execute(sql`
      insert into waitlist_entries (clinic_id, id, patient_id, treatment, dentist_id, weekdays, part_of_day,
        earliest_on, latest_on, note, created_by, created_at, updated_at)
      values ${sql.join(
        chunk.map(
          (row) => sql`(${clinicId}, ${row.id}, ${row.patient_id}, ${row.treatment}, ${row.dentist_id},
            ${`{${row.weekdays.join(',')}}`}::smallint[], ${row.part_of_day}, ${row.earliest_on}::date,
            ${row.latest_on}::date, ${row.note}, ${authorOf(row.created_by)},
            ${row.created_at}::timestamptz, ${row.updated_at}::timestamptz)`,
        ),
        sql`, `,
      )}`),
  );
}

/** A file's visits staged at a time: a few MB of JSON a statement. */
const VISITS_STAGED = 5_000;

/**
 * The file's visits, each keeping its id, in one insert of them all, in the file's order: the bulk
 * path of migration 0038 (docs/architecture.md, "Database rules"), where the statement keeps their
 * patients' recalls at once instead of row by row, which took minutes for a large clinic. The rows
 * are staged first (a temporary table, no triggers or indexes; the file's JSON read by the database)
 * and written with their patients' cards, which the bulk path asks of the writer and checks; a visit
 * whose patient the file does not hold gets an empty card, and the foreign key refuses it. A visit
 * with no length or chair (a file from before them) is given them by its row's trigger, as before.
 * Called with dental.keeping_overlaps on: the file's groups, parts and turnover are kept.
 */
export async function importVisits(
  tx: Transaction,
  clinicId: number,
  rows: ClinicExport['appointments'],
): Promise<void> {
  // The file's fields, by name; a field an older file leaves out is null.
  const fields =
    sql.raw(`id integer, patient_id integer, dentist_id integer, date date, time text, duration integer,
    treatment text, status text, notes text, outside_hours boolean, outside_hours_reason text, series_id integer,
    series_position integer, chair_id integer, turnover integer, dentist_from integer, dentist_to integer,
    created_at timestamptz, updated_at timestamptz`);
  const names =
    sql.raw(`id, patient_id, dentist_id, date, time, duration, treatment, status, notes, outside_hours,
    outside_hours_reason, series_id, series_position, chair_id, turnover, dentist_from, dentist_to, created_at,
    updated_at`);
  await tx.execute(sql`create temporary table imported_visits (place bigint, ${fields}) on commit drop`);
  for (let start = 0; start < rows.length; start += VISITS_STAGED) {
    await tx.execute(sql`
      insert into imported_visits (place, ${names})
      select ${start} + staged.place, ${names}
      from rows from (json_to_recordset(${JSON.stringify(rows.slice(start, start + VISITS_STAGED))}::json) as (${fields}))
        with ordinality as staged (${names}, place)`);
  }
  await tx.execute(sql`select set_config('dental.bulk_visits', 'on', true)`);
  // Left out, a length or chair comes from the row's trigger (the settings are in); times to the
  // millisecond, as every kept row's go through a Date.
  await tx.execute(sql`
    insert into appointments (clinic_id, id, patient_id, patient_name, patient_phone, dentist_id, date, time,
      duration, treatment, status, notes, outside_hours, outside_hours_reason, series_id, series_position,
      chair_id, turnover, dentist_from, dentist_to, created_at, updated_at)
    select ${clinicId}, v.id, v.patient_id, coalesce(p.name, ''), coalesce(p.phone, ''), v.dentist_id, v.date,
      v.time, v.duration, v.treatment, v.status, v.notes, coalesce(v.outside_hours, false), v.outside_hours_reason,
      v.series_id, v.series_position, v.chair_id, coalesce(v.turnover, 0), v.dentist_from, v.dentist_to,
      date_trunc('milliseconds', v.created_at), date_trunc('milliseconds', v.updated_at)
    from imported_visits v
    left join patients p on p.clinic_id = ${clinicId} and p.id = v.patient_id
    order by v.place`);
  await tx.execute(sql`select set_config('dental.bulk_visits', '', true)`);
  await tx.execute(sql`drop table imported_visits`);
}

/**
 * Whether two live visits of the clinic's dentist or patient overlap (what settle_overlap_groups,
 * migration 0015, groups): each one's visits in start order, one starting before the latest end of
 * those before it. Two passes over the visits; settling a clinic where none overlap writes nothing.
 */
export async function visitsOverlap(tx: Transaction, clinicId: number): Promise<boolean> {
  const overlapBy = (column: 'dentist_id' | 'patient_id') => sql`exists (
    select 1 from (
      select lower(span) as starts, max(upper(span)) over (partition by ${sql.raw(column)}
        order by lower(span), id rows between unbounded preceding and 1 preceding) as reach
      from appointments where clinic_id = ${clinicId} and status <> 'cancelled'
    ) as runs where starts < reach)`;
  const { rows } = await tx.execute(
    sql`select ${overlapBy('dentist_id')} or ${overlapBy('patient_id')} as overlapping`,
  );
  return (rows[0] as { overlapping: boolean }).overlapping;
}

/** Ids were kept: each sequence moves past the highest, so new rows never take one. */
export async function moveSequencesPastKeptIds(tx: Transaction): Promise<void> {
  for (const table of [
    'users',
    'dentists',
    'patients',
    'availability',
    'appointments',
    'appointment_series',
    'recall_types',
    'waitlist_entries',
    'chairs',
  ]) {
    await tx.execute(
      sql.raw(
        `select setval(pg_get_serial_sequence('${table}', 'id'), coalesce((select max(id) from ${table}), 1), (select count(*) > 0 from ${table}))`,
      ),
    );
  }
}
