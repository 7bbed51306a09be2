import { endTimeOf, type OutboxKind, type PracticeSettings, timeRange } from '@dental/shared/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client';
import { appointments, outbox } from '../../db/schema';

/**
 * Queues the clinic's reminders and alerts in the transaction of the change that causes them, so a
 * message exists exactly when its cause committed. The sender (outboxSender) delivers them. Here: how
 * one message is written, the reminder channels, and pending reminders following their settings;
 * automaticMessages queues what a change of the clinic's records causes, patientMessages what staff
 * send a patient.
 */

export type Tx = Transaction;

export const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? name;

/** 'Tuesday 8 December 2026 at 10:00–11:30': the day and the visit's time from start to end. */
export function whenText(date: string, time: string, duration: number): string {
  const [year = 1970, month = 1, day = 1] = date.split('-').map(Number);
  const label = new Intl.DateTimeFormat('en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(year, month - 1, day)));
  return `${label} at ${timeRange(time, endTimeOf(time, duration))}`;
}

export interface NewMessage {
  clinicId: number;
  kind: OutboxKind;
  channel: 'email' | 'sms';
  appointmentId?: number | null;
  patientId?: number | null;
  recipient: string | null;
  subject: string | null;
  body: string;
  visitAt?: Date | null;
  dueAt: Date;
  /** Why it will not be sent (no address): kept as skipped, never lost silently. */
  missing: string;
}

export async function insertMessage(tx: Tx, message: NewMessage): Promise<void> {
  await tx.insert(outbox).values({
    clinicId: message.clinicId,
    kind: message.kind,
    channel: message.channel,
    appointmentId: message.appointmentId ?? null,
    patientId: message.patientId ?? null,
    recipient: message.recipient ?? '',
    subject: message.subject,
    body: message.body,
    visitAt: message.visitAt ?? null,
    dueAt: message.dueAt,
    nextAttemptAt: message.dueAt,
    ...(message.recipient ? {} : { state: 'skipped', reason: message.missing }),
  });
}

export const REMINDERS = [
  {
    kind: 'email_reminder',
    channel: 'email',
    flag: 'emailReminders',
    missing: 'the patient has no e-mail address',
  },
  { kind: 'sms_reminder', channel: 'sms', flag: 'smsReminders', missing: 'the patient has no phone number' },
] as const;

export const REMINDER_FLAGS = REMINDERS.map(({ kind, flag }) => ({ kind, flag }));
export const REMINDER_KINDS: readonly OutboxKind[] = REMINDERS.map(({ kind }) => kind);
/** Why a message was not sent when its flag is off; a flag turned on again looks past these. */
export const flagOffReason = (flag: string) => `${flag} is off`;

/**
 * The clinic's reminder settings changed (in the transaction that saves them): pending reminders
 * follow a new lead time or zone at once, and a flag turned off skips its pending ones. A flag turned
 * on is caught up by the sender, visit by visit as each comes within its lead time.
 */
export async function followReminderSettings(
  tx: Tx,
  clinicId: number,
  before: PracticeSettings,
  after: PracticeSettings,
): Promise<void> {
  for (const { kind, flag } of REMINDERS) {
    if (before.notifications[flag] && !after.notifications[flag]) {
      await tx
        .update(outbox)
        .set({ state: 'skipped', reason: flagOffReason(flag), updatedAt: new Date() })
        .where(and(eq(outbox.clinicId, clinicId), eq(outbox.kind, kind), eq(outbox.state, 'pending')));
    }
  }
  if (before.reminderLeadHours === after.reminderLeadHours && before.timeZone === after.timeZone) return;
  // A try waiting out its back-off keeps its time; the others are due the new lead time before the visit.
  const visitAt = sql`(a.date + a.time::time) at time zone ${after.timeZone}`;
  const dueAt = sql`greatest(${visitAt} - make_interval(hours => ${after.reminderLeadHours}), now())`;
  await tx.execute(sql`
    update ${outbox} o
       set visit_at = ${visitAt},
           due_at = ${dueAt},
           next_attempt_at = case when o.attempts = 0 then ${dueAt} else o.next_attempt_at end,
           updated_at = now()
      from ${appointments} a
     where o.clinic_id = ${clinicId} and o.state = 'pending'
       and o.kind in (${sql.join(
         REMINDERS.map(({ kind }) => sql`${kind}`),
         sql`, `,
       )})
       and a.clinic_id = o.clinic_id and a.id = o.appointment_id`);
}
