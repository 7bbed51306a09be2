import { z } from 'zod';
import { listQuerySchema, pageSchema } from './validation';

/**
 * The outbox (Settings, Notifications): every reminder and alert the clinic's flags ask for, kept
 * with what became of it.
 */
export const OUTBOX_KINDS = [
  'email_reminder',
  'sms_reminder',
  'appointment_confirmation',
  'new_patient_alert',
  'recall_reminder',
  'waitlist_offer',
  'online_code',
  'online_confirmation',
] as const;
export type OutboxKind = (typeof OUTBOX_KINDS)[number];

export const OUTBOX_KIND_LABELS: Record<OutboxKind, string> = {
  email_reminder: 'E-mail reminder',
  sms_reminder: 'SMS reminder',
  appointment_confirmation: 'Appointment confirmation',
  new_patient_alert: 'New patient alert',
  recall_reminder: 'Recall reminder',
  waitlist_offer: 'Waitlist: time opened',
  online_code: 'Online booking: code',
  online_confirmation: 'Online booking: booked',
};

export const OUTBOX_STATES = ['pending', 'sent', 'failed', 'skipped'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

/** A message is tried this many times, with growing pauses, before it is failed. */
export const OUTBOX_MAX_ATTEMPTS = 5;
/** The admin's outbox shows the messages of these last days. */
export const OUTBOX_SHOWN_DAYS = 14;

export const wireOutboxMessageSchema = z.object({
  id: z.number().int(),
  kind: z.enum(OUTBOX_KINDS),
  channel: z.enum(['email', 'sms']),
  recipient: z.string(),
  subject: z.string().nullable(),
  body: z.string(),
  appointment_id: z.number().int().nullable(),
  patient_id: z.number().int().nullable(),
  due_at: z.string(),
  state: z.enum(OUTBOX_STATES),
  reason: z.string().nullable(),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  sent_at: z.string().nullable(),
  created_at: z.string(),
});
export type WireOutboxMessage = z.infer<typeof wireOutboxMessageSchema>;

export const outboxListQuerySchema = listQuerySchema.pick({ page: true, limit: true }).extend({
  state: z.enum(OUTBOX_STATES, { message: `state must be one of ${OUTBOX_STATES.join(', ')}` }).optional(),
});
export type OutboxListQuery = z.infer<typeof outboxListQuerySchema>;

export const outboxPageSchema = pageSchema(wireOutboxMessageSchema);
export type OutboxPage = z.infer<typeof outboxPageSchema>;
