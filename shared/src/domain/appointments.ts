import { z } from 'zod';
import { APPOINTMENT_STATUSES, DATE_RANGE_MESSAGE, TREATMENTS } from './constants';
import { dashboardAppointmentSchema } from './dashboard';
import { afterOnlyWhenSeeking, sortField, sortsOf } from './listSorts';
import {
  dateCursorField,
  dateString,
  listQuerySchema,
  optionalText,
  pageSchema,
  phoneString,
  requiredText,
  timeString,
} from './validation';
import { OUTSIDE_HOURS_REASON_MAX, OUTSIDE_HOURS_REASON_REQUIRED, visitMinutes } from './visitTime';

/** Appointments (docs/product.md, Screens; Records and their fields; Validation rules; API calls): the shapes the Appointments screens and the server share. */

/** An appointment on the wire (docs/product.md, Records and their fields, snake_case): the same shape wherever one is answered. */
export const appointmentSchema = dashboardAppointmentSchema;
export type Appointment = z.infer<typeof appointmentSchema>;

export const APPOINTMENT_NOTES_MAX = 1000;

/** A booking (or a move) onto a day before the clinic's today is refused with this. */
export const PAST_BOOKING_MESSAGE = 'An appointment cannot be booked on a day that has passed';

/** A visit is marked completed once it has taken place: never on a day still to come. */
export const EARLY_COMPLETION_MESSAGE = 'A visit can be marked completed only from its day on';

/** Whether a visit on `date` may be marked completed when the clinic's today is `today` (YYYY-MM-DD). */
export function canCompleteOn(date: string, today: string): boolean {
  return date <= today;
}
export const PATIENT_NAME_MAX = 100;

export const APPOINTMENT_SORTS = sortsOf(['date', 'patient', 'dentist', 'status', 'created_at']);
export type AppointmentSort = (typeof APPOINTMENT_SORTS)[number];

const statusField = z.enum(APPOINTMENT_STATUSES, {
  message: `status must be one of ${APPOINTMENT_STATUSES.join(', ')}`,
});

/** An id in a body: a positive whole number; a string of digits is taken too (form values). */
const bodyId = (field: string) =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value),
    z
      .number({ message: `${field} is a number` })
      .int(`${field} is a whole number`)
      .positive(`${field} is a positive number`)
      .max(2147483647, `${field} is too large`),
  );

const queryId = (field: string) =>
  z.coerce
    .number({ message: `${field} is a number` })
    .int(`${field} is a whole number`)
    .positive(`${field} is a positive number`)
    .max(2147483647)
    .optional();

/** Fields the server owns or derives: sent back in a PUT of what GET answered, they are ignored. */
const serverOwnedFields = {
  id: z.unknown().optional().describe('Ignored: the server owns it'),
  clinic_id: z.unknown().optional().describe('Ignored: the server owns it'),
  dentist_name: z.unknown().optional().describe('Ignored: derived from dentist_id'),
  created_at: z.unknown().optional().describe('Ignored: the server owns it'),
  updated_at: z.unknown().optional().describe('Ignored: the server owns it'),
  version: z.unknown().optional().describe('Ignored: sent in If-Match, not the body'),
};

/**
 * POST /api/appointments and PUT /api/appointments/:id (docs/product.md, Validation rules; API calls).
 * `patient` and `phone` find the clinic's patient of that name and phone, or create one;
 * `patient_id` names an existing patient instead. On creation `status` is ignored: new appointments
 * are pending.
 */
export const appointmentWriteSchema = z
  .object({
    patient: requiredText(PATIENT_NAME_MAX),
    phone: phoneString,
    patient_id: bodyId('patient_id').optional().nullable(),
    date: dateString,
    time: timeString,
    dentist_id: bodyId('dentist_id'),
    treatment: z.enum(TREATMENTS, { message: `Treatment must be one of ${TREATMENTS.join(', ')}` }),
    notes: optionalText(APPOINTMENT_NOTES_MAX),
    status: statusField.optional(),
    duration: visitMinutes.optional().describe("Minutes; without it the treatment's length from Settings"),
    outside_hours: z
      .boolean({ message: 'outside_hours is true or false' })
      .optional()
      .describe('An emergency outside open hours (admin or receptionist), with outside_hours_reason'),
    outside_hours_reason: optionalText(OUTSIDE_HOURS_REASON_MAX),
    waitlist_entry_id: bodyId('waitlist_entry_id')
      .optional()
      .nullable()
      .describe(
        'POST only: booked from the waitlist, the entry (of this patient) leaves it in the same write',
      ),
    chair_id: bodyId('chair_id')
      .optional()
      .nullable()
      .describe(
        "The chair to hold; without it a free one: the visit's own (an edit), the dentist's default chair, then the first in order",
      ),
    chair_name: z.unknown().optional().describe('Ignored: derived from chair_id'),
    turnover: z.unknown().optional().describe("Ignored: the clinic's turnover when the visit is placed"),
    dentist_from: z.unknown().optional().describe("Ignored: the treatment's dentist part from Settings"),
    dentist_to: z.unknown().optional().describe("Ignored: the treatment's dentist part from Settings"),
    source: z.unknown().optional().describe('Ignored: where the visit was booked is kept by the server'),
    confirmed_by: z.unknown().optional().describe('Ignored: set when the visit is confirmed'),
    end_time: z.unknown().optional().describe('Ignored: derived from time and duration'),
    overlapping: z.unknown().optional().describe('Ignored: the server owns it'),
    series: z.unknown().optional().describe('Ignored: a visit joins a series only when the series is booked'),
    ...serverOwnedFields,
  })
  .strict()
  .refine((raw) => !raw.outside_hours || Boolean(raw.outside_hours_reason), {
    message: OUTSIDE_HOURS_REASON_REQUIRED,
    path: ['outside_hours_reason'],
  })
  .transform((raw) => ({
    patient: raw.patient,
    phone: raw.phone,
    patientId: raw.patient_id ?? null,
    date: raw.date,
    time: raw.time,
    dentistId: raw.dentist_id,
    treatment: raw.treatment,
    notes: raw.notes,
    status: raw.status,
    duration: raw.duration ?? null,
    outsideHours: raw.outside_hours === true,
    outsideHoursReason: raw.outside_hours ? raw.outside_hours_reason : null,
    waitlistEntryId: raw.waitlist_entry_id ?? null,
    chairId: raw.chair_id ?? null,
  }));
export type AppointmentWriteRequest = z.input<typeof appointmentWriteSchema>;
export type AppointmentWrite = z.output<typeof appointmentWriteSchema>;

/** PATCH /api/appointments/:id/status. */
export const appointmentStatusSchema = z.object({ status: statusField }).strict();
export type AppointmentStatusRequest = z.infer<typeof appointmentStatusSchema>;

/** The orders whose pages can start at a cursor (`after`, the previous page's `next_cursor`). */
export const APPOINTMENT_SEEKING_SORTS: ReadonlySet<string> = new Set<AppointmentSort>(['date', '-date']);

/**
 * GET /api/appointments: `search` matches the patient (name, phone, e-mail), the dentist's name or
 * the treatment; filters `status`, `dentist_id`, `patient_id`, an exact `date` or a `from`/`to` range.
 */
export const appointmentListQuerySchema = listQuerySchema
  .extend({
    status: statusField.optional(),
    dentist_id: queryId('dentist_id'),
    patient_id: queryId('patient_id'),
    date: dateString.optional(),
    from: dateString.optional(),
    to: dateString.optional(),
    sort: sortField(APPOINTMENT_SORTS),
    after: dateCursorField.optional(),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    message: DATE_RANGE_MESSAGE,
    path: ['to'],
  })
  .refine(...afterOnlyWhenSeeking('date', APPOINTMENT_SEEKING_SORTS));
export type AppointmentListQuery = z.infer<typeof appointmentListQuerySchema>;

export const appointmentPageSchema = pageSchema(appointmentSchema);
export type AppointmentPage = z.infer<typeof appointmentPageSchema>;

/** GET /api/appointments/overlapping: visits kept overlapping from before overlaps were refused. */
export const overlappingQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int('limit is a whole number')
    .min(1, 'limit is at least 1')
    .max(500, 'limit is at most 500')
    .default(100),
});
export const overlappingAppointmentsSchema = z.object({
  data: z.array(appointmentSchema),
  total: z.number().int(),
});
export type OverlappingAppointments = z.infer<typeof overlappingAppointmentsSchema>;
