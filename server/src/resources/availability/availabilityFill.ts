import { type AvailabilityFill, type AvailabilityFillResult, suggestedSlotsOn } from '@dental/shared/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { addDays, isoWeekday } from '../../db/clinicTime';
import { availability, dentists, type TimeSlot } from '../../db/schema';
import { recordActorAudit } from '../actorAudit';
import type { RequestActor } from '../rowRoutes';
import { availabilityColumns, joinDentist, toWire } from './availabilityReads';
import { newDaysWrite } from './availabilityRules';
import { lockDays, slotsToStore } from './daySettling';

/**
 * Gives a dentist's working days from `from` to `to` the slots asked (the suggested ones by default),
 * in one transaction and one audit record. Days already set are kept as they are; a slot a live
 * appointment already starts in is stored booked.
 */
export async function fillAvailability(
  db: Database,
  staff: RequestActor,
  input: AvailabilityFill,
): Promise<AvailabilityFillResult> {
  return newDaysWrite(db, staff, input.dentist_id, { from: input.from }, async (tx, dentist) => {
    const working: string[] = [];
    for (let date = input.from; date <= input.to; date = addDays(date, 1)) {
      if (dentist.workingDays.includes(String(isoWeekday(date)))) working.push(date);
    }
    if (working.length === 0) return { created: [], kept: [] };
    const days = working.map((date) => ({ dentistId: input.dentist_id, date }));
    await lockDays(tx, staff.clinicId, days);
    const existing = await tx
      .select({ date: availability.date })
      .from(availability)
      .where(
        and(
          eq(availability.clinicId, staff.clinicId),
          eq(availability.dentistId, input.dentist_id),
          inArray(availability.date, working),
        ),
      );
    const kept = new Set(existing.map((row) => row.date));
    // Slots given apply to every day; the suggested ones follow the day's hours (weekends: mornings).
    const slotsOn = (date: string): TimeSlot[] =>
      input.time_slots
        ? input.time_slots.map((slot) => ({ start: slot.start, end: slot.end, available: slot.available }))
        : suggestedSlotsOn(isoWeekday(date)).map((slot) => ({ ...slot, available: true }));
    const rows = [];
    for (const date of working.filter((day) => !kept.has(day))) {
      const day = { dentistId: input.dentist_id, date, timeSlots: slotsOn(date) };
      rows.push({
        clinicId: staff.clinicId,
        dentistId: input.dentist_id,
        date,
        timeSlots: await slotsToStore(tx, staff.clinicId, day, []),
      });
    }
    const inserted = rows.length
      ? await tx.insert(availability).values(rows).returning({ id: availability.id })
      : [];
    if (inserted.length > 0) {
      await recordActorAudit(tx, staff, {
        action: 'create',
        entity: 'availability',
        details: {
          name: `${dentist.name}, ${input.from} to ${input.to}`,
          dentist_id: input.dentist_id,
          from: input.from,
          to: input.to,
          days: inserted.length,
        },
      });
    }
    const created = inserted.length
      ? await tx
          .select(availabilityColumns)
          .from(availability)
          .innerJoin(dentists, joinDentist)
          .where(
            and(
              eq(availability.clinicId, staff.clinicId),
              inArray(
                availability.id,
                inserted.map((row) => row.id),
              ),
            ),
          )
          .orderBy(asc(availability.date))
      : [];
    return { created: created.map(toWire), kept: [...kept].sort() };
  });
}
