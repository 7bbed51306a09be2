import { z } from 'zod';
import { dentistDetailFields } from './dentists';

/**
 * A clinic's data as one JSON file (Settings, Backup tab): every resource of the clinic, with the ids
 * it had, and no password hashes or session tokens. `npm run clinic:import -- <file>` loads it into a
 * database as a new clinic.
 */
export const CLINIC_EXPORT_FORMAT = 'dental-clinic-export';
export const CLINIC_EXPORT_VERSION = 1;

const id = z.number().int().positive();
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
      created_at: timestamp,
      updated_at: timestamp,
    }),
  ),
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
