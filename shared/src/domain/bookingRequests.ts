import { z } from 'zod';
import { listQuerySchema, pageSchema } from './validation';

/**
 * What reaches the desk from the booking page (docs/product.md, Online booking, Requests): a visit
 * whose patient could not be matched, a patient asking to be called, and a time a patient freed by
 * cancelling or moving a visit; each is closed by an action.
 */
export const BOOKING_REQUESTS_URL = '/api/booking-requests';
export const BOOKING_REQUEST_KINDS = ['unmatched', 'call_back', 'freed'] as const;
export type BookingRequestKind = (typeof BOOKING_REQUEST_KINDS)[number];
export const BOOKING_REQUEST_STATES = ['open', 'closed'] as const;
/**
 * How a request was closed: linked to an existing patient, kept as a new patient, called back, or
 * (a time freed online) done with, whether the desk filled it from the waitlist or let it be.
 */
export const BOOKING_REQUEST_ENDINGS = ['linked', 'new_patient', 'called_back', 'done'] as const;

export const BOOKING_REQUEST_KIND_LABELS: Record<BookingRequestKind, string> = {
  unmatched: 'Booked online, patient not matched',
  call_back: 'Please call',
  freed: 'Freed online: a time to fill',
};

export const bookingRequestSchema = z.object({
  id: z.number().int(),
  kind: z.enum(BOOKING_REQUEST_KINDS),
  state: z.enum(BOOKING_REQUEST_STATES),
  closed_how: z.enum(BOOKING_REQUEST_ENDINGS).nullable(),
  created_at: z.string(),
  closed_at: z.string().nullable(),
  /** What the patient gave on the page (and, for a call, what they wanted to do). */
  contact: z.object({
    name: z.string(),
    phone: z.string(),
    email: z.string().nullable(),
    date_of_birth: z.string().nullable().optional(),
    wanted: z.string().optional(),
  }),
  /** The visit it is about, as it is now. */
  appointment: z
    .object({
      id: z.number().int(),
      date: z.string(),
      time: z.string(),
      treatment: z.string(),
      dentist_id: z.number().int(),
      dentist_name: z.string(),
      duration: z.number().int(),
      status: z.string(),
    })
    .nullable(),
  /**
   * For a time freed online: the time the visit left (its dentist, day, start and length), as it was
   * when cancelled or moved; the visit itself may be elsewhere now.
   */
  freed: z
    .object({
      dentist_id: z.number().int(),
      dentist_name: z.string().nullable(),
      date: z.string(),
      time: z.string(),
      duration: z.number().int(),
    })
    .nullable(),
  /** The patient the visit is booked for now. */
  patient_id: z.number().int().nullable(),
  /** For an unmatched visit: the clinic's records that share its e-mail or phone, to link it to. */
  candidates: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      phone: z.string(),
      date_of_birth: z.string().nullable(),
    }),
  ),
});
export type BookingRequest = z.infer<typeof bookingRequestSchema>;

export const bookingRequestsQuerySchema = listQuerySchema
  .pick({ page: true, limit: true })
  .extend({ state: z.enum(BOOKING_REQUEST_STATES, { message: 'state is open or closed' }).default('open') });
export type BookingRequestsQuery = z.input<typeof bookingRequestsQuerySchema>;
export const bookingRequestsPageSchema = pageSchema(bookingRequestSchema);
export type BookingRequestsPage = z.infer<typeof bookingRequestsPageSchema>;

export const linkPatientBodySchema = z
  .object({ patient_id: z.number({ message: 'Choose the patient' }).int().positive().max(2147483647) })
  .strict();

export const BOOKING_REQUEST_NOT_FOUND = 'Request not found';
export const BOOKING_REQUEST_CLOSED = 'This request is already closed';
export const NOT_A_CANDIDATE = "Choose one of the patients who share the request's e-mail or phone";
export const REQUEST_KIND_MISMATCH = 'This action does not fit this request';
