import { endTimeOf, type OutboxKind, type PracticeSettings, timeRange } from '@dental/shared/domain';
import { and, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client';
import { clinicTimeZone, zonedInstant } from '../../db/clinicTime';
import { appointments, clinics, dentists, outbox, patients } from '../../db/schema';
import { HttpError } from '../../plugins/errors';
import { readSettings } from '../settings/settingsData';

/**
 * Queues the clinic's reminders and alerts in the transaction of the change that causes them, so a
 * message exists exactly when its cause committed. The sender (outboxSender) delivers them.
 */

type Tx = Transaction;

const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? name;

/** 'Tuesday 8 December 2026 at 10:00–11:30': the day and the visit's time from start to end. */
function whenText(date: string, time: string, duration: number): string {
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

interface VisitFacts {
  clinic: string;
  clinicPhone: string;
  patient: string;
  date: string;
  time: string;
  duration: number;
  dentist: string;
}

/** Plain texts: who, when, with whom, and how to reach the clinic; never a treatment or a note. */
function reminderText(visit: VisitFacts): { subject: string; body: string } {
  const call = visit.clinicPhone ? ` To change it, call us on ${visit.clinicPhone}.` : '';
  return {
    subject: `Reminder: your visit to ${visit.clinic}`,
    body: `Hello ${firstName(visit.patient)}, this is a reminder of your visit to ${visit.clinic} on ${whenText(visit.date, visit.time, visit.duration)} with ${visit.dentist}.${call}`,
  };
}

function confirmationText(visit: VisitFacts): { subject: string; body: string } {
  const call = visit.clinicPhone ? ` To change it, call us on ${visit.clinicPhone}.` : '';
  return {
    subject: `Your visit to ${visit.clinic} is confirmed`,
    body: `Hello ${firstName(visit.patient)}, your visit to ${visit.clinic} on ${whenText(visit.date, visit.time, visit.duration)} with ${visit.dentist} is confirmed.${call}`,
  };
}

async function visitOf(tx: Tx, clinicId: number, appointmentId: number) {
  const [row] = await tx
    .select({
      id: appointments.id,
      date: appointments.date,
      time: appointments.time,
      duration: appointments.duration,
      status: appointments.status,
      patientId: appointments.patientId,
      patient: patients.name,
      email: patients.email,
      phone: patients.phone,
      dentist: dentists.name,
      clinic: clinics.name,
    })
    .from(appointments)
    .innerJoin(
      patients,
      and(eq(patients.clinicId, appointments.clinicId), eq(patients.id, appointments.patientId)),
    )
    .innerJoin(
      dentists,
      and(eq(dentists.clinicId, appointments.clinicId), eq(dentists.id, appointments.dentistId)),
    )
    .innerJoin(clinics, eq(clinics.id, appointments.clinicId))
    .where(and(eq(appointments.clinicId, clinicId), eq(appointments.id, appointmentId)));
  return row ?? null;
}

function facts(
  visit: NonNullable<Awaited<ReturnType<typeof visitOf>>>,
  settings: PracticeSettings,
): VisitFacts {
  return {
    clinic: settings.practiceName || visit.clinic,
    clinicPhone: settings.phone,
    patient: visit.patient,
    date: visit.date,
    time: visit.time,
    duration: visit.duration,
    dentist: visit.dentist,
  };
}

interface NewMessage {
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

async function insertMessage(tx: Tx, message: NewMessage): Promise<void> {
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

const REMINDERS = [
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
 * Brings an appointment's reminders in line with it, after any change: a live visit to come has one
 * pending reminder per flag that is on, due the lead time before it (or at once when that has passed),
 * with today's text; a cancelled or past visit, or a flag turned off, leaves none pending. A reminder
 * already sent for the visit's time is not sent again.
 */
export async function syncAppointmentReminders(
  tx: Tx,
  clinicId: number,
  appointmentId: number,
): Promise<void> {
  const visit = await visitOf(tx, clinicId, appointmentId);
  const pending = await tx
    .select({ id: outbox.id, kind: outbox.kind, visitAt: outbox.visitAt })
    .from(outbox)
    .where(
      and(
        eq(outbox.clinicId, clinicId),
        eq(outbox.appointmentId, appointmentId),
        eq(outbox.state, 'pending'),
        inArray(
          outbox.kind,
          REMINDERS.map((each) => each.kind),
        ),
      ),
    );
  const skip = async (ids: number[], reason: string) => {
    if (ids.length === 0) return;
    await tx
      .update(outbox)
      .set({ state: 'skipped', reason, updatedAt: new Date() })
      .where(and(eq(outbox.clinicId, clinicId), inArray(outbox.id, ids)));
  };
  if (!visit || visit.status === 'cancelled' || visit.status === 'completed') {
    const reason = !visit
      ? 'the visit was deleted'
      : visit.status === 'completed'
        ? 'the visit is completed'
        : 'the visit was cancelled';
    await skip(
      pending.map((each) => each.id),
      reason,
    );
    return;
  }
  const settings = await readSettings(tx, clinicId);
  const zone = await clinicTimeZone(tx, clinicId);
  const visitAt = zonedInstant(visit.date, visit.time, zone);
  const now = new Date();
  const text = reminderText(facts(visit, settings));
  for (const reminder of REMINDERS) {
    const mineRows = pending.filter((each) => each.kind === reminder.kind);
    const mine = mineRows.map((each) => each.id);
    if (!settings.notifications[reminder.flag]) {
      await skip(mine, flagOffReason(reminder.flag));
      continue;
    }
    if (visitAt <= now) {
      await skip(mine, 'the visit has begun');
      continue;
    }
    const dueAt = new Date(
      Math.max(visitAt.getTime() - settings.reminderLeadHours * 3_600_000, now.getTime()),
    );
    const recipient = reminder.channel === 'email' ? visit.email : visit.phone;
    if (mine.length > 0 && recipient) {
      // Its details changed: the reminder follows. Its times move only with the visit (a new lead
      // time or zone moves them in followReminderSettings), so a try waiting out its back-off waits on.
      const content = {
        recipient,
        subject: reminder.channel === 'email' ? text.subject : null,
        body: text.body,
      };
      const moved = mineRows
        .filter((each) => each.visitAt?.getTime() !== visitAt.getTime())
        .map((each) => each.id);
      const kept = mine.filter((id) => !moved.includes(id));
      if (moved.length > 0)
        await tx
          .update(outbox)
          .set({ ...content, visitAt, dueAt, nextAttemptAt: dueAt, updatedAt: now })
          .where(and(eq(outbox.clinicId, clinicId), inArray(outbox.id, moved)));
      if (kept.length > 0)
        await tx
          .update(outbox)
          .set({ ...content, updatedAt: now })
          .where(and(eq(outbox.clinicId, clinicId), inArray(outbox.id, kept)));
      continue;
    }
    await skip(mine, reminder.missing);
    const [already] = await tx
      .select({ id: outbox.id })
      .from(outbox)
      .where(
        and(
          eq(outbox.clinicId, clinicId),
          eq(outbox.appointmentId, appointmentId),
          eq(outbox.kind, reminder.kind),
          eq(outbox.visitAt, visitAt),
          inArray(outbox.state, ['sent', 'skipped', 'failed']),
          or(isNull(outbox.reason), ne(outbox.reason, flagOffReason(reminder.flag))),
        ),
      )
      .limit(1);
    if (already) continue;
    await insertMessage(tx, {
      clinicId,
      kind: reminder.kind,
      channel: reminder.channel,
      appointmentId,
      patientId: visit.patientId,
      recipient,
      subject: reminder.channel === 'email' ? text.subject : null,
      body: text.body,
      visitAt,
      dueAt,
      missing: reminder.missing,
    });
  }
}

/** A visit just confirmed: an e-mail to the patient, when the clinic's flag says so. */
export async function queueConfirmation(tx: Tx, clinicId: number, appointmentId: number): Promise<void> {
  const settings = await readSettings(tx, clinicId);
  if (!settings.notifications.appointmentConfirmations) return;
  const visit = await visitOf(tx, clinicId, appointmentId);
  if (!visit) return;
  const text = confirmationText(facts(visit, settings));
  await insertMessage(tx, {
    clinicId,
    kind: 'appointment_confirmation',
    channel: 'email',
    appointmentId,
    patientId: visit.patientId,
    recipient: visit.email,
    subject: text.subject,
    body: text.body,
    dueAt: new Date(),
    missing: 'the patient has no e-mail address',
  });
}

/** A patient just added: an e-mail to the clinic's own address, when the clinic's flag says so. */
export async function queueNewPatientAlert(tx: Tx, clinicId: number, patientId: number): Promise<void> {
  const settings = await readSettings(tx, clinicId);
  if (!settings.notifications.newPatientAlerts) return;
  const [patient] = await tx
    .select({ name: patients.name })
    .from(patients)
    .where(and(eq(patients.clinicId, clinicId), eq(patients.id, patientId)));
  if (!patient) return;
  await insertMessage(tx, {
    clinicId,
    kind: 'new_patient_alert',
    channel: 'email',
    patientId,
    recipient: settings.email || null,
    subject: `New patient: ${patient.name}`,
    body: `${patient.name} was added as a patient of ${settings.practiceName}.`,
    dueAt: new Date(),
    missing: 'the clinic has no e-mail address (Settings, General)',
  });
}

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

/** A patient a message is for, with the addresses it can go to ('' or null: none). */
interface Reachable {
  patientId: number;
  email: string | null;
  phone: string | null;
}

/**
 * A message staff send a patient now (a recall reminder, a time that opened): one per reminder
 * channel the clinic has on and the patient has an address for, due at once. Answers the channels
 * queued; none when no channel is possible (nothing is written then).
 */
async function queueToPatient(
  tx: Tx,
  clinicId: number,
  settings: PracticeSettings,
  kind: OutboxKind,
  patient: Reachable,
  text: { subject: string; body: string },
): Promise<Array<'email' | 'sms'>> {
  const addressOf = (channel: 'email' | 'sms') =>
    ((channel === 'email' ? patient.email : patient.phone) ?? '').trim();
  const channels = REMINDERS.filter(
    ({ channel, flag }) => settings.notifications[flag] && addressOf(channel) !== '',
  ).map(({ channel }) => channel);
  for (const channel of channels) {
    await insertMessage(tx, {
      clinicId,
      kind,
      channel,
      patientId: patient.patientId,
      recipient: addressOf(channel),
      subject: channel === 'email' ? text.subject : null,
      body: text.body,
      dueAt: new Date(),
      missing: '',
    });
  }
  return channels;
}

/**
 * The channels a send staff asked for queued. None is refused (409 `refusal`, nothing written): staff
 * must learn that no message went, rather than see a send that reached nobody.
 */
export function requireQueued(channels: Array<'email' | 'sms'>, refusal: string): Array<'email' | 'sms'> {
  if (channels.length === 0) throw new HttpError(409, refusal);
  return channels;
}

/**
 * A patient due for a recall (the recall list's Send reminder): one message per reminder channel the
 * clinic has on and the patient has an address for, due at once. Answers the channels queued; none
 * when no channel is possible (nothing is written then).
 */
export async function queueRecallReminder(
  tx: Tx,
  clinicId: number,
  recall: { patientId: number; patient: string; email: string; phone: string; recallName: string },
  /** The clinic's settings when the caller has them (the automatic reminders queue many at once). */
  known?: PracticeSettings,
): Promise<Array<'email' | 'sms'>> {
  const settings = known ?? (await readSettings(tx, clinicId));
  const call = settings.phone ? ` Call us on ${settings.phone} to book a time.` : ' Call us to book a time.';
  return queueToPatient(tx, clinicId, settings, 'recall_reminder', recall, {
    subject: `Time for your ${recall.recallName.toLowerCase()} at ${settings.practiceName}`,
    body: `Hello ${firstName(recall.patient)}, you are due for your ${recall.recallName.toLowerCase()} at ${settings.practiceName}.${call}`,
  });
}

/**
 * A waitlisted patient told of a time that opened (Fill this time's Tell them): by the reminder
 * channels, as queueToPatient. The text names the day, time and dentist, never the treatment, and asks
 * them to call: the time is theirs only once booked.
 */
export async function queueWaitlistOffer(
  tx: Tx,
  clinicId: number,
  offer: {
    patientId: number;
    patient: string;
    email: string | null;
    phone: string | null;
    date: string;
    time: string;
    duration: number;
    dentist: string;
  },
): Promise<Array<'email' | 'sms'>> {
  const settings = await readSettings(tx, clinicId);
  const call = settings.phone ? `call us on ${settings.phone}` : 'call us';
  return queueToPatient(tx, clinicId, settings, 'waitlist_offer', offer, {
    subject: `A time opened at ${settings.practiceName}`,
    body: `Hello ${firstName(offer.patient)}, a time opened at ${settings.practiceName} on ${whenText(offer.date, offer.time, offer.duration)} with ${offer.dentist}: ${call} to take it.`,
  });
}
