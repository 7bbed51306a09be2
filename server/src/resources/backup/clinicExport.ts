import { randomBytes } from 'node:crypto';
import {
  type BackupStatus,
  CLINIC_EXPORT_FORMAT,
  CLINIC_EXPORT_VERSION,
  type ClinicExport,
  clinicExportSchema,
} from '@dental/shared/domain';
import { and, desc, eq, sql } from 'drizzle-orm';
import { hashPassword } from '../../auth/passwords';
import { recordAudit } from '../../db/auditLog';
import type { Database, Reader } from '../../db/client';
import {
  appointments,
  auditLog,
  availability,
  clinicModules,
  clinicSettings,
  clinics,
  dentists,
  patients,
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
  | typeof appointments;

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

/** Rows as the file lists them: each with its clinic-scoped id and creation time (keptRows reads them back). */
function exportedRows<Row extends { id: number; createdAt: Date }, Fields>(
  rows: Row[],
  fieldsOf: (row: Row) => Fields,
) {
  return rows.map((row) => ({ id: row.id, ...fieldsOf(row), created_at: iso(row.createdAt) }));
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
          }
        : null,
      modules: moduleRows.map((row) => ({ module_id: row.moduleId, enabled: row.enabled })),
      // No password hash, failed sign-ins or session marks: a file is not a way in.
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
  counts: Record<'users' | 'dentists' | 'patients' | 'availability' | 'appointments', number>;
  /** A one-time password for each active admin: imported accounts carry no password. */
  adminPasswords: Array<{ username: string; password: string }>;
}

const CHUNK = 500;
async function insertChunked<Row>(rows: Row[], insert: (chunk: Row[]) => Promise<unknown>) {
  for (let start = 0; start < rows.length; start += CHUNK) await insert(rows.slice(start, start + CHUNK));
}

/** An export's rows as the new clinic stores them: in the clinic, with the ids and creation times they had. */
function keptRows<Row extends { id: number; created_at: string }, Columns>(
  clinicId: number,
  rows: Row[],
  columnsOf: (row: Row) => Columns,
) {
  return rows.map((row) => ({
    clinicId,
    id: row.id,
    ...columnsOf(row),
    createdAt: new Date(row.created_at),
  }));
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
      });
    }
    if (file.modules.length > 0) {
      await tx
        .insert(clinicModules)
        .values(file.modules.map((row) => ({ clinicId, moduleId: row.module_id, enabled: row.enabled })));
    }
    await insertChunked(file.dentists, (chunk) =>
      tx.insert(dentists).values(
        keptRows(clinicId, chunk, (row) => ({
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
      ),
    );
    await insertChunked(file.users, (chunk) =>
      tx.insert(users).values(
        keptRows(clinicId, chunk, (row) => ({
          username: row.username,
          email: row.email,
          name: row.name,
          role: row.role,
          passwordHash: hashes.get(row.username) ?? unknownHash,
          isActive: row.is_active,
          dentistId: row.dentist_id,
          lastLogin: row.last_login ? new Date(row.last_login) : null,
        })),
      ),
    );
    await insertChunked(file.patients, (chunk) =>
      tx
        .insert(patients)
        .values(keptRows(clinicId, chunk, (row) => ({ ...patientDetailsOf(row), status: row.status }))),
    );
    await insertChunked(file.availability, (chunk) =>
      tx.insert(availability).values(
        keptRows(clinicId, chunk, (row) => ({
          dentistId: row.dentist_id,
          date: row.date,
          timeSlots: row.time_slots,
          status: row.status,
        })),
      ),
    );
    // An export from before overlaps were refused may hold overlapping visits: they come in as
    // candidates for kept groups (overlap_group 0, allowed by dental.keeping_overlaps), and
    // settle_overlap_groups keeps as groups only the visits that really overlap.
    await tx.execute(sql`select set_config('dental.keeping_overlaps', 'on', true)`);
    await insertChunked(file.appointments, (chunk) =>
      tx.insert(appointments).values(
        keptRows(clinicId, chunk, (row) => ({
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
          updatedAt: new Date(row.updated_at),
        })),
      ),
    );
    await tx.execute(sql`select settle_overlap_groups(${clinicId})`);
    await tx.execute(sql`select set_config('dental.keeping_overlaps', '', true)`);
    // Ids were kept: each sequence moves past the highest, so new rows never take one.
    for (const table of ['users', 'dentists', 'patients', 'availability', 'appointments']) {
      await tx.execute(
        sql.raw(
          `select setval(pg_get_serial_sequence('${table}', 'id'), coalesce((select max(id) from ${table}), 1), (select count(*) > 0 from ${table}))`,
        ),
      );
    }
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
      },
      adminPasswords,
    };
  });
}
