import {
  type AppointmentStatus,
  type AppointmentWrite,
  CHAIR_UNKNOWN,
  canBookOutsideHours,
  canCompleteOn,
  chairOutOfServiceMessage,
  EARLY_COMPLETION_MESSAGE,
  fitsOpenHours,
  minutesOf,
  outsideHoursMessage,
  PAST_BOOKING_MESSAGE,
  type PracticeSettings,
  phoneDigits,
  type Role,
} from '@dental/shared/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { Reader, Transaction } from '../../db/client';
import { clinicToday } from '../../db/clinicTime';
import { appointments, chairs, dentists, patients } from '../../db/schema';
import { Conflict, InvalidValue, NotAllowed, NotFound } from '../../domain/errors';
import { type ExpectedVersion, requireVersion } from '../../plugins/versions';
import { type Actor as ClinicActor, recordActorAudit } from '../actorAudit';
import { lockDays, settleDays } from '../availability/daySettling';
import { type DentistDays, dentistDaysColumns, openHoursOf } from '../availability/openHours';
import { queueNewPatientAlert, syncAppointmentReminders } from '../notifications/automaticMessages';
import { readSettings } from '../settings/settingsData';
import { APPOINTMENT_NOT_FOUND } from './appointmentReads';

/**
 * The rules a booking and an edit of a visit both keep (docs/product.md, Validation rules): an active
 * dentist, a known or new patient, the dentist's open hours, completion from the visit's day on, the
 * version an edit was made from; and the steps each write ends with (its audit record, its days and
 * reminders settled).
 */

export const NO_ACTIVE_DENTIST = 'No active dentist with this id in your clinic';
export const NO_SUCH_PATIENT = 'No patient with this id in your clinic';

/** Who acts, and their role: what they may book outside the dentist's open hours. */
export interface Actor extends ClinicActor {
  role: Role;
}

async function dentistOf(db: Reader, clinicId: number, dentistId: number) {
  const [row] = await db
    .select({ ...dentistDaysColumns, status: dentists.status })
    .from(dentists)
    .where(and(eq(dentists.clinicId, clinicId), eq(dentists.id, dentistId)));
  return row ?? null;
}

/** The visit's dentist as the open-hours rule reads them (a dentist deleted since: no working days). */
export async function dentistDays(db: Reader, clinicId: number, dentistId: number): Promise<DentistDays> {
  return (
    (await dentistOf(db, clinicId, dentistId)) ?? { id: dentistId, name: 'The dentist', workingDays: '' }
  );
}

/** A booking needs an active dentist of the clinic; an edit may keep the one it had. */
export async function requireDentist(tx: Transaction, clinicId: number, dentistId: number, keeping: boolean) {
  const dentist = await dentistOf(tx, clinicId, dentistId);
  if (!dentist || (dentist.status !== 'active' && !keeping))
    throw InvalidValue.of('dentist_id', NO_ACTIVE_DENTIST);
  return dentist;
}

/**
 * A visit asked for a chair: one of the clinic's chairs in use and in service (the database holds
 * the same rule, appointments_hold_time). None asked: null, and the database gives a free one.
 */
export async function requireChair(tx: Transaction, clinicId: number, chairId: number | null): Promise<void> {
  if (chairId === null) return;
  const [chair] = await tx
    .select({ name: chairs.name, inService: chairs.inService, retiredAt: chairs.retiredAt })
    .from(chairs)
    .where(and(eq(chairs.clinicId, clinicId), eq(chairs.id, chairId)));
  if (!chair || chair.retiredAt !== null) throw InvalidValue.of('chair_id', CHAIR_UNKNOWN);
  if (!chair.inService) throw InvalidValue.of('chair_id', chairOutOfServiceMessage(chair.name));
}

/**
 * The patient a booking is for: the one named by `patient_id`, else the clinic's patient with this
 * name (any letter case) and phone (same digits), else a new active patient. The phone's digits
 * are one of the patient's search words (patient_search_terms), which finds the namesakes.
 */
async function resolvePatient(tx: Transaction, clinicId: number, input: AppointmentWrite): Promise<number> {
  if (input.patientId !== null) {
    const [row] = await tx
      .select({ id: patients.id })
      .from(patients)
      .where(and(eq(patients.clinicId, clinicId), eq(patients.id, input.patientId)));
    if (!row) throw InvalidValue.of('patient_id', NO_SUCH_PATIENT);
    return row.id;
  }
  const name = input.patient.toLowerCase();
  const digits = phoneDigits(input.phone);
  const samePhone = digits
    ? sql`${patients.id} in (select patient_id from patient_search_terms
        where clinic_id = ${clinicId} and term = ${digits})`
    : sql`true`;
  const candidates = await tx
    .select({ id: patients.id, phone: patients.phone })
    .from(patients)
    .where(and(eq(patients.clinicId, clinicId), sql`lower(${patients.name}) = ${name}`, samePhone))
    .orderBy(patients.id);
  const known = candidates.find((candidate) => phoneDigits(candidate.phone) === digits);
  if (known) return known.id;
  const [created] = await tx
    .insert(patients)
    .values({ clinicId, name: input.patient, phone: input.phone, status: 'active' })
    .returning({ id: patients.id });
  if (!created) throw new Error('Patient insert returned no row');
  await queueNewPatientAlert(tx, clinicId, created.id);
  return created.id;
}

/** The visit's row, for a write's WHERE. */
export function visitRow(clinicId: number, appointmentId: number) {
  return and(eq(appointments.clinicId, clinicId), eq(appointments.id, appointmentId));
}

interface StoredAppointment {
  id: number;
  patientId: number;
  dentistId: number;
  date: string;
  time: string;
  duration: number;
  treatment: string;
  status: AppointmentStatus;
  outsideHours: boolean;
  outsideHoursReason: string | null;
  chairId: number;
}

/** The visit a write changes, locked to the commit; refused (412) when not at the `expected` version. */
export async function lockAppointment(
  tx: Transaction,
  clinicId: number,
  appointmentId: number,
  expected: ExpectedVersion,
) {
  const [row] = await tx
    .select({
      id: appointments.id,
      version: appointments.version,
      patientId: appointments.patientId,
      dentistId: appointments.dentistId,
      date: appointments.date,
      time: appointments.time,
      duration: appointments.duration,
      treatment: appointments.treatment,
      status: appointments.status,
      outsideHours: appointments.outsideHours,
      outsideHoursReason: appointments.outsideHoursReason,
      chairId: appointments.chairId,
    })
    .from(appointments)
    .where(visitRow(clinicId, appointmentId))
    .for('update');
  if (!row) throw new NotFound(APPOINTMENT_NOT_FOUND);
  requireVersion(row.version, expected);
  return row as StoredAppointment;
}

/** A visit is booked, or moved to another day, only onto the clinic's today or later: else 400 on `date`. */
export async function requireBookableDay(tx: Transaction, clinicId: number, date: string): Promise<void> {
  if (date < (await clinicToday(tx, clinicId))) throw InvalidValue.of('date', PAST_BOOKING_MESSAGE);
}

/** A visit may be marked completed only from its day on (canCompleteOn): else 400 on `status`. */
export async function requireCompletable(tx: Transaction, clinicId: number, date: string): Promise<void> {
  if (!canCompleteOn(date, await clinicToday(tx, clinicId)))
    throw InvalidValue.of('status', EARLY_COMPLETION_MESSAGE);
}

/** The audit record of a write to one visit, by the actor. */
export function auditVisit(
  tx: Transaction,
  actor: Actor,
  action: string,
  appointmentId: number,
  details: Record<string, unknown>,
): Promise<void> {
  return recordActorAudit(tx, actor, {
    action,
    entity: 'appointment',
    entityId: appointmentId,
    details,
  });
}

/** After a visit's span or status changed: its days' open-hours state and its reminders follow. */
export async function settleVisit(
  tx: Transaction,
  clinicId: number,
  appointmentId: number,
  days: readonly { dentistId: number; date: string }[],
): Promise<void> {
  await settleDays(tx, clinicId, days);
  await syncAppointmentReminders(tx, clinicId, appointmentId);
}

/** The clinic's settings, read at most once in a write, and only if the write needs them. */
export function settingsOnce(tx: Transaction, clinicId: number): () => Promise<PracticeSettings> {
  let read: Promise<PracticeSettings> | undefined;
  return () => {
    read ??= readSettings(tx, clinicId);
    return read;
  };
}

/** The visit's length: as sent, else its treatment's from Settings. */
export async function durationOf(
  input: AppointmentWrite,
  settings: () => Promise<PracticeSettings>,
): Promise<number> {
  return input.duration ?? (await settings()).treatmentMinutes[input.treatment];
}

/**
 * Refuses (409) a visit outside its dentist's open hours that day (openHoursOf), unless an admin or
 * receptionist books it as outside hours with a reason (`override`; a dentist may not). Locks the
 * days the write touches first (lockDays). Answers whether the visit lies outside the hours.
 */
export async function requireOpenTime(
  tx: Transaction,
  actor: Actor,
  touched: readonly { dentistId: number; date: string }[],
  dentist: DentistDays,
  visit: { date: string; time: string; duration: number },
  override: boolean,
  settings: () => Promise<PracticeSettings>,
): Promise<boolean> {
  await lockDays(tx, actor.clinicId, [...touched, { dentistId: dentist.id, date: visit.date }]);
  const open = await openHoursOf(tx, actor.clinicId, dentist, visit.date, await settings());
  const start = minutesOf(visit.time);
  const span = { start, end: start + visit.duration };
  if (fitsOpenHours(span, open.spans)) return false;
  if (override) {
    if (!canBookOutsideHours(actor.role)) {
      throw new NotAllowed('Only an admin or a receptionist may book outside open hours');
    }
    return true;
  }
  const message = outsideHoursMessage(dentist.name, visit.date, open, span);
  throw new Conflict(message, [{ field: open.spans.length ? 'time' : 'date', message }]);
}

/**
 * The columns a booking and an edit both take from the form, with the visit's length and its patient
 * (resolvePatient: found, or added).
 */
export async function visitOfForm(
  tx: Transaction,
  clinicId: number,
  input: AppointmentWrite,
  duration: number,
) {
  return {
    patientId: await resolvePatient(tx, clinicId, input),
    dentistId: input.dentistId,
    date: input.date,
    time: input.time,
    duration,
    treatment: input.treatment,
    notes: input.notes,
  };
}
