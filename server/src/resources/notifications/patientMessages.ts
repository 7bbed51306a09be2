import type { OutboxKind, PracticeSettings } from '@dental/shared/domain';
import { Conflict } from '../../domain/errors';
import { readSettings } from '../settings/settingsData';
import { firstName, insertMessage, REMINDERS, type Tx, whenText } from './outboxMessages';

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
  if (channels.length === 0) throw new Conflict(refusal);
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

/**
 * A message of online booking to the e-mail or phone the patient gave (its code, the visit booked),
 * due at once and sent whatever the clinic's reminder switches say: the patient is waiting for it.
 */
export async function queueOnlineMessage(
  tx: Tx,
  clinicId: number,
  message: {
    kind: 'online_code' | 'online_confirmation';
    channel: 'email' | 'sms';
    to: string;
    patientId?: number | null;
    appointmentId?: number | null;
    subject: string | null;
    body: string;
  },
): Promise<void> {
  await insertMessage(tx, {
    clinicId,
    kind: message.kind,
    channel: message.channel,
    patientId: message.patientId ?? null,
    appointmentId: message.appointmentId ?? null,
    recipient: message.to,
    subject: message.subject,
    body: message.body,
    dueAt: new Date(),
    missing: message.channel === 'email' ? 'no e-mail address was given' : 'no phone number was given',
  });
}
