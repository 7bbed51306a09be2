import { z } from 'zod';
import { MFA_POLICIES } from './auth';
import { TREATMENTS } from './constants';
import { dentistDetailFields } from './dentists';
import { RECALL_CONTACT_KINDS } from './recall';
import { SERIES_UNITS } from './series';
import { DENTIST_PART_ORDER_MESSAGE, dentistPartMinute, turnoverMinutesSchema } from './visitTime';
import { PARTS_OF_DAY } from './waitlist';

/**
 * A clinic's data as one JSON file (Settings, Backup tab): every resource of the clinic, with the ids
 * it had, and no password hashes, session tokens, second factors or recovery codes. `npm run
 * clinic:import -- <file>` loads it into a database as a new clinic.
 *
 * The version changes only when a file of the old shape could no longer be read. A part added later
 * is optional, so that an export made before it still imports: it then comes in as a clinic of that
 * time had it (the defaults, or what the database derives from the visits).
 */
export const CLINIC_EXPORT_FORMAT = 'dental-clinic-export';
export const CLINIC_EXPORT_VERSION = 1;

/**
 * The largest id an import takes. Ids are numbered by sequences every clinic of the database shares,
 * and an import moves them past its own ids: an id near the top (2,147,483,647) would leave no number
 * for any clinic's next row.
 */
export const MAX_IMPORTED_ID = 100_000_000;
const id = z
  .number()
  .int()
  .positive()
  .max(
    MAX_IMPORTED_ID,
    `ids above ${MAX_IMPORTED_ID.toLocaleString('en')} are not taken: they would use up the numbering every clinic shares`,
  );
const timestamp = z.string().datetime({ offset: true });
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const clinicExportSchema = z.object({
  format: z.literal(CLINIC_EXPORT_FORMAT),
  version: z.literal(CLINIC_EXPORT_VERSION),
  exported_at: timestamp,
  exported_by: z.string(),
  clinic: z.object({ name: z.string().min(1), time_zone: z.string(), created_at: timestamp }),
  settings: z
    .object({
      practice_name: z.string(),
      address: z.string(),
      phone: z.string(),
      email: z.string(),
      working_hours: z.record(
        z.string(),
        z.object({ start: z.string(), end: z.string(), closed: z.boolean() }),
      ),
      notifications: z.record(z.string(), z.boolean()),
      idle_timeout_minutes: z.number().int(),
      reminder_lead_hours: z.number().int().optional(),
      /** Exports from before visit lengths have neither: the defaults apply. */
      treatment_minutes: z.record(z.string(), z.number().int()).nullable().optional(),
      booking_grid_minutes: z.number().int().optional(),
      /** Exports from before two-step sign-in have none: nobody is asked for a second factor. */
      mfa_required: z.enum(MFA_POLICIES).optional(),
      /** Exports from before automatic recall reminders have neither: they stay off. */
      recall_reminders_enabled: z.boolean().optional(),
      recall_reminder_days_before: z.number().int().optional(),
      /**
       * Exports from before chairs have neither: no turnover, and the dentist needed throughout every
       * visit. `dentist_parts` is stored as the database reads it: `{ "Cavity Filling": { "from": 10, "to": 50 } }`.
       */
      turnover_minutes: turnoverMinutesSchema.nullable().optional(),
      dentist_parts: z
        .partialRecord(
          z.enum(TREATMENTS),
          z
            .object({ from: dentistPartMinute, to: dentistPartMinute })
            .strict()
            .refine((part) => part.from < part.to, { message: DENTIST_PART_ORDER_MESSAGE, path: ['to'] }),
        )
        .nullable()
        .optional(),
    })
    .nullable(),
  modules: z.array(z.object({ module_id: z.string(), enabled: z.boolean() })),
  users: z.array(
    z.object({
      id,
      username: z.string(),
      email: z.string(),
      name: z.string(),
      role: z.enum(['admin', 'receptionist', 'dentist']),
      is_active: z.boolean(),
      dentist_id: id.nullable(),
      last_login: timestamp.nullable(),
      created_at: timestamp,
    }),
  ),
  dentists: z.array(
    z.object({
      id,
      ...dentistDetailFields,
      status: z.enum(['active', 'inactive']),
      /** A deleted dentist, kept behind the clinic's past appointments (left out: not deleted). */
      deleted_at: timestamp.nullable().optional(),
      created_at: timestamp,
    }),
  ),
  patients: z.array(
    z.object({
      id,
      name: z.string(),
      email: z.string().nullable(),
      phone: z.string(),
      date_of_birth: day.nullable(),
      address: z.string().nullable(),
      emergency_contact: z.string().nullable(),
      medical_history: z.string().nullable(),
      status: z.enum(['active', 'inactive']),
      created_at: timestamp,
    }),
  ),
  availability: z.array(
    z.object({
      id,
      dentist_id: id,
      date: day,
      time_slots: z.array(
        z.object({
          start: z.string(),
          end: z.string(),
          available: z.boolean(),
          closed: z.boolean().optional(),
        }),
      ),
      status: z.enum(['active', 'inactive']),
      created_at: timestamp,
    }),
  ),
  appointments: z.array(
    z.object({
      id,
      patient_id: id,
      dentist_id: id,
      date: day,
      time: z.string(),
      /** Exports from before visit lengths have none: the treatment's length is given on import. */
      duration: z.number().int().optional(),
      treatment: z.string(),
      status: z.enum(['pending', 'confirmed', 'cancelled', 'completed']),
      notes: z.string().nullable(),
      outside_hours: z.boolean().optional(),
      outside_hours_reason: z.string().nullable().optional(),
      /** The series the visit belongs to and its place in it (1 = first booked); both or neither. */
      series_id: id.nullable().optional(),
      series_position: z.number().int().positive().nullable().optional(),
      /**
       * The chair the visit holds, its turnover and the dentist's part (minutes from its start, both
       * or neither). Exports from before chairs have none: each visit gets a free chair on import.
       */
      chair_id: id.optional(),
      turnover: z.number().int().min(0).max(120).optional(),
      dentist_from: z.number().int().min(0).nullable().optional(),
      dentist_to: z.number().int().positive().nullable().optional(),
      created_at: timestamp,
      updated_at: timestamp,
    }),
  ),
  /** Recurring bookings, named by their visits (`series_id`). Exports from before series have none. */
  appointment_series: z
    .array(
      z.object({
        id,
        every: z.number().int(),
        unit: z.enum(SERIES_UNITS),
        count: z.number().int().nullable(),
        until: day.nullable(),
        /** The account that booked it; one the file does not hold comes in as nobody's. */
        created_by: id.nullable(),
        created_at: timestamp,
        updated_at: timestamp,
      }),
    )
    .optional(),
  /** Patients waiting for a time. Exports from before the waitlist have none. */
  waitlist: z
    .array(
      z.object({
        id,
        patient_id: id,
        treatment: z.enum(TREATMENTS),
        /** The dentist they want; null: any dentist. */
        dentist_id: id.nullable(),
        /** ISO weekdays, 1 Monday … 7 Sunday. */
        weekdays: z.array(z.number().int().min(1).max(7)).min(1),
        part_of_day: z.enum(PARTS_OF_DAY),
        earliest_on: day,
        latest_on: day,
        note: z.string(),
        created_by: id.nullable(),
        created_at: timestamp,
        updated_at: timestamp,
      }),
    )
    .optional(),
  /**
   * The clinic's chairs, retired ones too (for history), in id order. Left out (an export from before
   * chairs), the new clinic starts with one for each active dentist, as every clinic did.
   */
  chairs: z
    .array(
      z.object({
        id,
        name: z.string(),
        position: z.number().int(),
        in_service: z.boolean(),
        bookable_online: z.boolean(),
        default_dentist_id: id.nullable(),
        retired_at: timestamp.nullable(),
        created_at: timestamp,
        updated_at: timestamp,
      }),
    )
    .optional(),
  /**
   * The clinic's recall types. Left out (an export from before recall), the new clinic keeps the two
   * every clinic starts with; given, they replace those.
   */
  recall_types: z
    .array(
      z.object({
        id,
        name: z.string(),
        treatment: z.string(),
        interval_months: z.number().int(),
        active: z.boolean(),
        created_at: timestamp,
        updated_at: timestamp,
      }),
    )
    .optional(),
  /**
   * Each patient's recall of a type, as staff left it (a due date set by hand, a snooze, a note, the
   * last contact). Left out, the database derives them from the completed visits, as it does for a
   * new recall type. The day of the next booked visit (`booked_until`) and the follow-up day are
   * derived from the visits and the dates here, so the file does not hold them.
   */
  patient_recalls: z
    .array(
      z.object({
        patient_id: id,
        recall_type_id: id,
        last_visit: day.nullable(),
        last_dentist_id: id.nullable(),
        due_date: day,
        due_set_by_hand: z.boolean(),
        snoozed_until: day.nullable(),
        active: z.boolean(),
        note: z.string(),
        last_contact_at: timestamp.nullable(),
        last_contact_kind: z.enum(RECALL_CONTACT_KINDS).nullable(),
        last_contact_note: z.string().nullable(),
        /** The due date whose automatic reminder went out: the new clinic does not send it again. */
        auto_reminded_for: day.nullable(),
        updated_at: timestamp,
      }),
    )
    .optional(),
});
export type ClinicExport = z.infer<typeof clinicExportSchema>;

/** GET /api/backup: when the clinic's data was last exported, and by whom. */
export const backupStatusSchema = z.object({
  last_export: z.object({ at: z.string(), by: z.string() }).nullable(),
});
export type BackupStatus = z.infer<typeof backupStatusSchema>;

/**
 * The file name of an export (the server's download, the browser's saved file): the clinic's name
 * and the day, in letters a file system keeps.
 */
export function clinicExportFileName(clinicName: string, exportedAt: string): string {
  const slug =
    clinicName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'clinic';
  return `${slug}-${exportedAt.slice(0, 10)}.json`;
}
