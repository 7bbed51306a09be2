import type { Appointment, AppointmentStatus, AppointmentWrite } from '@dental/shared/domain';
import { sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client';
import { appointments } from '../../db/schema';
import type { ExpectedVersion } from '../../plugins/versions';
import { lockDays } from '../availability/daySettling';
import { queueConfirmation } from '../notifications/automaticMessages';
import { findAppointment } from './appointmentReads';
import {
  type Actor,
  auditVisit,
  dentistDays,
  durationOf,
  lockAppointment,
  requireBookableDay,
  requireChair,
  requireCompletable,
  requireDentist,
  requireOpenTime,
  settingsOnce,
  settleVisit,
  visitOfForm,
  visitRow,
} from './bookingRules';
import { bookingWrite, type Placement } from './visitOverlaps';

/**
 * Changes to a visit on record: an edit, a status change, a delete, each at the version the desk
 * last read (docs/product.md, Statuses and how they change).
 */

/** A change of one visit made in a transaction of its own, under the booking's locks (bookingWrite). */
function ownWrite<Change>(
  change: (
    tx: Transaction,
    actor: Actor,
    appointmentId: number,
    value: Change,
    expected: ExpectedVersion,
    place: (wanted: Placement) => void,
  ) => Promise<Appointment>,
) {
  return (
    db: Database,
    actor: Actor,
    appointmentId: number,
    value: Change,
    expected: ExpectedVersion = null,
  ): Promise<Appointment> =>
    bookingWrite(db, actor.clinicId, appointmentId, (tx, place) =>
      change(tx, actor, appointmentId, value, expected, place),
    );
}

/** Edits a visit: PUT /api/appointments/:id. */
export const updateAppointment = ownWrite(editVisit);

/**
 * Edits one visit inside the write's transaction `tx` under every rule of an edit (its version,
 * the day, the open hours, the overlaps, its audit record, reminders and confirmation). "This and
 * the following" of a series edits each of its visits through here.
 */
export async function editVisit(
  tx: Transaction,
  actor: Actor,
  appointmentId: number,
  input: AppointmentWrite,
  expected: ExpectedVersion,
  place: (wanted: Placement) => void,
): Promise<Appointment> {
  const { clinicId } = actor;
  const current = await lockAppointment(tx, clinicId, appointmentId, expected);
  const movedDay = input.date !== current.date;
  if (movedDay) await requireBookableDay(tx, clinicId, input.date);
  const dentist = await requireDentist(tx, clinicId, input.dentistId, input.dentistId === current.dentistId);
  const status = input.status ?? current.status;
  const settings = settingsOnce(tx, clinicId);
  const duration =
    input.duration ??
    (input.treatment === current.treatment ? current.duration : await durationOf(input, settings));
  const moved =
    movedDay ||
    input.time !== current.time ||
    duration !== current.duration ||
    input.dentistId !== current.dentistId ||
    current.status === 'cancelled';
  // A visit keeps its place (and an emergency its override) until it is moved.
  let outsideHours = current.outsideHours;
  let outsideHoursReason = current.outsideHoursReason;
  if (status !== 'cancelled' && moved) {
    outsideHours = await requireOpenTime(
      tx,
      actor,
      [current],
      dentist,
      { date: input.date, time: input.time, duration },
      input.outsideHours,
      settings,
    );
    outsideHoursReason = outsideHours ? input.outsideHoursReason : null;
  } else {
    await lockDays(tx, clinicId, [current, input]);
  }
  if (input.chairId !== current.chairId) await requireChair(tx, clinicId, input.chairId);
  const visit = await visitOfForm(tx, clinicId, input, duration);
  // A chair asked for is held; a visit moved without one is given a free one (its own first).
  const chairId = input.chairId ?? (moved ? null : current.chairId);
  place({ ...visit, chairId: input.chairId });
  if (status === 'completed' && status !== current.status) await requireCompletable(tx, clinicId, input.date);
  await tx
    .update(appointments)
    .set({
      ...visit,
      chairId: chairId ?? sql`null`,
      status,
      outsideHours,
      outsideHoursReason,
      sequence: sql`${appointments.sequence} + 1`,
      updatedAt: new Date(),
    })
    .where(visitRow(clinicId, appointmentId));
  await settleVisit(tx, clinicId, appointmentId, [current, input]);
  if (status === 'confirmed' && current.status !== 'confirmed') {
    await queueConfirmation(tx, clinicId, appointmentId);
  }
  await auditVisit(tx, actor, 'update', appointmentId, {
    patient: input.patient,
    status,
    date: input.date,
    time: input.time,
    duration,
    ...(outsideHours && moved ? { outside_hours: true, reason: outsideHoursReason } : {}),
  });
  return (await findAppointment(tx, clinicId, appointmentId)) as Appointment;
}

/** Sets a visit's status: PATCH /api/appointments/:id/status. */
export const setAppointmentStatus = ownWrite(setVisitStatus);

/**
 * Sets one visit's status inside the write's transaction `tx` under every rule of a status change
 * (its version, open hours when it comes back from cancelled, its audit record, reminders and
 * confirmation). "This and the following" of a series sets each of its visits through here.
 */
export async function setVisitStatus(
  tx: Transaction,
  actor: Actor,
  appointmentId: number,
  status: AppointmentStatus,
  expected: ExpectedVersion,
  place: (wanted: Placement) => void,
): Promise<Appointment> {
  const { clinicId } = actor;
  const current = await lockAppointment(tx, clinicId, appointmentId, expected);
  place(current);
  if (current.status === 'cancelled' && status !== 'cancelled') {
    // Back from cancelled: it must fit the hours again, unless it was booked as an emergency
    // (outside hours, with its reason), which it stays.
    if (current.outsideHours) await lockDays(tx, clinicId, [current]);
    else
      await requireOpenTime(
        tx,
        actor,
        [],
        await dentistDays(tx, clinicId, current.dentistId),
        current,
        false,
        settingsOnce(tx, clinicId),
      );
  }
  if (status === 'completed' && status !== current.status)
    await requireCompletable(tx, clinicId, current.date);
  await tx
    .update(appointments)
    .set({
      status,
      // Confirmed here by the desk; a visit that leaves confirmed is nobody's confirmed visit.
      confirmedBy:
        status === 'confirmed'
          ? status === current.status
            ? sql`${appointments.confirmedBy}`
            : 'desk'
          : null,
      sequence: sql`${appointments.sequence} + 1`,
      updatedAt: new Date(),
    })
    .where(visitRow(clinicId, appointmentId));
  if (status !== current.status) {
    await settleVisit(tx, clinicId, appointmentId, [current]);
    if (status === 'confirmed') await queueConfirmation(tx, clinicId, appointmentId);
  }
  const appointment = (await findAppointment(tx, clinicId, appointmentId)) as Appointment;
  await auditVisit(tx, actor, 'status_change', appointmentId, {
    patient: appointment.patient,
    status,
    from: current.status,
    date: current.date,
    time: current.time,
  });
  return appointment;
}

export async function deleteAppointment(
  db: Database,
  actor: Actor,
  appointmentId: number,
  expected: ExpectedVersion = null,
): Promise<void> {
  const { clinicId } = actor;
  await db.transaction(async (tx) => {
    const current = await lockAppointment(tx, clinicId, appointmentId, expected);
    const appointment = await findAppointment(tx, clinicId, appointmentId);
    await tx.delete(appointments).where(visitRow(clinicId, appointmentId));
    await settleVisit(tx, clinicId, appointmentId, [current]);
    await auditVisit(tx, actor, 'delete', appointmentId, {
      patient: appointment?.patient ?? null,
      status: current.status,
      date: current.date,
      time: current.time,
    });
  });
}
