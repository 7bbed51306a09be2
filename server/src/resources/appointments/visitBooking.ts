import type { Appointment, AppointmentWrite } from '@dental/shared/domain';
import { sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client';
import { appointments } from '../../db/schema';
import { takeOffWaitlist } from '../waitlist/takeOffWaitlist';
import { findAppointment } from './appointmentReads';
import {
  type Actor,
  auditVisit,
  durationOf,
  requireBookableDay,
  requireChair,
  requireDentist,
  requireOpenTime,
  settingsOnce,
  settleVisit,
  visitOfForm,
} from './bookingRules';
import { bookingWrite, type Placement } from './visitOverlaps';

/** A new visit: POST /api/appointments, and each visit a series books (seriesData.ts). */

export async function createAppointment(
  db: Database,
  actor: Actor,
  input: AppointmentWrite,
): Promise<Appointment> {
  return bookingWrite(db, actor.clinicId, null, async (tx, place) => {
    const booked = await bookVisit(tx, actor, input, place);
    // Booked from the waitlist: the entry leaves it in the same transaction, or nothing is booked.
    if (input.waitlistEntryId !== null)
      await takeOffWaitlist(tx, actor, input.waitlistEntryId, booked.patient_id, booked.id);
    return booked;
  });
}

/** A visit's place in a series (migration 0022): the series and its 1-based position. */
export interface SeriesPlacement {
  seriesId: number;
  position: number;
}

/**
 * Books one visit inside the write's transaction `tx` under every rule of a booking (the day, the
 * dentist, the open hours, the overlaps, its audit record, reminders); `place` is told where it
 * lands before the insert, so that a refusal can name the visit in the way. A series books each of
 * its visits through here.
 */
export async function bookVisit(
  tx: Transaction,
  actor: Actor,
  input: AppointmentWrite,
  place: (wanted: Placement) => void,
  series: SeriesPlacement | null = null,
): Promise<Appointment> {
  const { clinicId } = actor;
  await requireBookableDay(tx, clinicId, input.date);
  const dentist = await requireDentist(tx, clinicId, input.dentistId, false);
  const settings = settingsOnce(tx, clinicId);
  const duration = await durationOf(input, settings);
  const outsideHours = await requireOpenTime(
    tx,
    actor,
    [],
    dentist,
    { ...input, duration },
    input.outsideHours,
    settings,
  );
  await requireChair(tx, clinicId, input.chairId);
  const visit = await visitOfForm(tx, clinicId, input, duration);
  place({ ...visit, chairId: input.chairId });
  const [created] = await tx
    .insert(appointments)
    .values({
      clinicId,
      ...visit,
      // None asked for: the database gives a free chair (appointments_hold_time).
      chairId: input.chairId ?? sql`null`,
      status: 'pending',
      outsideHours,
      outsideHoursReason: outsideHours ? input.outsideHoursReason : null,
      seriesId: series?.seriesId ?? null,
      seriesPosition: series?.position ?? null,
    })
    .returning({ id: appointments.id });
  if (!created) throw new Error('Appointment insert returned no row');
  await settleVisit(tx, clinicId, created.id, [input]);
  await auditVisit(tx, actor, 'create', created.id, {
    patient: input.patient,
    status: 'pending',
    date: input.date,
    time: input.time,
    duration,
    ...(outsideHours ? { outside_hours: true, reason: input.outsideHoursReason } : {}),
    ...(series ? { series_id: series.seriesId, series_position: series.position } : {}),
  });
  return (await findAppointment(tx, clinicId, created.id)) as Appointment;
}
