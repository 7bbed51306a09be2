import { z } from 'zod';
import { TREATMENTS } from './constants';
import { dateString, listQuerySchema, pageSchema, requiredText, wholeNumberOf } from './validation';

/**
 * Recall: patients coming back when they are due (the hygiene recall every six months, the yearly
 * checkup). Each clinic keeps its recall types; a patient's due date for a type follows from their
 * last completed visit of its treatment plus its interval, unless staff set it by hand.
 */

/** GET the clinic's recall types (any signed-in staff); POST one (admins). */
export const RECALL_TYPES_URL = '/api/recall-types';
/** GET the recall list (staff with `patients`): who is due or overdue, filtered and paged. */
export const RECALL_URL = '/api/recall';
/** One patient's recall of one type: PATCH it (due date by hand, snooze, off for them, note). */
export const recallUrl = (patientId: number, typeId: number) => `${RECALL_URL}/${patientId}/${typeId}`;
/** GET one patient's recall of each type that is on (staff with `patients`), for their details. */
export const patientRecallUrl = (patientId: number) => `/api/patients/${patientId}/recall`;
/** POST: a reminder through the outbox ("you are due for your …"), by the channels the clinic allows. */
export const recallReminderUrl = (patientId: number, typeId: number) =>
  `${recallUrl(patientId, typeId)}/reminder`;
/** POST `{ note }`: the patient was called. */
export const recallContactUrl = (patientId: number, typeId: number) =>
  `${recallUrl(patientId, typeId)}/contact`;

export const RECALL_INTERVAL_MIN_MONTHS = 1;
export const RECALL_INTERVAL_MAX_MONTHS = 60;

/** What a clinic starts with. */
export const DEFAULT_RECALL_TYPES = [
  { name: 'Hygiene recall', treatment: 'Regular Cleaning', interval_months: 6 },
  { name: 'Checkup', treatment: 'Dental Checkup', interval_months: 12 },
] as const;

export const recallTypeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  treatment: z.enum(TREATMENTS),
  interval_months: z.number().int(),
  active: z.boolean(),
  version: z.number().int(),
});
export type RecallType = z.infer<typeof recallTypeSchema>;
export const recallTypeListSchema = z.object({ data: z.array(recallTypeSchema) });

/** POST and PUT of a recall type: its name, the treatment it books, its interval, and whether it is on. */
export const recallTypeBodySchema = z
  .object({
    name: requiredText(80),
    treatment: z.enum(TREATMENTS, { message: 'Choose one of the treatments' }),
    interval_months: wholeNumberOf('months', RECALL_INTERVAL_MIN_MONTHS, RECALL_INTERVAL_MAX_MONTHS),
    active: z.boolean().optional().default(true),
    version: z.unknown().optional().describe('Ignored: sent in If-Match, not the body'),
  })
  .strict();
export type RecallTypeBody = z.input<typeof recallTypeBodySchema>;

export const RECALL_YES_NO = ['yes', 'no'] as const;

/**
 * GET /api/recall: patients whose recall falls due by `due_by` (default: 30 days from today, in the
 * clinic's time zone), overdue ones included unless `due_from` is given; `type_id`, `dentist_id` (the
 * dentist they last saw for it), `scheduled` (a visit of its treatment is booked) and `contacted`
 * (called or sent a reminder since their last visit); `search` by the patient's name. Soonest due
 * first; a snoozed recall counts from the day it was snoozed to.
 */
export const recallQuerySchema = listQuerySchema
  .pick({ page: true, limit: true, search: true })
  .extend({
    due_by: dateString.optional(),
    due_from: dateString.optional(),
    type_id: z.coerce.number().int().positive('type_id is a recall type id').optional(),
    dentist_id: z.coerce.number().int().positive('dentist_id is a dentist id').optional(),
    scheduled: z.enum(RECALL_YES_NO, { message: 'scheduled is yes or no' }).optional(),
    contacted: z.enum(RECALL_YES_NO, { message: 'contacted is yes or no' }).optional(),
  })
  .strict();
export type RecallQuery = z.input<typeof recallQuerySchema>;

export const RECALL_CONTACT_KINDS = ['call', 'reminder'] as const;
export type RecallContactKind = (typeof RECALL_CONTACT_KINDS)[number];

export const recallRowSchema = z.object({
  patient_id: z.number().int(),
  patient_name: z.string(),
  phone: z.string(),
  email: z.string(),
  type_id: z.number().int(),
  type_name: z.string(),
  treatment: z.enum(TREATMENTS),
  /** The last completed visit of the type's treatment; null when the due date was set by hand only. */
  last_visit: z.string().nullable(),
  last_dentist_id: z.number().int().nullable(),
  last_dentist: z.string().nullable(),
  due_date: z.string(),
  due_set_by_hand: z.boolean(),
  snoozed_until: z.string().nullable(),
  /** The next booked (pending or confirmed) visit of its treatment, from today on: the recall is scheduled. */
  scheduled_on: z.string().nullable(),
  last_contact: z.object({ at: z.string(), kind: z.enum(RECALL_CONTACT_KINDS), note: z.string() }).nullable(),
  /** Off for this patient (they go elsewhere, or asked not to be recalled). */
  active: z.boolean(),
  note: z.string(),
  version: z.number().int(),
});
export type RecallRow = z.infer<typeof recallRowSchema>;
export const recallPageSchema = pageSchema(recallRowSchema);
/** One patient's recalls, by the type's name: on and off for them alike. */
export const patientRecallListSchema = z.object({ data: z.array(recallRowSchema) });

/** PATCH a patient's recall: any of these; the rest stays. */
export const recallUpdateSchema = z
  .object({
    /** Set by hand: the cycle's due date no longer follows the last visit, until the next one. */
    due_date: dateString.optional(),
    /** Out of the list until this day; null ends the snooze. */
    snoozed_until: dateString.nullable().optional(),
    active: z.boolean().optional(),
    note: z.string().trim().max(500, 'At most 500 characters').optional(),
    version: z.unknown().optional().describe('Ignored: sent in If-Match, not the body'),
  })
  .strict();
export type RecallUpdate = z.input<typeof recallUpdateSchema>;

export const recallContactSchema = z
  .object({ note: z.string().trim().max(500, 'At most 500 characters').optional().default('') })
  .strict();

/** The reminder's answer: the recall as it is now and the messages queued (their channels). */
export const recallReminderAnswerSchema = z.object({
  recall: recallRowSchema,
  queued: z.array(z.enum(['email', 'sms'])),
});

export const NO_RECALL_CHANNEL =
  "No reminder can be sent: the clinic's e-mail and SMS reminders are off, or the patient has no address for them.";
