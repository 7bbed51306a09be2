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
  await tx.execute(sql`
    select refresh_recall_booking(${clinicId}, pairs.patient_id, pairs.treatment)
    from (select distinct r.patient_id, t.treatment from patient_recalls r
      join recall_types t on t.clinic_id = r.clinic_id and t.id = r.recall_type_id
      where r.clinic_id = ${clinicId}) pairs`);
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
