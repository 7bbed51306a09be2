import type { PracticeSettings } from '@dental/shared/domain';
import { and, eq, inArray, isNull, ne, or } from 'drizzle-orm';
import { clinicTimeZone, zonedInstant } from '../../db/clinicTime';
import { appointments, clinics, dentists, outbox, patients } from '../../db/schema';
import { readSettings } from '../settings/settingsData';
import { firstName, flagOffReason, insertMessage, REMINDERS, type Tx, whenText } from './outboxMessages';

/**
 * What a change of the clinic's records queues by itself, in the change's transaction: a visit's
 * reminders and confirmation, and a new patient's alert to the clinic (docs/product.md, Reminders).
 */

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
