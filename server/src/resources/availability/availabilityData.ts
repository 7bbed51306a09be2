import {
  type AvailabilityDayStatus,
  type AvailabilityFill,
  type AvailabilityFillResult,
  type AvailabilityListQuery,
  type AvailabilityWrite,
  type DentistAvailabilityQuery,
  fitsOpenHours,
  joinSpans,
  minutesOf,
  type SlotUpdate,
  spansOverlap,
  suggestedSlotsOn,
  type WireAvailability,
  wireAvailabilitySchema,
} from '@dental/shared/domain';
import { and, asc, count, desc, eq, gte, ilike, inArray, lt, lte, ne, type SQL, sql } from 'drizzle-orm';
import type { Database, Reader, Transaction } from '../../db/client';
import { addDays, clinicToday } from '../../db/clinicTime';
import { databaseError, FOREIGN_KEY_VIOLATION, UNIQUE_VIOLATION } from '../../db/databaseErrors';
import { liveDentist } from '../../db/liveDentists';
import { appointments, availability, dentists, type TimeSlot } from '../../db/schema';
import { containsPattern } from '../../db/search';
import { isoTimestamp } from '../../db/utcTimestamps';
import { HttpError } from '../../plugins/errors';
import { type ExpectedVersion, requireVersion } from '../../plugins/versions';
import { recordActorAudit } from '../actorAudit';
import type { RequestActor } from '../rowRoutes';

export const AVAILABILITY_NOT_FOUND = 'Availability not found';
export const DENTIST_NOT_FOUND = 'Dentist not found';
export const NO_SUCH_DENTIST = 'No dentist with this id in your clinic';
export const AVAILABILITY_EXISTS =
  'Availability for this dentist on this date already exists; edit it instead';
export const DATE_IN_PAST = 'The date must not be in the past';
export const CHANGED_MEANWHILE =
  'This availability was changed by someone else meanwhile; reload it and try again';
export const OWN_AVAILABILITY_ONLY = 'A dentist may change only their own availability';
export const NOT_LINKED = 'Your account is not linked to a dentist record, so you cannot change availability';
export const noSuchSlot = (start: string, end: string) => `No slot from ${start} to ${end} on this day`;

export const dayHoldsAppointments = (times: readonly string[], before = 'deleting the day') =>
  `This day has ${times.length === 1 ? 'an appointment' : `${times.length} appointments`} booked (${[...times]
    .sort()
    .join(', ')}): cancel or move ${times.length === 1 ? 'it' : 'them'} before ${before}`;

export const slotHoldsAppointment = (start: string, end: string, time: string) =>
  `The slot ${start}-${end} holds an appointment at ${time}: cancel or move it first`;

/** A live visit on a day: its start (`HH:mm`) and the minutes of the day it holds. */
interface HeldTime {
  time: string;
  start: number;
  end: number;
}

/** A dentist's live (not cancelled) appointments on a date, by the time each holds. */
async function bookedTimes(
  tx: Reader,
  clinicId: number,
  dentistId: number,
  date: string,
): Promise<HeldTime[]> {
  const rows = await tx
    .select({ time: appointments.time, duration: appointments.duration })
    .from(appointments)
    .where(
      and(
        eq(appointments.clinicId, clinicId),
        eq(appointments.dentistId, dentistId),
        eq(appointments.date, date),
        ne(appointments.status, 'cancelled'),
      ),
    );
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
const timeIn = (slot: { start: string; end: string }, visits: readonly HeldTime[]) =>
  visits.find((visit) => spansOverlap(visit, { start: minutesOf(slot.start), end: minutesOf(slot.end) }))
    ?.time;

/**
 * A slot is booked while a live appointment overlaps it; otherwise it is available unless staff
 * closed it. `closed` is kept beside `available` so that freeing a slot never reopens one that staff
 * closed by hand.
 */
function settled(slot: TimeSlot, times: readonly HeldTime[]): TimeSlot {
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
    .where(
      and(
        eq(availability.clinicId, clinicId),
        eq(availability.dentistId, dentistId),
        eq(availability.date, date),
      ),
    )
    .for('update');
  if (!row) return;
  const times = await bookedTimes(tx, clinicId, dentistId, date);
  const next = row.timeSlots.map((slot) => settled(slot, times));
  if (next.every((slot, index) => slot.available === row.timeSlots[index]?.available)) return;
  await tx
    .update(availability)
    .set({ timeSlots: next, updatedAt: new Date() })
    .where(and(eq(availability.clinicId, clinicId), eq(availability.id, row.id)));
}

/**
 * The slots of a create or replace, settled against the day's appointments (the caller holds the
 * day's lock). A slot sent as not
 * available is closed by staff, except when an appointment books it: a form sends a booked slot back
 * as not available, and that slot stays as it was (closed only if it already was).
 */
async function slotsToStore(
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

const availabilityColumns = {
  id: availability.id,
  dentistId: availability.dentistId,
  dentistName: dentists.name,
  date: availability.date,
  timeSlots: availability.timeSlots,
  status: availability.status,
  createdAt: availability.createdAt,
  updatedAt: availability.updatedAt,
  version: availability.version,
};

interface AvailabilityRow {
  id: number;
  dentistId: number;
  dentistName: string;
  date: string;
  timeSlots: TimeSlot[];
  status: string;
  createdAt: Date;
  updatedAt: Date;
  version: number;
}

function toWire(row: AvailabilityRow): WireAvailability {
  return {
    id: row.id,
    dentist_id: row.dentistId,
    dentist_name: row.dentistName,
    date: row.date,
    time_slots: row.timeSlots.map((slot) => ({
      start: slot.start,
      end: slot.end,
      available: slot.available !== false,
    })),
    status: row.status as AvailabilityDayStatus,
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
    version: row.version,
  };
}

const joinDentist = and(
  eq(dentists.clinicId, availability.clinicId),
  eq(dentists.id, availability.dentistId),
);

function dateConditions(query: { date?: string; from?: string; to?: string }): SQL[] {
  const conditions: SQL[] = [];
  if (query.date) conditions.push(eq(availability.date, query.date));
  if (query.from) conditions.push(gte(availability.date, query.from));
  if (query.to) conditions.push(lte(availability.date, query.to));
  return conditions;
}

async function page(
  db: Reader,
  where: SQL | undefined,
  query: { page: number; limit: number; sort?: string },
): Promise<{ data: WireAvailability[]; total: number }> {
  const [totalRow] = await db
    .select({ total: count() })
    .from(availability)
    .innerJoin(dentists, joinDentist)
    .where(where);
  const rows = await db
    .select(availabilityColumns)
    .from(availability)
    .innerJoin(dentists, joinDentist)
    .where(where)
    .orderBy(
      query.sort === '-date' ? desc(availability.date) : asc(availability.date),
      asc(dentists.name),
      asc(availability.id),
    )
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  return { data: rows.map(toWire), total: totalRow?.total ?? 0 };
}

/**
 * The clinic's availability, on availability_date_idx (clinic_id, date) for a date or range, or on
 * availability_dentist_date_unique (clinic_id, dentist_id, date) for one dentist.
 */
export async function listAvailability(
  db: Database,
  clinicId: number,
  query: AvailabilityListQuery,
): Promise<{ data: WireAvailability[]; total: number }> {
  const conditions: SQL[] = [eq(availability.clinicId, clinicId), ...dateConditions(query)];
  if (query.dentist_id !== undefined) conditions.push(eq(availability.dentistId, query.dentist_id));
  if (query.search) conditions.push(ilike(dentists.name, containsPattern(query.search)));
  return page(db, and(...conditions), query);
}

export async function dentistExists(db: Reader, clinicId: number, dentistId: number) {
  const [row] = await db
    .select({ id: dentists.id, name: dentists.name })
    .from(dentists)
    .where(liveDentist(clinicId, dentistId))
    .limit(1);
  return row ?? null;
}

export async function listDentistAvailability(
  db: Database,
  clinicId: number,
  dentistId: number,
  query: DentistAvailabilityQuery,
): Promise<{ data: WireAvailability[]; total: number }> {
  if (!(await dentistExists(db, clinicId, dentistId))) throw new HttpError(404, DENTIST_NOT_FOUND);
  return page(
    db,
    and(eq(availability.clinicId, clinicId), eq(availability.dentistId, dentistId), ...dateConditions(query)),
    query,
  );
}

/** The availability days of [first, next), by date then dentist name; at most `limit` rows. */
export async function readAvailabilityRange(
  db: Database,
  clinicId: number,
  range: { first: string; next: string },
  dentistId: number | undefined,
  limit: number,
): Promise<WireAvailability[]> {
  const conditions: SQL[] = [
    eq(availability.clinicId, clinicId),
    gte(availability.date, range.first),
    lt(availability.date, range.next),
  ];
  if (dentistId !== undefined) conditions.push(eq(availability.dentistId, dentistId));
  const rows = await db
    .select(availabilityColumns)
    .from(availability)
    .innerJoin(dentists, joinDentist)
    .where(and(...conditions))
    .orderBy(asc(availability.date), asc(dentists.name), asc(availability.id))
    .limit(limit);
  return rows.map(toWire);
}

export async function findAvailability(
  db: Reader,
  clinicId: number,
  id: number,
): Promise<WireAvailability | null> {
  const [row] = await db
    .select(availabilityColumns)
    .from(availability)
    .innerJoin(dentists, joinDentist)
    .where(and(eq(availability.clinicId, clinicId), eq(availability.id, id)))
    .limit(1);
  return row ? toWire(row) : null;
}

/** One availability day as its routes read it (rowRoutes): its wire schema, its read and its 404. */
export const availabilityLookup = {
  schema: wireAvailabilitySchema,
  find: findAvailability,
  notFound: AVAILABILITY_NOT_FOUND,
};

/** Admins write any dentist's availability; a dentist only that of the dentist record they are linked to. */
function checkOwnership(staff: RequestActor, dentistId: number): void {
  if (staff.role !== 'dentist') return;
  if (staff.dentistId === null) throw new HttpError(403, NOT_LINKED);
  if (staff.dentistId !== dentistId) throw new HttpError(403, OWN_AVAILABILITY_ONLY);
}

async function requireDentist(tx: Transaction, clinicId: number, dentistId: number) {
  const dentist = await dentistExists(tx, clinicId, dentistId);
  if (!dentist) {
    throw new HttpError(400, `Invalid dentist_id: ${NO_SUCH_DENTIST}`, [
      { field: 'dentist_id', message: NO_SUCH_DENTIST },
    ]);
  }
  return dentist;
}

async function requireNotPast(tx: Transaction, clinicId: number, date: string): Promise<void> {
  const today = await clinicToday(tx, clinicId);
  if (date < today) {
    throw new HttpError(400, `Invalid date: ${DATE_IN_PAST} (today is ${today})`, [
      { field: 'date', message: DATE_IN_PAST },
    ]);
  }
}

const existsConflict = () =>
  new HttpError(409, AVAILABILITY_EXISTS, [{ field: 'date', message: AVAILABILITY_EXISTS }]);

async function requireFreeDay(
  tx: Transaction,
  clinicId: number,
  dentistId: number,
  date: string,
  exceptId: number | null,
): Promise<void> {
  const sameDay = and(
    eq(availability.clinicId, clinicId),
    eq(availability.dentistId, dentistId),
    eq(availability.date, date),
  );
  const [holder] = await tx
    .select({ id: availability.id })
    .from(availability)
    .where(exceptId === null ? sameDay : and(sameDay, ne(availability.id, exceptId)))
    .limit(1);
  if (holder) throw existsConflict();
}

/** The unique day index lost to a racing write, or a dentist deleted meanwhile: a clear answer. */
async function inTransaction<T>(db: Database, work: (tx: Transaction) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(work);
  } catch (error) {
    const failure = databaseError(error, [UNIQUE_VIOLATION, FOREIGN_KEY_VIOLATION]);
    if (failure?.code === UNIQUE_VIOLATION) throw existsConflict();
    if (failure?.code === FOREIGN_KEY_VIOLATION) {
      throw new HttpError(400, `Invalid dentist_id: ${NO_SUCH_DENTIST}`, [
        { field: 'dentist_id', message: NO_SUCH_DENTIST },
      ]);
    }
    throw error;
  }
}

/**
 * The day a write changes, locked to the commit, if the staff member may change it (else 403) and it
 * is at the `expected` version (else 412: a precondition is judged after who may ask).
 */
async function lockedAvailability(
  tx: Transaction,
  staff: RequestActor,
  id: number,
  expected: ExpectedVersion,
) {
  const [row] = await tx
    .select({
      id: availability.id,
      version: availability.version,
      dentistId: availability.dentistId,
      date: availability.date,
      timeSlots: availability.timeSlots,
      status: availability.status,
    })
    .from(availability)
    .where(and(eq(availability.clinicId, staff.clinicId), eq(availability.id, id)))
    .for('update');
  if (!row) throw new HttpError(404, AVAILABILITY_NOT_FOUND);
  checkOwnership(staff, row.dentistId);
  requireVersion(row.version, expected);
  return row;
}

async function answer(tx: Transaction, clinicId: number, id: number): Promise<WireAvailability> {
  const found = await findAvailability(tx, clinicId, id);
  if (!found) throw new Error('Availability vanished');
  return found;
}

export async function createAvailability(
  db: Database,
  staff: RequestActor,
  input: AvailabilityWrite,
): Promise<WireAvailability> {
  checkOwnership(staff, input.dentistId);
  return inTransaction(db, async (tx) => {
    const dentist = await requireDentist(tx, staff.clinicId, input.dentistId);
    await requireNotPast(tx, staff.clinicId, input.date);
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
      .where(and(eq(availability.clinicId, staff.clinicId), eq(availability.id, id)));
    if (!seen) throw new HttpError(404, AVAILABILITY_NOT_FOUND);
    await lockDays(tx, staff.clinicId, [seen, input]);
    const current = await lockedAvailability(tx, staff, id, expected);
    if (current.dentistId !== seen.dentistId || current.date !== seen.date) {
      throw new HttpError(409, CHANGED_MEANWHILE);
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
        throw new HttpError(409, message, [{ field: sameDay ? 'time_slots' : 'date', message }]);
      }
    }
    const status = input.status ?? (current.status as AvailabilityDayStatus);
    if (status === 'inactive') {
      // An inactive day takes no visits, so one that holds some cannot become inactive.
      // The day's visits were read above when the day stays where it is.
      const held = sameDay ? heldTimes : await bookedTimes(tx, staff.clinicId, input.dentistId, input.date);
      if (held.length > 0) {
        throw new HttpError(
          409,
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
      .where(and(eq(availability.clinicId, staff.clinicId), eq(availability.id, id)));
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
      .where(and(eq(availability.clinicId, staff.clinicId), eq(availability.id, id)));
    if (!seen) throw new HttpError(404, AVAILABILITY_NOT_FOUND);
    await lockDays(tx, staff.clinicId, [seen]);
    const current = await lockedAvailability(tx, staff, id, expected);
    const times = await bookedTimes(tx, staff.clinicId, current.dentistId, current.date);
    const held = times.filter((visit) =>
      current.timeSlots.some((slot) => timeIn(slot, [visit]) !== undefined),
    );
    if (held.length > 0) throw new HttpError(409, dayHoldsAppointments(held.map((visit) => visit.time)));
    const dentist = await dentistExists(tx, staff.clinicId, current.dentistId);
    await tx
      .delete(availability)
      .where(and(eq(availability.clinicId, staff.clinicId), eq(availability.id, id)));
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
    if (!target) throw new HttpError(404, noSuchSlot(input.start, input.end));
    const times = await bookedTimes(tx, staff.clinicId, current.dentistId, current.date);
    const heldAt = timeIn(target, times);
    if (input.available && heldAt !== undefined) {
      throw new HttpError(409, slotHoldsAppointment(target.start, target.end, heldAt), [
        { field: 'available', message: 'This slot holds an appointment' },
      ]);
    }
    const next = current.timeSlots.map((slot, position) =>
      position === index ? settled({ ...slot, closed: !input.available }, times) : slot,
    );
    await tx
      .update(availability)
      .set({ timeSlots: next, updatedAt: new Date() })
      .where(and(eq(availability.clinicId, staff.clinicId), eq(availability.id, id)));
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

/** ISO day number of a date (1 Monday … 7 Sunday), as dentists' `working_days` lists them. */
function isoWeekday(date: string): string {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return String(day === 0 ? 7 : day);
}

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
  checkOwnership(staff, input.dentist_id);
  return inTransaction(db, async (tx) => {
    const [dentist] = await tx
      .select({ name: dentists.name, workingDays: dentists.workingDays })
      .from(dentists)
      .where(liveDentist(staff.clinicId, input.dentist_id));
    if (!dentist) {
      throw new HttpError(400, `Invalid dentist_id: ${NO_SUCH_DENTIST}`, [
        { field: 'dentist_id', message: NO_SUCH_DENTIST },
      ]);
    }
    const today = await clinicToday(tx, staff.clinicId);
    if (input.from < today) {
      throw new HttpError(400, `Invalid from: ${DATE_IN_PAST} (today is ${today})`, [
        { field: 'from', message: DATE_IN_PAST },
      ]);
    }
    const working: string[] = [];
    for (let date = input.from; date <= input.to; date = addDays(date, 1)) {
      if (dentist.workingDays.includes(isoWeekday(date))) working.push(date);
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
        : suggestedSlotsOn(Number(isoWeekday(date))).map((slot) => ({ ...slot, available: true }));
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
