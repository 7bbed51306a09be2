import {
  chairTakenMessage,
  endTimeOf,
  heldOnlineMessage,
  minutesOf,
  noChairFreeMessage,
  timeOfMinutes,
  timeRange,
} from '@dental/shared/domain';
import { sql } from 'drizzle-orm';
import type { Database, Reader, Transaction } from '../../db/client';
import { EXCLUSION_VIOLATION, violated } from '../../db/databaseErrors';
import { Conflict } from '../../domain/errors';

/**
 * Two live visits of one dentist (in the dentist's minutes), one patient or one chair (with its
 * turnover) never overlap: the exclusion constraints refuse the write, and the 409 names the visit
 * in the way (docs/product.md, Validation rules; Chairs).
 */

/** Where a visit is to land: its dentist, patient, day, start and length. */
export interface Placement {
  dentistId: number;
  patientId: number;
  date: string;
  time: string;
  duration: number;
  /** The chair asked for; null when the database gives a free one. */
  chairId?: number | null;
  /** The treatment, whose dentist part (Settings) is the dentist's time in the visit. */
  treatment?: string;
}

const DENTIST_TIME = 'appointments_dentist_time_excl';
const PATIENT_TIME = 'appointments_patient_time_excl';
const CHAIR_TIME = 'appointments_chair_time_excl';
/** A live online hold has the chair or the dentist's minutes (migration 0036, appointments_hold_time). */
const HELD_ONLINE = 'booking_holds_time';

/** Whose time a write was refused for. */
export type Clash = 'dentist' | 'patient' | 'chair' | 'held';

/** The visit in the way, as the refusal names it. */
interface InTheWay {
  date: string;
  time: string;
  duration: number | string;
  turnover: number | string;
  dentist_from: number | string | null;
  dentist_to: number | string | null;
  patient_name: string;
  dentist_name: string;
  chair_name: string;
}

/**
 * The 409 for a write the exclusion constraints refused: names the visit in the way (its day and
 * time, and its patient, dentist or chair), read after the failed transaction has rolled back. The
 * dentist's minutes are their part of each visit (dentist_span), the chair's the visit and its
 * turnover (chair_span).
 */
export async function overlapConflict(
  db: Reader,
  clinicId: number,
  wanted: Placement,
  exceptId: number | null,
  clash: Clash,
): Promise<Conflict> {
  if (clash === 'held') return heldConflict(db, clinicId, wanted);
  const start = sql`(${wanted.date}::date - date '2000-01-01') * 1440 + ${minutesOf(wanted.time)}`;
  const wantedMinutes = sql`int4range(${start}, ${start} + ${wanted.duration})`;
  // The minutes the new visit needs its dentist (dentist_part, migration 0034): only they can clash.
  const wantedDentist = wanted.treatment
    ? sql`(select int4range(${start} + coalesce(lower(part), 0), ${start} + coalesce(upper(part), ${wanted.duration}))
        from (select dentist_part(${clinicId}, ${wanted.treatment}, ${wanted.duration}) as part) as parts)`
    : wantedMinutes;
  const whose =
    clash === 'patient'
      ? sql`a.patient_id = ${wanted.patientId} and a.span && ${wantedMinutes}`
      : clash === 'dentist'
        ? sql`a.dentist_id = ${wanted.dentistId} and a.dentist_span && ${wantedDentist}`
        : wanted.chairId
          ? sql`a.chair_id = ${wanted.chairId} and a.chair_span && ${wantedMinutes}`
          : sql`false`;
  const result = await db.execute(sql`
    select a.date::text as date, a.time, a.duration, a.turnover, a.dentist_from, a.dentist_to,
      a.patient_name, d.name as dentist_name,
      c.name as chair_name
    from appointments a join dentists d on d.clinic_id = a.clinic_id and d.id = a.dentist_id
      join chairs c on c.clinic_id = a.clinic_id and c.id = a.chair_id
    where a.clinic_id = ${clinicId} and a.status <> 'cancelled' and ${whose}
      ${exceptId === null ? sql`` : sql`and a.id <> ${exceptId}`}
    order by a.span limit 1`);
  const other = result.rows[0] as InTheWay | undefined;
  const wantedRange = timeRange(wanted.time, endTimeOf(wanted.time, wanted.duration));
  if (clash === 'chair') return chairConflict(other, wanted, wantedRange);
  if (clash === 'dentist' && other && other.dentist_from !== null && other.dentist_to !== null) {
    // The visit in the way needs its dentist for a part of it: that part is what is taken.
    const start = minutesOf(other.time);
    const part = timeRange(
      timeOfMinutes(start + Number(other.dentist_from)),
      timeOfMinutes(start + Number(other.dentist_to)),
    );
    return new Conflict(`${other.dentist_name} is with another patient ${part} (${other.patient_name})`, [
      { field: 'time', message: 'This time is taken' },
    ]);
  }
  const when = other
    ? `on ${other.date} at ${timeRange(other.time, endTimeOf(other.time, Number(other.duration)))}`
    : `on ${wanted.date} at ${wanted.time}`;
  const message =
    clash === 'patient'
      ? `${other?.patient_name ?? 'The patient'} already has an appointment ${when}${other ? ` with ${other.dentist_name}` : ''}`
      : `${other?.dentist_name ?? 'The dentist'} already has an appointment ${when}${other ? ` (${other.patient_name})` : ''}`;
  return new Conflict(message, [{ field: 'time', message: 'This time is taken' }]);
}

/** A patient holds the time online: the hold in the way, and how long it has left. */
async function heldConflict(db: Reader, clinicId: number, wanted: Placement): Promise<Conflict> {
  const result = await db.execute(sql`
    select h.time, h.duration,
      greatest(1, ceil(extract(epoch from h.expires_at - now()) / 60))::int as minutes_left
    from booking_holds h
    where h.clinic_id = ${clinicId} and h.date = ${wanted.date}::date and h.expires_at > now()
      and (h.dentist_id = ${wanted.dentistId} or h.chair_id = ${wanted.chairId ?? null})
    order by abs(${minutesOf(wanted.time)} - (substr(h.time, 1, 2)::int * 60 + substr(h.time, 4, 2)::int))
    limit 1`);
  const hold = result.rows[0] as
    | { time: string; duration: number | string; minutes_left: number | string }
    | undefined;
  const range = hold
    ? timeRange(hold.time, endTimeOf(hold.time, Number(hold.duration)))
    : timeRange(wanted.time, endTimeOf(wanted.time, wanted.duration));
  return new Conflict(heldOnlineMessage(range, hold ? Number(hold.minutes_left) : 1), [
    { field: 'time', message: 'This time is held online' },
  ]);
}

/** The chair asked for is taken ("Chair 2 is taken 10:00–10:40"), or none was asked and none is free. */
function chairConflict(other: InTheWay | undefined, wanted: Placement, wantedRange: string): Conflict {
  if (!wanted.chairId || !other) {
    return new Conflict(noChairFreeMessage(wanted.date, wantedRange), [
      { field: 'time', message: 'No chair is free at this time' },
    ]);
  }
  const held = timeRange(other.time, endTimeOf(other.time, Number(other.duration) + Number(other.turnover)));
  return new Conflict(chairTakenMessage(other.chair_name, held), [
    { field: 'chair_id', message: 'This chair is taken at this time' },
  ]);
}

/** How many times a booking that was given a chair is tried again when another desk took that chair first. */
const CHAIR_RACE_RETRIES = 3;

/**
 * Runs a write; when an exclusion constraint refuses it (an overlap with another live visit of the
 * dentist, the patient or the chair), answers 409 naming the visit in the way. The whole transaction
 * is rolled back, so a refused booking leaves nothing behind (no new patient either). A write that
 * asked for no chair and lost its given chair to a concurrent booking is tried again, and is given
 * another free chair.
 */
export async function bookingWrite<T>(
  db: Database,
  clinicId: number,
  exceptId: number | null,
  work: (tx: Transaction, place: (wanted: Placement) => void) => Promise<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
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
      if (clash === 'chair' && !placed.wanted.chairId && attempt < CHAIR_RACE_RETRIES) continue;
      throw await overlapConflict(db, clinicId, placed.wanted, exceptId, clash);
    }
  }
}

/** Whose time an exclusion constraint refused a write for (the dentist's first), or null for another error. */
export function clashOf(error: unknown): Clash | null {
  if (violated(error, [EXCLUSION_VIOLATION], DENTIST_TIME)) return 'dentist';
  if (violated(error, [EXCLUSION_VIOLATION], PATIENT_TIME)) return 'patient';
  if (violated(error, [EXCLUSION_VIOLATION], CHAIR_TIME)) return 'chair';
  if (violated(error, [EXCLUSION_VIOLATION], HELD_ONLINE)) return 'held';
  return null;
}
