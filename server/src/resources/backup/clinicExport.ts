import { randomBytes } from 'node:crypto';
import {
  type BackupStatus,
  CLINIC_EXPORT_FORMAT,
  CLINIC_EXPORT_VERSION,
  type ClinicExport,
  clinicExportSchema,
} from '@dental/shared/domain';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import { hashPassword } from '../../auth/passwords';
import { recordAudit } from '../../db/auditLog';
import type { Database, Reader, Transaction } from '../../db/client';
import {
  appointmentSeries,
  appointments,
  auditLog,
  availability,
  clinicModules,
  clinicSettings,
  clinics,
  dentists,
  patientRecalls,
  patients,
  recallTypes,
  users,
} from '../../db/schema';
import { HttpError } from '../../plugins/errors';
import { dentistDetailsOf } from '../dentists/dentistsData';
import { patientDetailsOf } from '../patients/patientsData';

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

/** The tables an export holds row by row, each row with its clinic-scoped id. */
type ClinicTable =
  | typeof users
  | typeof dentists
  | typeof patients
  | typeof availability
  | typeof appointments
  | typeof appointmentSeries
  | typeof recallTypes;

/** Every row of one clinic in `table`, in id order (the order the file lists them in). */
async function clinicRows<Table extends ClinicTable>(
  tx: Reader,
  table: Table,
  clinicId: number,
): Promise<Table['$inferSelect'][]> {
  const source: ClinicTable = table;
  const rows = await tx.select().from(source).where(eq(source.clinicId, clinicId)).orderBy(source.id);
  return rows as unknown as Table['$inferSelect'][];
}

/** Rows as the file lists them: each with its clinic-scoped id and creation time (keptTable reads them back). */
function exportedRows<Row extends { id: number; createdAt: Date }, Fields>(
  rows: Row[],
  fieldsOf: (row: Row) => Fields,
) {
  return rows.map((row) => ({ id: row.id, ...fieldsOf(row), created_at: iso(row.createdAt) }));
}

type WaitlistRow = NonNullable<ClinicExport['waitlist']>[number];

/** The clinic's waitlist as the file lists it, in id order (days and weekdays read the same on every driver). */
async function waitlistRows(tx: Reader, clinicId: number): Promise<WaitlistRow[]> {
  const { rows } = await tx.execute(sql`
    select id, patient_id, treatment, dentist_id, to_json(weekdays) as weekdays, part_of_day,
      to_char(earliest_on, 'YYYY-MM-DD') as earliest_on, to_char(latest_on, 'YYYY-MM-DD') as latest_on,
      note, created_by, created_at, updated_at
    from waitlist_entries where clinic_id = ${clinicId} order by id`);
  return (
    rows as unknown as Array<
      Omit<WaitlistRow, 'created_at' | 'updated_at'> & {
        created_at: Date | string;
        updated_at: Date | string;
      }
    >
  ).map((row) => ({ ...row, created_at: iso(row.created_at), updated_at: iso(row.updated_at) }));
}

/** Everything of one clinic, read in one transaction so the file is one consistent moment. */
export async function exportClinic(
  db: Database,
  actor: { clinicId: number; userId: number; name: string },
): Promise<ClinicExport> {
  return db.transaction(async (tx) => {
    const clinicId = actor.clinicId;
    const [clinic] = await tx.select().from(clinics).where(eq(clinics.id, clinicId));
    if (!clinic) throw new HttpError(404, 'Clinic not found');
    const [settings] = await tx.select().from(clinicSettings).where(eq(clinicSettings.clinicId, clinicId));
    // One after another: a transaction holds one connection.
    const moduleRows = await tx
      .select()
      .from(clinicModules)
      .where(eq(clinicModules.clinicId, clinicId))
      .orderBy(clinicModules.moduleId);
    const userRows = await clinicRows(tx, users, clinicId);
    const dentistRows = await clinicRows(tx, dentists, clinicId);
    const patientRows = await clinicRows(tx, patients, clinicId);
    const dayRows = await clinicRows(tx, availability, clinicId);
    const visitRows = await clinicRows(tx, appointments, clinicId);
    const seriesRows = await clinicRows(tx, appointmentSeries, clinicId);
    const waiting = await waitlistRows(tx, clinicId);
    const recallTypeRows = await clinicRows(tx, recallTypes, clinicId);
    const recallRows = await tx
      .select()
      .from(patientRecalls)
      .where(eq(patientRecalls.clinicId, clinicId))
      .orderBy(patientRecalls.patientId, patientRecalls.recallTypeId);
    const file: ClinicExport = {
      format: CLINIC_EXPORT_FORMAT,
      version: CLINIC_EXPORT_VERSION,
      exported_at: new Date().toISOString(),
      exported_by: actor.name,
      clinic: { name: clinic.name, time_zone: clinic.timeZone, created_at: iso(clinic.createdAt) },
      settings: settings
        ? {
            practice_name: settings.practiceName,
            address: settings.address,
            phone: settings.phone,
            email: settings.email,
            working_hours: settings.workingHours as Record<
              string,
              { start: string; end: string; closed: boolean }
            >,
            notifications: settings.notifications as Record<string, boolean>,
            idle_timeout_minutes: settings.idleTimeoutMinutes,
            reminder_lead_hours: settings.reminderLeadHours,
            treatment_minutes: settings.treatmentMinutes as Record<string, number> | null,
            booking_grid_minutes: settings.bookingGridMinutes,
            // The database's check keeps the column to the policies.
            mfa_required: settings.mfaRequired as NonNullable<ClinicExport['settings']>['mfa_required'],
            recall_reminders_enabled: settings.recallRemindersEnabled,
            recall_reminder_days_before: settings.recallReminderDaysBefore,
          }
        : null,
      modules: moduleRows.map((row) => ({ module_id: row.moduleId, enabled: row.enabled })),
      // No password hash, failed sign-ins or session marks, and no sessions, second factors or
      // recovery codes (their tables are not read): a file is not a way in.
      users: exportedRows(userRows, (row) => ({
        username: row.username,
        email: row.email,
        name: row.name,
        role: row.role as ClinicExport['users'][number]['role'],
        is_active: row.isActive,
        dentist_id: row.dentistId,
        last_login: row.lastLogin ? iso(row.lastLogin) : null,
      })),
      dentists: exportedRows(dentistRows, (row) => ({
        ...dentistDetailsOf(row),
        status: row.status as 'active' | 'inactive',
        deleted_at: row.deletedAt ? iso(row.deletedAt) : null,
      })),
      patients: exportedRows(patientRows, (row) => ({
        name: row.name,
        email: row.email,
        phone: row.phone,
        date_of_birth: row.dateOfBirth,
        address: row.address,
        emergency_contact: row.emergencyContact,
        medical_history: row.medicalHistory,
        status: row.status as 'active' | 'inactive',
      })),
      availability: exportedRows(dayRows, (row) => ({
        dentist_id: row.dentistId,
        date: row.date,
        time_slots: row.timeSlots,
        status: row.status as 'active' | 'inactive',
      })),
      appointments: exportedRows(visitRows, (row) => ({
        patient_id: row.patientId,
        dentist_id: row.dentistId,
        date: row.date,
        time: row.time,
        duration: row.duration,
        treatment: row.treatment,
        status: row.status as ClinicExport['appointments'][number]['status'],
        notes: row.notes,
        outside_hours: row.outsideHours,
        outside_hours_reason: row.outsideHoursReason,
        series_id: row.seriesId,
        series_position: row.seriesPosition,
        updated_at: iso(row.updatedAt),
      })),
      appointment_series: exportedRows(seriesRows, (row) => ({
        every: row.every,
        unit: row.unit as NonNullable<ClinicExport['appointment_series']>[number]['unit'],
        count: row.count,
        until: row.until,
        created_by: row.createdBy,
        updated_at: iso(row.updatedAt),
      })),
      waitlist: waiting,
      recall_types: exportedRows(recallTypeRows, (row) => ({
        name: row.name,
        treatment: row.treatment,
        interval_months: row.intervalMonths,
        active: row.active,
        updated_at: iso(row.updatedAt),
      })),
      // Without booked_until and follow_up_on: the import derives them from the visits and these dates.
      patient_recalls: recallRows.map((row) => ({
        patient_id: row.patientId,
        recall_type_id: row.recallTypeId,
        last_visit: row.lastVisit,
        last_dentist_id: row.lastDentistId,
        due_date: row.dueDate,
        due_set_by_hand: row.dueSetByHand,
        snoozed_until: row.snoozedUntil,
        active: row.active,
        note: row.note,
        last_contact_at: row.lastContactAt ? iso(row.lastContactAt) : null,
        last_contact_kind: row.lastContactKind as NonNullable<
          ClinicExport['patient_recalls']
        >[number]['last_contact_kind'],
        last_contact_note: row.lastContactNote,
        auto_reminded_for: row.autoRemindedFor,
        updated_at: iso(row.updatedAt),
      })),
    };
    await recordAudit(tx, {
      clinicId,
      userId: actor.userId,
      action: 'export',
      entity: 'backup',
      details: {
        name: "the clinic's data",
        patients: patientRows.length,
        appointments: visitRows.length,
      },
    });
    return file;
  });
}

/** The last export of the clinic (its audit record), for the Backup tab. */
export async function backupStatus(db: Reader, clinicId: number): Promise<BackupStatus> {
  const [last] = await db
    .select({ at: auditLog.createdAt, by: users.name })
    .from(auditLog)
    .leftJoin(users, and(eq(users.clinicId, auditLog.clinicId), eq(users.id, auditLog.userId)))
    .where(and(eq(auditLog.clinicId, clinicId), eq(auditLog.entity, 'backup'), eq(auditLog.action, 'export')))
    .orderBy(desc(auditLog.createdAt))
    .limit(1);
  return { last_export: last ? { at: iso(last.at), by: last.by ?? 'A former user' } : null };
}

export interface ImportResult {
  clinicId: number;
  clinicName: string;
  counts: Record<
    | 'users'
    | 'dentists'
    | 'patients'
    | 'availability'
    | 'appointments'
    | 'appointment_series'
    | 'waitlist'
    | 'recall_types'
    | 'patient_recalls',
    number
  >;
  /** A one-time password for each active admin: imported accounts carry no password. */
  adminPasswords: Array<{ username: string; password: string }>;
}

const CHUNK = 500;
async function insertChunked<Row>(rows: Row[], insert: (chunk: Row[]) => Promise<unknown>) {
  for (let start = 0; start < rows.length; start += CHUNK) await insert(rows.slice(start, start + CHUNK));
}

/** What a file's row gives its table besides the clinic, its id and its creation time (keptTable adds those). */
type KeptColumns<Table extends ClinicTable> = Omit<Table['$inferInsert'], 'clinicId' | 'id' | 'createdAt'>;

/**
 * How one table of the file is loaded into the new clinic: its rows, in chunks, each keeping its id
 * and creation time, with the columns `columnsOf` gives it.
 */
function keptTable<Table extends ClinicTable, Row extends { id: number; created_at: string }>(
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
async function importPatientRecalls(
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

/**
 * Loads an export as a new clinic, in one transaction: nothing is written unless all of it is. Rows
 * keep their ids (every key is scoped by the clinic), then each id sequence is moved past them. A
 * username or e-mail already used in this database is refused, naming them.
 */
export async function importClinic(db: Database, raw: unknown): Promise<ImportResult> {
  const parsed = clinicExportSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `Not a clinic export this version can read: ${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}`,
    );
  }
  const file = parsed.data;
  const usernames = file.users.map((user) => user.username.toLowerCase());
  const emails = file.users.map((user) => user.email.toLowerCase());
  if (usernames.length > 0) {
    const taken = await db
      .select({ username: users.username, email: users.email })
      .from(users)
      .where(
        sql`lower(${users.username}) in (${sql.join(
          usernames.map((name) => sql`${name}`),
          sql`, `,
        )}) or lower(${users.email}) in (${sql.join(
          emails.map((email) => sql`${email}`),
          sql`, `,
        )})`,
      );
    if (taken.length > 0) {
      throw new Error(
        `These accounts already exist in this database (usernames and e-mails are unique across clinics): ${taken
          .map((row) => row.username)
          .join(', ')}`,
      );
    }
  }
  const adminPasswords = file.users
    .filter((user) => user.role === 'admin' && user.is_active)
    .map((user) => ({ username: user.username, password: randomBytes(12).toString('base64url') }));
  const hashes = new Map<string, string>();
  for (const admin of adminPasswords) hashes.set(admin.username, await hashPassword(admin.password));
  // Everyone else gets a password nobody knows; an admin sets theirs in Users.
  const unknownHash = await hashPassword(randomBytes(24).toString('base64url'));

  // A series or waitlist entry names the account that made it; one the file does not hold (an account
  // deleted since, or left out of the file) comes in as nobody's, as deleting an account leaves it.
  const accounts = new Set(file.users.map((user) => user.id));
  const authorOf = (userId: number | null) => (userId !== null && accounts.has(userId) ? userId : null);

  return db.transaction(async (tx) => {
    const [clinic] = await tx
      .insert(clinics)
      .values({
        name: file.clinic.name,
        timeZone: file.clinic.time_zone,
        createdAt: new Date(file.clinic.created_at),
      })
      .returning({ id: clinics.id });
    if (!clinic) throw new Error('The clinic was not created');
    const clinicId = clinic.id;
    // A new clinic is given the two usual recall types (a trigger); the file's own replace them.
    if (file.recall_types) await tx.delete(recallTypes).where(eq(recallTypes.clinicId, clinicId));
    if (file.settings) {
      await tx.insert(clinicSettings).values({
        clinicId,
        practiceName: file.settings.practice_name,
        address: file.settings.address,
        phone: file.settings.phone,
        email: file.settings.email,
        workingHours: file.settings.working_hours,
        notifications: file.settings.notifications,
        idleTimeoutMinutes: file.settings.idle_timeout_minutes,
        ...(file.settings.treatment_minutes ? { treatmentMinutes: file.settings.treatment_minutes } : {}),
        ...(file.settings.booking_grid_minutes
          ? { bookingGridMinutes: file.settings.booking_grid_minutes }
          : {}),
        ...(file.settings.reminder_lead_hours
          ? { reminderLeadHours: file.settings.reminder_lead_hours }
          : {}),
        ...(file.settings.mfa_required ? { mfaRequired: file.settings.mfa_required } : {}),
        ...(file.settings.recall_reminders_enabled === undefined
          ? {}
          : { recallRemindersEnabled: file.settings.recall_reminders_enabled }),
        ...(file.settings.recall_reminder_days_before
          ? { recallReminderDaysBefore: file.settings.recall_reminder_days_before }
          : {}),
      });
    }
    if (file.modules.length > 0) {
      await tx
        .insert(clinicModules)
        .values(file.modules.map((row) => ({ clinicId, moduleId: row.module_id, enabled: row.enabled })));
    }
    const keptTables = [
      keptTable(dentists, file.dentists, (row) => ({
        name: row.name,
        email: row.email,
        phone: row.phone,
        specialty: row.specialty,
        license: row.license,
        yearsOfExperience: row.years_of_experience,
        workingDays: row.working_days,
        status: row.status,
        deletedAt: row.deleted_at ? new Date(row.deleted_at) : null,
      })),
      keptTable(users, file.users, (row) => ({
        username: row.username,
        email: row.email,
        name: row.name,
        role: row.role,
        passwordHash: hashes.get(row.username) ?? unknownHash,
        // A one-time password opens only the choice of the admin's own.
        passwordMustChange: hashes.has(row.username),
        isActive: row.is_active,
        dentistId: row.dentist_id,
        lastLogin: row.last_login ? new Date(row.last_login) : null,
      })),
      keptTable(patients, file.patients, (row) => ({ ...patientDetailsOf(row), status: row.status })),
      keptTable(availability, file.availability, (row) => ({
        dentistId: row.dentist_id,
        date: row.date,
        timeSlots: row.time_slots,
        status: row.status,
      })),
      // Before the visits: a completed visit makes its patient's recalls of its treatment's types (a
      // trigger), and a visit of a series names its series.
      keptTable(recallTypes, file.recall_types ?? [], (row) => ({
        name: row.name,
        treatment: row.treatment,
        intervalMonths: row.interval_months,
        active: row.active,
        updatedAt: new Date(row.updated_at),
      })),
      keptTable(appointmentSeries, file.appointment_series ?? [], (row) => ({
        every: row.every,
        unit: row.unit,
        count: row.count,
        until: row.until,
        createdBy: authorOf(row.created_by),
        updatedAt: new Date(row.updated_at),
      })),
    ];
    for (const insertKept of keptTables) await insertKept(tx, clinicId);
    // An export from before overlaps were refused may hold overlapping visits: they come in as
    // candidates for kept groups (overlap_group 0, allowed by dental.keeping_overlaps), and
    // settle_overlap_groups keeps as groups only the visits that really overlap.
    await tx.execute(sql`select set_config('dental.keeping_overlaps', 'on', true)`);
    const insertVisits = keptTable(appointments, file.appointments, (row) => ({
      patientId: row.patient_id,
      dentistId: row.dentist_id,
      date: row.date,
      time: row.time,
      // Left out, the database gives the treatment's length (the settings above are in).
      ...(row.duration === undefined ? {} : { duration: row.duration }),
      treatment: row.treatment,
      status: row.status,
      notes: row.notes,
      outsideHours: row.outside_hours ?? false,
      outsideHoursReason: row.outside_hours_reason ?? null,
      overlapGroup: row.status === 'cancelled' ? null : 0,
      seriesId: row.series_id ?? null,
      seriesPosition: row.series_position ?? null,
      updatedAt: new Date(row.updated_at),
    }));
    await insertVisits(tx, clinicId);
    await tx.execute(sql`select settle_overlap_groups(${clinicId})`);
    await tx.execute(sql`select set_config('dental.keeping_overlaps', '', true)`);
    if (file.patient_recalls) await importPatientRecalls(tx, clinicId, file.patient_recalls);
    await insertChunked(file.waitlist ?? [], (chunk) =>
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
    // Ids were kept: each sequence moves past the highest, so new rows never take one.
    for (const table of [
      'users',
      'dentists',
      'patients',
      'availability',
      'appointments',
      'appointment_series',
      'recall_types',
      'waitlist_entries',
    ]) {
      await tx.execute(
        sql.raw(
          `select setval(pg_get_serial_sequence('${table}', 'id'), coalesce((select max(id) from ${table}), 1), (select count(*) > 0 from ${table}))`,
        ),
      );
    }
    // Recall types and patients' recalls an older file leaves out are the database's own: counted as stored.
    const [recallCounts] = (
      await tx.execute(sql`
        select (select count(*) from recall_types where clinic_id = ${clinicId})::int as recall_types,
          (select count(*) from patient_recalls where clinic_id = ${clinicId})::int as patient_recalls`)
    ).rows as unknown as Array<{ recall_types: number; patient_recalls: number }>;
    await recordAudit(tx, {
      clinicId,
      userId: null,
      action: 'import',
      entity: 'backup',
      details: { name: `the export of ${file.exported_at}`, exported_by: file.exported_by },
    });
    return {
      clinicId,
      clinicName: file.clinic.name,
      counts: {
        users: file.users.length,
        dentists: file.dentists.length,
        patients: file.patients.length,
        availability: file.availability.length,
        appointments: file.appointments.length,
        appointment_series: file.appointment_series?.length ?? 0,
        waitlist: file.waitlist?.length ?? 0,
        recall_types: recallCounts?.recall_types ?? 0,
        patient_recalls: recallCounts?.patient_recalls ?? 0,
      },
      adminPasswords,
    };
  });
}
