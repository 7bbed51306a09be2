import type { WireAvailability } from '@dental/shared/domain';
import { and, ne } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client';
import { clinicToday } from '../../db/clinicTime';
import { databaseError, FOREIGN_KEY_VIOLATION, UNIQUE_VIOLATION } from '../../db/databaseErrors';
import { availability } from '../../db/schema';
import { Conflict, InvalidValue, NotAllowed, NotFound } from '../../domain/errors';
import { type ExpectedVersion, requireVersion } from '../../plugins/versions';
import type { RequestActor } from '../rowRoutes';
import {
  AVAILABILITY_NOT_FOUND,
  availabilityRow,
  dentistExists,
  findAvailability,
} from './availabilityReads';
import { onDentistDay } from './daySettling';

/**
 * What a write to the availability keeps to (docs/product.md, Availability): who may change a day,
 * a dentist of the clinic, no day in the past, one day per dentist and date, the version last read;
 * and the messages its refusals say.
 */

export const NO_SUCH_DENTIST = 'No dentist with this id in your clinic';
export const AVAILABILITY_EXISTS =
  'Availability for this dentist on this date already exists; edit it instead';
export const DATE_IN_PAST = 'The date must not be in the past';
export const CHANGED_MEANWHILE =
  'This availability was changed by someone else meanwhile; reload it and try again';
export const OWN_AVAILABILITY_ONLY = 'A dentist may change only their own availability';
export const NOT_LINKED = 'Your account is not linked to a dentist record, so you cannot change availability';

/** The 400 of a dentist not of the clinic (or deleted meanwhile), on `dentist_id`. */
export const noSuchDentist = () => InvalidValue.of('dentist_id', NO_SUCH_DENTIST);
export const noSuchSlot = (start: string, end: string) => `No slot from ${start} to ${end} on this day`;

export const dayHoldsAppointments = (times: readonly string[], before = 'deleting the day') =>
  `This day has ${times.length === 1 ? 'an appointment' : `${times.length} appointments`} booked (${[...times]
    .sort()
    .join(', ')}): cancel or move ${times.length === 1 ? 'it' : 'them'} before ${before}`;

export const slotHoldsAppointment = (start: string, end: string, time: string) =>
  `The slot ${start}-${end} holds an appointment at ${time}: cancel or move it first`;

/** Admins write any dentist's availability; a dentist only that of the dentist record they are linked to. */
export function checkOwnership(staff: RequestActor, dentistId: number): void {
  if (staff.role !== 'dentist') return;
  if (staff.dentistId === null) throw new NotAllowed(NOT_LINKED);
  if (staff.dentistId !== dentistId) throw new NotAllowed(OWN_AVAILABILITY_ONLY);
}

export async function requireDentist(tx: Transaction, clinicId: number, dentistId: number) {
  const dentist = await dentistExists(tx, clinicId, dentistId);
  if (!dentist) throw noSuchDentist();
  return dentist;
}

/** A day written anew is today or later: else 400 on `field` (a range filled names its `from`). */
export async function requireNotPast(
  tx: Transaction,
  clinicId: number,
  date: string,
  field: 'date' | 'from' = 'date',
): Promise<void> {
  const today = await clinicToday(tx, clinicId);
  if (date < today) {
    throw new InvalidValue(`Invalid ${field}: ${DATE_IN_PAST} (today is ${today})`, [
      { field, message: DATE_IN_PAST },
    ]);
  }
}

/**
 * A write of new days for a dentist (a day added, or a range filled), done in one transaction with
 * the dentist read, once the staff member may change the dentist's days (403), the dentist is the
 * clinic's (400) and the first day, under the name the request gives it, is not past (400).
 */
export async function newDaysWrite<T>(
  db: Database,
  staff: RequestActor,
  dentistId: number,
  firstDay: { date: string } | { from: string },
  work: (tx: Transaction, dentist: Awaited<ReturnType<typeof requireDentist>>) => Promise<T>,
): Promise<T> {
  checkOwnership(staff, dentistId);
  return inTransaction(db, async (tx) => {
    const dentist = await requireDentist(tx, staff.clinicId, dentistId);
    if ('date' in firstDay) await requireNotPast(tx, staff.clinicId, firstDay.date);
    else await requireNotPast(tx, staff.clinicId, firstDay.from, 'from');
    return work(tx, dentist);
  });
}

const existsConflict = () =>
  new Conflict(AVAILABILITY_EXISTS, [{ field: 'date', message: AVAILABILITY_EXISTS }]);

export async function requireFreeDay(
  tx: Transaction,
  clinicId: number,
  dentistId: number,
  date: string,
  exceptId: number | null,
): Promise<void> {
  const sameDay = onDentistDay(availability, clinicId, dentistId, date);
  const [holder] = await tx
    .select({ id: availability.id })
    .from(availability)
    .where(exceptId === null ? sameDay : and(sameDay, ne(availability.id, exceptId)))
    .limit(1);
  if (holder) throw existsConflict();
}

/** The unique day index lost to a racing write, or a dentist deleted meanwhile: a clear answer. */
export async function inTransaction<T>(db: Database, work: (tx: Transaction) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(work);
  } catch (error) {
    const failure = databaseError(error, [UNIQUE_VIOLATION, FOREIGN_KEY_VIOLATION]);
    if (failure?.code === UNIQUE_VIOLATION) throw existsConflict();
    if (failure?.code === FOREIGN_KEY_VIOLATION) {
      throw noSuchDentist();
    }
    throw error;
  }
}

/**
 * The day a write changes, locked to the commit, if the staff member may change it (else 403) and it
 * is at the `expected` version (else 412: a precondition is judged after who may ask).
 */
export async function lockedAvailability(
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
    .where(availabilityRow(staff.clinicId, id))
    .for('update');
  if (!row) throw new NotFound(AVAILABILITY_NOT_FOUND);
  checkOwnership(staff, row.dentistId);
  requireVersion(row.version, expected);
  return row;
}

export async function answer(tx: Transaction, clinicId: number, id: number): Promise<WireAvailability> {
  const found = await findAvailability(tx, clinicId, id);
  if (!found) throw new Error('Availability vanished');
  return found;
}
