import { endTimeOf, minutesOf, timeRange } from '@dental/shared/domain';
import { sql } from 'drizzle-orm';
import type { Database, Reader, Transaction } from '../../db/client';
import { EXCLUSION_VIOLATION, violated } from '../../db/databaseErrors';
import { Conflict } from '../../domain/errors';

/**
 * Two live visits of one dentist or one patient never overlap: the exclusion constraints refuse the
 * write, and the 409 names the visit in the way (docs/product.md, Validation rules).
 */

/** Where a visit is to land: its dentist, patient, day, start and length. */
export interface Placement {
  dentistId: number;
  patientId: number;
  date: string;
  time: string;
  duration: number;
}

const DENTIST_TIME = 'appointments_dentist_time_excl';
const PATIENT_TIME = 'appointments_patient_time_excl';

/**
 * The 409 for a write the exclusion constraints refused: names the visit in the way (its day and
 * time, and its patient or dentist), read after the failed transaction has rolled back.
 */
export async function overlapConflict(
  db: Reader,
  clinicId: number,
  wanted: Placement,
  exceptId: number | null,
  byPatient: boolean,
): Promise<Conflict> {
  const start = sql`(${wanted.date}::date - date '2000-01-01') * 1440 + ${minutesOf(wanted.time)}`;
  const result = await db.execute(sql`
    select a.date::text as date, a.time, a.duration, a.patient_name, d.name as dentist_name
    from appointments a join dentists d on d.clinic_id = a.clinic_id and d.id = a.dentist_id
    where a.clinic_id = ${clinicId} and a.status <> 'cancelled'
      and ${byPatient ? sql`a.patient_id = ${wanted.patientId}` : sql`a.dentist_id = ${wanted.dentistId}`}
      and a.span && int4range(${start}, ${start} + ${wanted.duration})
      ${exceptId === null ? sql`` : sql`and a.id <> ${exceptId}`}
    order by a.span limit 1`);
  const other = result.rows[0] as
    | { date: string; time: string; duration: number | string; patient_name: string; dentist_name: string }
    | undefined;
  const when = other
    ? `on ${other.date} at ${timeRange(other.time, endTimeOf(other.time, Number(other.duration)))}`
    : `on ${wanted.date} at ${wanted.time}`;
  const message = byPatient
    ? `${other?.patient_name ?? 'The patient'} already has an appointment ${when}${other ? ` with ${other.dentist_name}` : ''}`
    : `${other?.dentist_name ?? 'The dentist'} already has an appointment ${when}${other ? ` (${other.patient_name})` : ''}`;
  return new Conflict(message, [{ field: 'time', message: 'This time is taken' }]);
}

/**
 * Runs a write; when an exclusion constraint refuses it (an overlap with another live visit of the
 * dentist or the patient), answers 409 naming the visit in the way. The whole transaction is rolled
 * back, so a refused booking leaves nothing behind (no new patient either).
 */
export async function bookingWrite<T>(
  db: Database,
  clinicId: number,
  exceptId: number | null,
  work: (tx: Transaction, place: (wanted: Placement) => void) => Promise<T>,
): Promise<T> {
  // Where the work said the visit lands, so that the 409 can name the visit in its way.
  const placed: { wanted?: Placement } = {};
  try {
    return await db.transaction((tx) =>
      work(tx, (wanted) => {
        placed.wanted = wanted;
      }),
    );
  } catch (error) {
    const clash = clashOf(error);
    if (!placed.wanted || !clash) throw error;
    throw await overlapConflict(db, clinicId, placed.wanted, exceptId, clash === 'patient');
  }
}

/** Whose time an exclusion constraint refused a write for (the dentist's first), or null for another error. */
export function clashOf(error: unknown): 'dentist' | 'patient' | null {
  if (violated(error, [EXCLUSION_VIOLATION], DENTIST_TIME)) return 'dentist';
  if (violated(error, [EXCLUSION_VIOLATION], PATIENT_TIME)) return 'patient';
  return null;
}
