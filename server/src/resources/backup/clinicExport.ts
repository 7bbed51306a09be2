import {
  type BackupStatus,
  CLINIC_EXPORT_FORMAT,
  CLINIC_EXPORT_VERSION,
  type ClinicExport,
} from '@dental/shared/domain';
import { and, desc, eq, sql } from 'drizzle-orm';
import { recordAudit } from '../../db/auditLog';
import type { Database, Reader } from '../../db/client';
import {
  appointmentSeries,
  appointments,
  auditLog,
  availability,
  chairs,
  clinicModules,
  clinicSettings,
  clinics,
  dentists,
  patientRecalls,
  patients,
  recallTypes,
  users,
} from '../../db/schema';
import { NotFound } from '../../domain/errors';
import { dentistDetailsOf } from '../dentists/dentistReads';

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

/** The tables an export holds row by row, each row with its clinic-scoped id. */
export type ClinicTable =
  | typeof users
  | typeof dentists
  | typeof patients
  | typeof availability
  | typeof appointments
  | typeof appointmentSeries
  | typeof recallTypes
  | typeof chairs;

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
    if (!clinic) throw new NotFound('Clinic not found');
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
    const chairRows = await clinicRows(tx, chairs, clinicId);
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
            turnover_minutes: settings.turnoverMinutes,
            // Stored as the database reads it (`{ "Cavity Filling": { "from": 10, "to": 50 } }`); saves keep it so.
            dentist_parts: settings.dentistParts as NonNullable<ClinicExport['settings']>['dentist_parts'],
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
        chair_id: row.chairId,
        turnover: row.turnover,
        dentist_from: row.dentistFrom,
        dentist_to: row.dentistTo,
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
      chairs: exportedRows(chairRows, (row) => ({
        name: row.name,
        position: row.position,
        in_service: row.inService,
        bookable_online: row.bookableOnline,
        default_dentist_id: row.defaultDentistId,
        retired_at: row.retiredAt ? iso(row.retiredAt) : null,
        updated_at: iso(row.updatedAt),
      })),
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
