import {
  type AvailabilityDayStatus,
  type AvailabilityWrite,
  fitsOpenHours,
  joinSpans,
  minutesOf,
  type SlotUpdate,
  spansOverlap,
  type WireAvailability,
} from '@dental/shared/domain';
import type { Database } from '../../db/client';
import { availability } from '../../db/schema';
import { Conflict, NotFound } from '../../domain/errors';
import type { ExpectedVersion } from '../../plugins/versions';
import { recordActorAudit } from '../actorAudit';
import type { RequestActor } from '../rowRoutes';
import { AVAILABILITY_NOT_FOUND, availabilityRow, dentistExists } from './availabilityReads';
import {
  answer,
  CHANGED_MEANWHILE,
  checkOwnership,
  dayHoldsAppointments,
  inTransaction,
  lockedAvailability,
  newDaysWrite,
  noSuchSlot,
  requireDentist,
  requireFreeDay,
  requireNotPast,
  slotHoldsAppointment,
} from './availabilityRules';
import { bookedTimes, lockDays, settled, slotsToStore, timeIn } from './daySettling';

/** A day's availability created, replaced, deleted, or one slot opened or closed (docs/product.md, Availability). */

export async function createAvailability(
  db: Database,
  staff: RequestActor,
  input: AvailabilityWrite,
): Promise<WireAvailability> {
  return newDaysWrite(db, staff, input.dentistId, { date: input.date }, async (tx, dentist) => {
    await requireFreeDay(tx, staff.clinicId, input.dentistId, input.date, null);
    await lockDays(tx, staff.clinicId, [input]);
    const [created] = await tx
      .insert(availability)
      .values({
        clinicId: staff.clinicId,
        dentistId: input.dentistId,
        date: input.date,
        timeSlots: await slotsToStore(tx, staff.clinicId, input, []),
        status: input.status ?? 'active',
      })
      .returning({ id: availability.id });
    if (!created) throw new Error('Availability was not created');
    await recordActorAudit(tx, staff, {
      action: 'create',
      entity: 'availability',
      entityId: created.id,
      details: {
        name: `${dentist.name}, ${input.date}`,
        dentist_id: input.dentistId,
        date: input.date,
        slots: input.timeSlots.length,
        status: input.status ?? 'active',
      },
    });
    return answer(tx, staff.clinicId, created.id);
  });
}

/**
 * Replaces the day's dentist, date and slots as sent; a slot an appointment starts in stays booked
 * (slotsToStore). A dentist edits only their own days and cannot hand one to another dentist; an
 * admin may move a day to another dentist. A day moved to a new date must not move into the past;
 * a past day kept on its date may still be corrected.
 */
export async function updateAvailability(
  db: Database,
  staff: RequestActor,
  id: number,
  input: AvailabilityWrite,
  expected: ExpectedVersion = null,
): Promise<WireAvailability> {
  return inTransaction(db, async (tx) => {
    // The days it leaves and enters are locked before its row (lockDays).
    const [seen] = await tx
      .select({ dentistId: availability.dentistId, date: availability.date })
      .from(availability)
      .where(availabilityRow(staff.clinicId, id));
    if (!seen) throw new NotFound(AVAILABILITY_NOT_FOUND);
    await lockDays(tx, staff.clinicId, [seen, input]);
    const current = await lockedAvailability(tx, staff, id, expected);
    if (current.dentistId !== seen.dentistId || current.date !== seen.date) {
      throw new Conflict(CHANGED_MEANWHILE);
    }
    checkOwnership(staff, input.dentistId);
    const dentist = await requireDentist(tx, staff.clinicId, input.dentistId);
    if (input.date !== current.date) await requireNotPast(tx, staff.clinicId, input.date);
    if (input.date !== current.date || input.dentistId !== current.dentistId) {
      await requireFreeDay(tx, staff.clinicId, input.dentistId, input.date, id);
    }
    // A slot that holds a visit stays: dropping it (or moving the day away) would leave the visit
    // without a slot. Visits booked outside every slot are not the day's to keep.
    const sameDay = input.dentistId === current.dentistId && input.date === current.date;
    const heldTimes = await bookedTimes(tx, staff.clinicId, current.dentistId, current.date);
    const newSpans = joinSpans(
      input.timeSlots.map((next) => ({ start: minutesOf(next.start), end: minutesOf(next.end) })),
    );
    for (const slot of current.timeSlots) {
      const heldAt = timeIn(slot, heldTimes);
      if (heldAt === undefined) continue;
      // Each visit keeps the part of its time this slot gave it, inside the new slots.
      const slotSpan = { start: minutesOf(slot.start), end: minutesOf(slot.end) };
      const kept =
        sameDay &&
        heldTimes
          .filter((visit) => spansOverlap(visit, slotSpan))
          .every((visit) =>
            fitsOpenHours(
              { start: Math.max(visit.start, slotSpan.start), end: Math.min(visit.end, slotSpan.end) },
              newSpans,
            ),
          );
      if (!kept) {
        const message = slotHoldsAppointment(slot.start, slot.end, heldAt);
        throw new Conflict(message, [{ field: sameDay ? 'time_slots' : 'date', message }]);
      }
    }
    const status = input.status ?? (current.status as AvailabilityDayStatus);
    if (status === 'inactive') {
      // An inactive day takes no visits, so one that holds some cannot become inactive.
      // The day's visits were read above when the day stays where it is.
      const held = sameDay ? heldTimes : await bookedTimes(tx, staff.clinicId, input.dentistId, input.date);
      if (held.length > 0) {
        throw new Conflict(
          dayHoldsAppointments(
            held.map((visit) => visit.time),
            'making the day inactive',
          ),
          [{ field: 'status', message: 'This day holds appointments' }],
        );
      }
    }
    await tx
      .update(availability)
      .set({
        dentistId: input.dentistId,
        date: input.date,
        timeSlots: await slotsToStore(tx, staff.clinicId, input, current.timeSlots),
        status,
        updatedAt: new Date(),
      })
      .where(availabilityRow(staff.clinicId, id));
    await recordActorAudit(tx, staff, {
      action: 'update',
      entity: 'availability',
      entityId: id,
      details: {
        name: `${dentist.name}, ${input.date}`,
        dentist_id: input.dentistId,
        date: input.date,
        slots: input.timeSlots.length,
        status,
      },
    });
    return answer(tx, staff.clinicId, id);
  });
}

/**
 * Deletes a day that holds no live appointment; a day with bookings is refused (409) until they are
 * cancelled or moved, so no booking is left without its slot. The day is locked as the appointments'
 * writes lock it, so a booking in flight is either seen here or waits for the delete.
 */
export async function deleteAvailability(
  db: Database,
  staff: RequestActor,
  id: number,
  expected: ExpectedVersion = null,
): Promise<void> {
  await inTransaction(db, async (tx) => {
    const [seen] = await tx
      .select({ dentistId: availability.dentistId, date: availability.date })
      .from(availability)
      .where(availabilityRow(staff.clinicId, id));
    if (!seen) throw new NotFound(AVAILABILITY_NOT_FOUND);
    await lockDays(tx, staff.clinicId, [seen]);
    const current = await lockedAvailability(tx, staff, id, expected);
    const times = await bookedTimes(tx, staff.clinicId, current.dentistId, current.date);
    const held = times.filter((visit) =>
      current.timeSlots.some((slot) => timeIn(slot, [visit]) !== undefined),
    );
    if (held.length > 0) throw new Conflict(dayHoldsAppointments(held.map((visit) => visit.time)));
    const dentist = await dentistExists(tx, staff.clinicId, current.dentistId);
    await tx.delete(availability).where(availabilityRow(staff.clinicId, id));
    await recordActorAudit(tx, staff, {
      action: 'delete',
      entity: 'availability',
      entityId: id,
      details: {
        name: `${dentist?.name ?? 'Dentist'}, ${current.date}`,
        dentist_id: current.dentistId,
        date: current.date,
      },
    });
  });
}

/**
 * Opens or closes one slot, named by its exact start and end; audited as a status change. A slot an
 * appointment books cannot be opened (409): the appointment has to be cancelled or moved first.
 */
export async function updateSlot(
  db: Database,
  staff: RequestActor,
  id: number,
  input: SlotUpdate,
  expected: ExpectedVersion = null,
): Promise<WireAvailability> {
  return inTransaction(db, async (tx) => {
    const current = await lockedAvailability(tx, staff, id, expected);
    const index = current.timeSlots.findIndex((slot) => slot.start === input.start && slot.end === input.end);
    const target = current.timeSlots[index];
    if (!target) throw new NotFound(noSuchSlot(input.start, input.end));
    const times = await bookedTimes(tx, staff.clinicId, current.dentistId, current.date);
    const heldAt = timeIn(target, times);
    if (input.available && heldAt !== undefined) {
      throw new Conflict(slotHoldsAppointment(target.start, target.end, heldAt), [
        { field: 'available', message: 'This slot holds an appointment' },
      ]);
    }
    const next = current.timeSlots.map((slot, position) =>
      position === index ? settled({ ...slot, closed: !input.available }, times) : slot,
    );
    await tx
      .update(availability)
      .set({ timeSlots: next, updatedAt: new Date() })
      .where(availabilityRow(staff.clinicId, id));
    const dentist = await dentistExists(tx, staff.clinicId, current.dentistId);
    await recordActorAudit(tx, staff, {
      action: 'status_change',
      entity: 'availability',
      entityId: id,
      details: {
        name: `${dentist?.name ?? 'Dentist'}, ${current.date} ${input.start}-${input.end}`,
        date: current.date,
        slot: `${input.start}-${input.end}`,
        status: input.available ? 'available' : 'booked',
      },
    });
    return answer(tx, staff.clinicId, id);
  });
}
