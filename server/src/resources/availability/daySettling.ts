import { type AvailabilityWrite, minutesOf, spansOverlap } from '@dental/shared/domain';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Database, Reader, Transaction } from '../../db/client';
import { appointments, availability, type TimeSlot } from '../../db/schema';
import { availabilityRow } from './availabilityReads';

/** A live visit on a day: its start (`HH:mm`) and the minutes of the day it holds. */
export interface HeldTime {
  time: string;
  start: number;
  end: number;
}

/** The rows of `table` (a day's availability, or its visits) on one dentist's day in the clinic. */
export const onDentistDay = (
  table: typeof availability | typeof appointments,
  clinicId: number,
  dentistId: number,
  date: string,
) => and(eq(table.clinicId, clinicId), eq(table.dentistId, dentistId), eq(table.date, date));

/** A dentist's live (not cancelled) appointments on a date, by the time each holds. */
export async function bookedTimes(
  tx: Reader,
  clinicId: number,
  dentistId: number,
  date: string,
): Promise<HeldTime[]> {
  const rows = await tx
    .select({ time: appointments.time, duration: appointments.duration })
    .from(appointments)
    .where(and(onDentistDay(appointments, clinicId, dentistId, date), ne(appointments.status, 'cancelled')));
  return rows.map((row) => ({
    time: row.time,
    start: minutesOf(row.time),
    end: minutesOf(row.time) + row.duration,
  }));
}

/**
 * Serialises the writes to dentists' days until their transactions end: an appointment's settling of
 * a day and the creation (or move) of a day's availability. Without it a day created beside a booking
 * in flight could miss that booking, each transaction blind to the other's uncommitted row. Days are
 * locked in one order, and before any availability row, so two writers never wait on each other in a
 * circle.
 */
interface Day {
  dentistId: number;
  date: string;
}

/** The days named, each once, in the one order every writer locks them in. */
function distinctDays(days: readonly Day[]): Day[] {
  const byKey = new Map(days.map((day) => [`${day.dentistId}:${day.date}`, day]));
  return [...byKey.keys()].sort().map((key) => byKey.get(key) as Day);
}

/**
 * Locks the dentists' days named (lockDays' order) until the transaction ends: the availability
 * writes, and the appointments writes before a visit lands on a day, so the day's slots and status
 * read for its open hours cannot change before the write commits.
 */
export async function lockDays(
  tx: Transaction | Database,
  clinicId: number,
  days: readonly Day[],
): Promise<void> {
  for (const day of distinctDays(days)) {
    const key = `day:${clinicId}:${day.dentistId}:${day.date}`;
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
  }
}

/** The start of the first live visit that overlaps the slot, if any. */
export const timeIn = (slot: { start: string; end: string }, visits: readonly HeldTime[]) =>
  visits.find((visit) => spansOverlap(visit, { start: minutesOf(slot.start), end: minutesOf(slot.end) }))
    ?.time;

/**
 * A slot is booked while a live appointment overlaps it; otherwise it is available unless staff
 * closed it. `closed` is kept beside `available` so that freeing a slot never reopens one that staff
 * closed by hand.
 */
export function settled(slot: TimeSlot, times: readonly HeldTime[]): TimeSlot {
  const base = { start: slot.start, end: slot.end };
  if (slot.closed === true) return { ...base, available: false, closed: true };
  return { ...base, available: timeIn(slot, times) === undefined };
}

/**
 * Called by the appointments writes INSIDE their transaction, after the appointment row has changed,
 * with the days it was and is on: brings each dentist's day in line with its appointments, booking
 * the slot a live appointment starts in and freeing a slot none is left in. The days are locked
 * (lockDays, then each row FOR UPDATE) before the appointments are read, so writes to one day queue
 * and none undoes another's. A day without availability: nothing to do.
 */
export async function settleDays(tx: Transaction | Database, clinicId: number, days: readonly Day[]) {
  await lockDays(tx, clinicId, days);
  for (const day of distinctDays(days)) await settleDay(tx, clinicId, day.dentistId, day.date);
}

async function settleDay(tx: Transaction | Database, clinicId: number, dentistId: number, date: string) {
  const [row] = await tx
    .select({ id: availability.id, timeSlots: availability.timeSlots })
    .from(availability)
    .where(onDentistDay(availability, clinicId, dentistId, date))
    .for('update');
  if (!row) return;
  const times = await bookedTimes(tx, clinicId, dentistId, date);
  const next = row.timeSlots.map((slot) => settled(slot, times));
  if (next.every((slot, index) => slot.available === row.timeSlots[index]?.available)) return;
  await tx
    .update(availability)
    .set({ timeSlots: next, updatedAt: new Date() })
    .where(availabilityRow(clinicId, row.id));
}

/**
 * The slots of a create or replace, settled against the day's appointments (the caller holds the
 * day's lock). A slot sent as not
 * available is closed by staff, except when an appointment books it: a form sends a booked slot back
 * as not available, and that slot stays as it was (closed only if it already was).
 */
export async function slotsToStore(
  tx: Transaction,
  clinicId: number,
  input: Pick<AvailabilityWrite, 'dentistId' | 'date' | 'timeSlots'>,
  before: readonly TimeSlot[],
): Promise<TimeSlot[]> {
  const times = await bookedTimes(tx, clinicId, input.dentistId, input.date);
  return input.timeSlots.map((slot) => {
    const booked = timeIn(slot, times) !== undefined;
    const wasClosed = before.some(
      (old) => old.start === slot.start && old.end === slot.end && old.closed === true,
    );
    const closed = !slot.available && (!booked || wasClosed);
    return settled({ ...slot, closed }, times);
  });
}
