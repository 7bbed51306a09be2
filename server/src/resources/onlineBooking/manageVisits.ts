import {
  addMinutesToClinicTime,
  cutoffMessage,
  MANAGE_LINK_UNKNOWN,
  ONLINE_TIME_TAKEN,
  type PracticeSettings,
  type PublicManagedVisit,
  type Treatment,
  visitEndedMessage,
  visitTypeIdOf,
} from '@dental/shared/domain';
import { and, eq, sql } from 'drizzle-orm';
import { hashSecretToken } from '../../auth/secretTokens';
import { recordAudit } from '../../db/auditLog';
import type { Database, Transaction } from '../../db/client';
import { clinicNow } from '../../db/clinicTime';
import { EXCLUSION_VIOLATION, violated } from '../../db/databaseErrors';
import { appointments, bookingRequests, dentists, patients } from '../../db/schema';
import { Conflict, InvalidValue, NotFound } from '../../domain/errors';
import { settleVisit } from '../appointments/bookingRules';
import { moduleOn } from '../modules/moduleSwitches';
import { readSettings } from '../settings/settingsData';
import { takeDayTurn } from './holds';
import { onlineSlots } from './publicClinics';

/** The visit behind a manage link, locked for the change; unknown links are refused alike. */
async function visitOfLink(tx: Transaction, token: string) {
  const [visit] = await tx
    .select({
      clinicId: appointments.clinicId,
      id: appointments.id,
      patientId: appointments.patientId,
      patientName: appointments.patientName,
      dentistId: appointments.dentistId,
      date: appointments.date,
      time: appointments.time,
      duration: appointments.duration,
      endTime: appointments.endTime,
      treatment: appointments.treatment,
      status: appointments.status,
      confirmedBy: appointments.confirmedBy,
    })
    .from(appointments)
    .where(eq(appointments.manageTokenHash, hashSecretToken(token)))
    .for('update');
  // A clinic that switched its booking module off has no patients' pages: its links answer like unknown ones.
  if (!visit || !(await moduleOn(tx, visit.clinicId, 'booking'))) throw new NotFound(MANAGE_LINK_UNKNOWN);
  return visit;
}
type LinkedVisit = Awaited<ReturnType<typeof visitOfLink>>;

/** Whether the visit starts later than the clinic's cut-off from now: before it, the patient may move or cancel online. */
async function beforeCutoff(tx: Transaction, visit: LinkedVisit, cutoffHours: number): Promise<boolean> {
  const limit = addMinutesToClinicTime(await clinicNow(tx, visit.clinicId), cutoffHours * 60);
  return visit.date > limit.date || (visit.date === limit.date && visit.time >= limit.time);
}

const audit = (tx: Transaction, visit: LinkedVisit, action: string, details: Record<string, unknown>) =>
  recordAudit(tx, {
    clinicId: visit.clinicId,
    userId: null,
    action,
    entity: 'appointment',
    entityId: visit.id,
    details: { patient: visit.patientName, ...details, by: 'patient online' },
  });

/** What the manage page shows: the first name, the visit and the clinic, and what the patient may still do. */
export async function managedVisit(db: Database, token: string): Promise<PublicManagedVisit> {
  return db.transaction(async (tx) => {
    const visit = await visitOfLink(tx, token);
    const settings = await readSettings(tx, visit.clinicId);
    const [dentist] = await tx
      .select({ name: dentists.name })
      .from(dentists)
      .where(and(eq(dentists.clinicId, visit.clinicId), eq(dentists.id, visit.dentistId)));
    const live = visit.status === 'pending' || visit.status === 'confirmed';
    const changeable = live && (await beforeCutoff(tx, visit, settings.onlineBooking.cutoffHours));
    return {
      first_name: visit.patientName.trim().split(/\s+/)[0] ?? '',
      clinic: {
        name: settings.practiceName,
        address: settings.address,
        phone: settings.phone,
        slug: settings.slug,
        timeZone: settings.timeZone,
      },
      appointment: {
        date: visit.date,
        time: visit.time,
        end_time: visit.endTime ?? visit.time,
        dentist_name: dentist?.name ?? '',
        treatment: visit.treatment,
        status: visit.status,
        visit_type_id: visitTypeIdOf(visit.treatment as Treatment),
        dentist_id: visit.dentistId,
      },
      cutoff_hours: settings.onlineBooking.cutoffHours,
      can_confirm: visit.status === 'pending',
      can_change: changeable,
    };
  });
}

/** The patient confirms: pending becomes confirmed, by the patient; confirming again changes nothing. */
export async function confirmByPatient(db: Database, token: string): Promise<PublicManagedVisit> {
  await db.transaction(async (tx) => {
    const visit = await visitOfLink(tx, token);
    if (visit.status === 'confirmed') return;
    if (visit.status !== 'pending') throw new Conflict(visitEndedMessage(visit.status));
    await tx
      .update(appointments)
      .set({
        status: 'confirmed',
        confirmedBy: 'patient',
        sequence: sql`${appointments.sequence} + 1`,
        updatedAt: new Date(),
      })
      .where(and(eq(appointments.clinicId, visit.clinicId), eq(appointments.id, visit.id)));
    await settleVisit(tx, visit.clinicId, visit.id, [visit]);
    await audit(tx, visit, 'status_change', {
      status: 'confirmed',
      from: 'pending',
      date: visit.date,
      time: visit.time,
    });
  });
  return managedVisit(db, token);
}

/** How the desk reaches the visit's patient, for a request about it. */
async function contactOf(tx: Transaction, visit: LinkedVisit) {
  const [patient] = await tx
    .select({ name: patients.name, phone: patients.phone, email: patients.email })
    .from(patients)
    .where(and(eq(patients.clinicId, visit.clinicId), eq(patients.id, visit.patientId)));
  return patient;
}

/**
 * Inside the cut-off the patient cannot change the visit online: the desk is asked to call them
 * (a request), and the refusal names the clinic's phone.
 */
async function refuseInsideCutoff(
  tx: Transaction,
  visit: LinkedVisit,
  wanted: string,
  settings: PracticeSettings,
): Promise<Conflict> {
  const patient = await contactOf(tx, visit);
  // One open request to call a visit's patient is enough, however often they ask.
  const open = await tx.$count(
    bookingRequests,
    and(
      eq(bookingRequests.clinicId, visit.clinicId),
      eq(bookingRequests.appointmentId, visit.id),
      eq(bookingRequests.kind, 'call_back'),
      eq(bookingRequests.state, 'open'),
    ),
  );
  if (open === 0)
    await tx.insert(bookingRequests).values({
      clinicId: visit.clinicId,
      kind: 'call_back',
      appointmentId: visit.id,
      patientId: visit.patientId,
      contact: { ...patient, wanted },
    });
  await audit(tx, visit, 'call_back_requested', { wanted, date: visit.date, time: visit.time });
  return new Conflict(cutoffMessage(settings.onlineBooking.cutoffHours, settings.phone));
}

/**
 * Runs a change the cut-off allows. Inside it, the refusal is answered after the request to call
 * has been saved, so the desk hears of it even though the change is refused.
 */
async function beforeCutoffOnly(
  db: Database,
  token: string,
  wanted: string,
  change: (tx: Transaction, visit: LinkedVisit, settings: PracticeSettings) => Promise<void>,
): Promise<void> {
  const refusal = await db.transaction(async (tx) => {
    const visit = await visitOfLink(tx, token);
    if (visit.status !== 'pending' && visit.status !== 'confirmed')
      throw new Conflict(visitEndedMessage(visit.status));
    const settings = await readSettings(tx, visit.clinicId);
    if (!(await beforeCutoff(tx, visit, settings.onlineBooking.cutoffHours))) {
      return refuseInsideCutoff(tx, visit, wanted, settings);
    }
    await change(tx, visit, settings);
    return null;
  });
  if (refusal) throw refusal;
}

/**
 * The time a visit cancelled or moved online leaves is free at once; the desk is told, to offer it to
 * the waitlist (Fill this time). The request keeps the time itself: a moved visit is elsewhere now.
 */
async function leaveTimeToDesk(tx: Transaction, visit: LinkedVisit, wanted: string): Promise<void> {
  const patient = await contactOf(tx, visit);
  await tx.insert(bookingRequests).values({
    clinicId: visit.clinicId,
    kind: 'freed',
    appointmentId: visit.id,
    patientId: visit.patientId,
    contact: { ...patient, wanted },
    freed: { dentist_id: visit.dentistId, date: visit.date, time: visit.time, duration: visit.duration },
  });
}

/** The patient cancels before the cut-off: the time is free at once (the desk may offer it to the waitlist). */
export async function cancelByPatient(db: Database, token: string): Promise<PublicManagedVisit> {
  await beforeCutoffOnly(db, token, 'cancel', async (tx, visit) => {
    await tx
      .update(appointments)
      .set({
        status: 'cancelled',
        confirmedBy: null,
        sequence: sql`${appointments.sequence} + 1`,
        updatedAt: new Date(),
      })
      .where(and(eq(appointments.clinicId, visit.clinicId), eq(appointments.id, visit.id)));
    await settleVisit(tx, visit.clinicId, visit.id, [visit]);
    await audit(tx, visit, 'status_change', {
      status: 'cancelled',
      from: visit.status,
      date: visit.date,
      time: visit.time,
    });
    await leaveTimeToDesk(tx, visit, 'cancel');
  });
  return managedVisit(db, token);
}

/**
 * The patient moves the visit before the cut-off to another of the page's free times with the same
 * dentist (its own time counting as free); it is pending again until confirmed, and the time it
 * leaves goes to the desk as a cancelled one's does.
 */
export async function moveByPatient(
  db: Database,
  token: string,
  to: { date: string; time: string },
): Promise<PublicManagedVisit> {
  try {
    await beforeCutoffOnly(db, token, `move to ${to.date} ${to.time}`, async (tx, visit, settings) => {
      const treatment = settings.onlineBooking.visitTypes.find((type) => type.treatment === visit.treatment);
      const clinic = { clinicId: visit.clinicId, settings };
      await takeDayTurn(tx, visit.clinicId, to.date);
      const slots = treatment
        ? await onlineSlots(tx, clinic, {
            treatment: treatment.treatment,
            date: to.date,
            dentistId: visit.dentistId,
            exceptId: visit.id,
          })
        : [];
      const slot = slots.find((free) => free.time === to.time);
      if (!slot) throw InvalidValue.of('time', ONLINE_TIME_TAKEN);
      await tx
        .update(appointments)
        .set({
          date: to.date,
          time: to.time,
          chairId: slot.chair_id,
          status: 'pending',
          confirmedBy: null,
          sequence: sql`${appointments.sequence} + 1`,
          updatedAt: new Date(),
        })
        .where(and(eq(appointments.clinicId, visit.clinicId), eq(appointments.id, visit.id)));
      await settleVisit(tx, visit.clinicId, visit.id, [visit, { dentistId: visit.dentistId, date: to.date }]);
      await audit(tx, visit, 'update', { date: to.date, time: to.time, from: `${visit.date} ${visit.time}` });
      await leaveTimeToDesk(tx, visit, `move to ${to.date} ${to.time}`);
    });
  } catch (error) {
    if (violated(error, [EXCLUSION_VIOLATION], '')) throw new Conflict(ONLINE_TIME_TAKEN);
    throw error;
  }
  return managedVisit(db, token);
}
