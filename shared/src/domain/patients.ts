import { z } from 'zod';
import { PERSON_STATUSES } from './constants';
import { afterOnlyWhenSeeking, sortField, sortsOf } from './listSorts';
import { serverOwnedFields } from './serverOwned';
import {
  dateString,
  emailString,
  listQuerySchema,
  nameCursorField,
  optionalText,
  pageSchema,
  phoneString,
  requiredText,
} from './validation';

/** Patients (docs/product.md, Screens; Records and their fields; Validation rules; API calls): the shapes the Patients screens and the server share. */

export const PATIENT_SORTS = sortsOf(['name', 'created_at', 'date_of_birth']);
export type PatientSort = (typeof PATIENT_SORTS)[number];

export const FUTURE_BIRTH_DATE_MESSAGE = 'The date of birth cannot be in the future';

/**
 * A patient's next appointment: the earliest pending or confirmed one on or after the clinic's
 * today (a cancelled or completed appointment is never next).
 */
export const nextAppointmentSchema = z.object({
  id: z.number().int(),
  date: z.string().describe('YYYY-MM-DD'),
  time: z.string().describe('HH:mm'),
});
export type NextAppointment = z.infer<typeof nextAppointmentSchema>;

/**
 * A patient on the wire (docs/product.md, Records and their fields). `lastVisit` is the date (YYYY-MM-DD) of their latest visit: a
 * completed appointment up to the clinic's today, or any appointment before today that was not
 * cancelled. `nextAppointment` is `{ id, date, time }` of their next pending or confirmed appointment
 * from the clinic's today on. Either is null when there is none. Patients first booked at the desk
 * have no e-mail or date of birth yet.
 */
export const wirePatientSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string(),
  dateOfBirth: z.string().nullable(),
  address: z.string().nullable(),
  emergencyContact: z.string().nullable(),
  medicalHistory: z.string().nullable(),
  lastVisit: z.string().nullable(),
  nextAppointment: nextAppointmentSchema.nullable(),
  status: z.enum(PERSON_STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
  /** Moves on with every visible change: sent back in If-Match (liveDesk.ts). */
  version: z.number().int(),
});
export type WirePatient = z.infer<typeof wirePatientSchema>;

/**
 * POST /api/patients and PUT /api/patients/:id (docs/product.md, Validation rules: Patient form): name, e-mail, phone and date
 * of birth required (not in the future: the server checks against the clinic's today); the rest
 * optional. A new patient is active whatever `status` says.
 */
export const patientWriteSchema = z
  .object({
    name: requiredText(100),
    email: emailString,
    phone: phoneString,
    dateOfBirth: dateString,
    address: optionalText(300),
    emergencyContact: optionalText(200),
    medicalHistory: optionalText(2000),
    status: z.enum(PERSON_STATUSES, { message: 'status must be active or inactive' }).optional(),
    ...serverOwnedFields({
      lastVisit: 'derived from the appointments',
      nextAppointment: 'derived from the appointments',
    }),
  })
  .strict()
  .transform((raw) => ({
    name: raw.name,
    email: raw.email,
    phone: raw.phone,
    dateOfBirth: raw.dateOfBirth,
    address: raw.address,
    emergencyContact: raw.emergencyContact,
    medicalHistory: raw.medicalHistory,
    status: raw.status,
  }));
export type PatientWriteRequest = z.input<typeof patientWriteSchema>;
export type PatientWrite = z.output<typeof patientWriteSchema>;

/** The orders whose pages can start at a cursor (`after`, the previous page's `next_cursor`). */
export const PATIENT_SEEKING_SORTS: ReadonlySet<string> = new Set<PatientSort>(['name', '-name']);

/** GET /api/patients: `search` matches any part of name, e-mail or phone; filter `status`. */
export const patientListQuerySchema = listQuerySchema
  .extend({
    status: z.enum(PERSON_STATUSES, { message: 'status must be active or inactive' }).optional(),
    sort: sortField(PATIENT_SORTS),
    after: nameCursorField.optional(),
  })
  .refine(...afterOnlyWhenSeeking('name', PATIENT_SEEKING_SORTS));
export type PatientListQuery = z.infer<typeof patientListQuerySchema>;

/**
 * A patient as a list or search shows them: everything but the medical history, which only the
 * patient's own record (GET /api/patients/:id) answers, on the trail as an opened record.
 */
export const patientListRowSchema = wirePatientSchema.omit({ medicalHistory: true });
export type PatientListRow = z.infer<typeof patientListRowSchema>;

export const patientPageSchema = pageSchema(patientListRowSchema);
export type PatientPage = z.infer<typeof patientPageSchema>;

/** GET /api/patients/:id/appointments: newest first, paged. */
export const patientAppointmentsQuerySchema = listQuerySchema.pick({ page: true, limit: true });
