import { randomBytes } from 'node:crypto';
import { clinicExportSchema } from '@dental/shared/domain';
import { eq, sql } from 'drizzle-orm';
import { hashPassword } from '../../auth/passwords';
import { recordAudit } from '../../db/auditLog';
import type { Database } from '../../db/client';
import {
  appointmentSeries,
  availability,
  chairs,
  clinicModules,
  clinicSettings,
  clinics,
  dentists,
  patients,
  recallTypes,
  users,
} from '../../db/schema';
import { patientDetailsOf } from '../patients/patientsData';
import {
  importPatientRecalls,
  importVisits,
  importWaitlist,
  keptTable,
  moveSequencesPastKeptIds,
  visitsOverlap,
} from './importedRows';

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
        // Left out (a file from before chairs): no turnover, the dentist needed throughout every visit.
        turnoverMinutes: file.settings.turnover_minutes ?? null,
        dentistParts: file.settings.dentist_parts ?? null,
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
    // After the dentists they name. An export from before chairs: one for each active dentist (0033).
    if (file.chairs) {
      await keptTable(chairs, file.chairs, (row) => ({
        name: row.name,
        position: row.position,
        inService: row.in_service,
        bookableOnline: row.bookable_online,
        defaultDentistId: row.default_dentist_id,
        retiredAt: row.retired_at ? new Date(row.retired_at) : null,
        updatedAt: new Date(row.updated_at),
      }))(tx, clinicId);
    } else {
      await tx.execute(sql`select chairs_for_dentists(${clinicId})`);
    }
    // An export from before overlaps were refused may hold overlapping visits: the constraints that
    // refuse overlaps wait until the visits are in (they are deferrable), and settle_overlap_groups
    // then keeps as groups the visits that really overlap (allowed by dental.keeping_overlaps); then
    // the constraints check them. The others are written once, in no group: marking every visit a
    // candidate and settling them all rewrote each of a large clinic's visits a second time.
    await tx.execute(
      sql`set constraints appointments_dentist_time_excl, appointments_patient_time_excl, appointments_chair_time_excl deferred`,
    );
    await tx.execute(sql`select set_config('dental.keeping_overlaps', 'on', true)`);
    await importVisits(tx, clinicId, file.appointments);
    if (await visitsOverlap(tx, clinicId)) {
      await tx.execute(sql`select settle_overlap_groups(${clinicId}, true)`);
    }
    await tx.execute(
      sql`set constraints appointments_dentist_time_excl, appointments_patient_time_excl, appointments_chair_time_excl immediate`,
    );
    await tx.execute(sql`select set_config('dental.keeping_overlaps', '', true)`);
    if (file.patient_recalls) await importPatientRecalls(tx, clinicId, file.patient_recalls);
    await importWaitlist(tx, clinicId, file.waitlist ?? [], authorOf);
    await moveSequencesPastKeptIds(tx);
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
