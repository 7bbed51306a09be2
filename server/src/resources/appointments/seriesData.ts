import {
  type Appointment,
  type AppointmentStatus,
  type AppointmentWrite,
  minutesOf,
  type OccurrenceCheck,
  type OccurrenceChoice,
  occurrenceField,
  refusedOccurrenceMessage,
  SERIES_TOO_LONG_MESSAGE,
  SERIES_VISITS_MAX,
  type SeriesBooking,
  type SeriesCheck,
  type SeriesCheckAnswer,
  seriesDates,
} from '@dental/shared/domain';
import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { Database, Reader, Transaction } from '../../db/client';
import { addDays } from '../../db/clinicTime';
import { appointmentSeries, appointments } from '../../db/schema';
import { Conflict, DomainError, type FieldProblem, InvalidValue, NotFound } from '../../domain/errors';
import type { ExpectedVersion } from '../../plugins/versions';
import { type DentistDays, freeTimesOf } from '../availability/openHours';
import { dentistDaysOf } from '../dentists/dentistReads';
import { readSettings } from '../settings/settingsData';
import { APPOINTMENT_NOT_FOUND, findAppointment } from './appointmentReads';
import { type Actor, NO_ACTIVE_DENTIST } from './bookingRules';
import { bookVisit } from './visitBooking';
import { editVisit, setVisitStatus } from './visitChanges';
import { clashOf, overlapConflict, type Placement } from './visitOverlaps';

/**
 * Recurring visits (migration 0022). Every visit of a series is booked, edited or cancelled through
 * the single visit's own write (bookVisit, editVisit, setVisitStatus), so the same rules, audit
 * records, events and messages hold each; a series only runs them together in one transaction.
 */

/** Thrown to end the dry run's transaction: nothing it tried is kept. */
class DryRunDone extends Error {
  constructor(readonly answer: SeriesCheckAnswer) {
    super('dry run');
  }
}

/** A refusal that belongs to one visit of a series (its day or time), not to the whole request. */
const concernsTheVisit = (error: unknown): error is DomainError =>
  error instanceof DomainError &&
  (error instanceof Conflict ||
    (error.errors ?? []).some((item) => item.field === 'date' || item.field === 'time'));

/** The same refusal (its class, so its answer's status) in other words: a visit's refusal said of the series. */
function restated(refusal: DomainError, message: string, errors: FieldProblem[]): DomainError {
  const Kind = refusal.constructor as new (message: string, errors?: FieldProblem[]) => DomainError;
  return new Kind(message, errors);
}

/** The days of the rule, refused (400) past SERIES_VISITS_MAX. */
function datesOf(body: SeriesCheck): string[] {
  const dates = seriesDates(body.visit.date, body.repeat);
  if (dates.length > SERIES_VISITS_MAX) {
    const field = body.repeat.until === undefined ? 'repeat.count' : 'repeat.until';
    throw new InvalidValue(SERIES_TOO_LONG_MESSAGE, [{ field, message: SERIES_TOO_LONG_MESSAGE }]);
  }
  return dates;
}

/**
 * The free start on `date` nearest to `time` (free-times rule: open hours, the dentist's and the
 * patient's visits, the booking grid), else the next day's nearest; null when neither day has one.
 */
async function nearestFreeTime(
  db: Reader,
  clinicId: number,
  dentist: DentistDays,
  wanted: { date: string; time: string; duration: number; patientId?: number },
): Promise<{ date: string; time: string } | null> {
  for (const date of [wanted.date, addDays(wanted.date, 1)]) {
    const free = await freeTimesOf(db, clinicId, dentist, {
      date,
      duration: wanted.duration,
      patientId: wanted.patientId,
    });
    const asked = minutesOf(wanted.time);
    const [nearest] = [...free.times].sort(
      (a, b) =>
        Math.abs(minutesOf(a) - asked) - Math.abs(minutesOf(b) - asked) || minutesOf(a) - minutesOf(b),
    );
    if (nearest) return { date, time: nearest };
  }
  return null;
}

/**
 * The dry run of a series: each day of the rule is booked as it would be, in order, inside one
 * transaction that is then rolled back (each visit in a savepoint, so a refused one does not stop
 * the next, and the later ones are checked against the earlier ones). A refused one says why and
 * the nearest free time that day or the next.
 */
export async function checkSeries(db: Database, actor: Actor, body: SeriesCheck): Promise<SeriesCheckAnswer> {
  const { clinicId } = actor;
  const dates = datesOf(body);
  const dentist = await dentistDaysOf(db, clinicId, body.visit.dentistId);
  if (!dentist) throw new InvalidValue(`Invalid dentist_id: ${NO_ACTIVE_DENTIST}`);
  try {
    await db.transaction(async (tx) => {
      const duration =
        body.visit.duration ?? (await readSettings(tx, clinicId)).treatmentMinutes[body.visit.treatment];
      let patientId = body.visit.patientId ?? undefined;
      const occurrences: OccurrenceCheck[] = [];
      for (const date of dates) {
        const input: AppointmentWrite = { ...body.visit, date, patientId: patientId ?? null };
        const placed: { wanted?: Placement } = {};
        try {
          const booked = await tx.transaction((savepoint) =>
            bookVisit(savepoint, actor, input, (wanted) => {
              placed.wanted = wanted;
            }),
          );
          patientId = booked.patient_id;
          occurrences.push({ date, time: input.time, state: 'ok', message: null, nearest: null });
        } catch (error) {
          const message = await refusalMessage(tx, clinicId, error, placed.wanted);
          const nearest = await nearestFreeTime(tx, clinicId, dentist, {
            date,
            time: input.time,
            duration,
            patientId: placed.wanted?.patientId ?? patientId,
          });
          occurrences.push({ date, time: input.time, state: 'refused', message, nearest });
        }
      }
      throw new DryRunDone({ duration, occurrences });
    });
  } catch (error) {
    if (error instanceof DryRunDone) return error.answer;
    throw error;
  }
  throw new Error('The dry run ended without its answer');
}

/** Why one visit of the dry run was refused; an error that is not about the visit is thrown on. */
async function refusalMessage(
  tx: Transaction,
  clinicId: number,
  error: unknown,
  wanted: Placement | undefined,
): Promise<string> {
  const clash = clashOf(error);
  if (clash && wanted) return (await overlapConflict(tx, clinicId, wanted, null, clash)).message;
  if (concernsTheVisit(error)) return error.message;
  throw error;
}

/** The 409 (or 400) of the visit at `index` of `size`, naming it; other errors pass as they are. */
async function refusalOfVisit(
  db: Database,
  clinicId: number,
  error: unknown,
  failing: {
    index: number;
    size: number;
    visit: OccurrenceChoice;
    wanted?: Placement;
    exceptId: number | null;
  },
): Promise<unknown> {
  const clash = clashOf(error);
  const refusal =
    clash && failing.wanted
      ? await overlapConflict(db, clinicId, failing.wanted, failing.exceptId, clash)
      : error;
  if (!concernsTheVisit(refusal)) return refusal;
  return restated(
    refusal,
    refusedOccurrenceMessage(failing.index, failing.size, failing.visit, refusal.message),
    [{ field: occurrenceField(failing.index), message: refusal.message }],
  );
}

/**
 * Books a series: its rule and the visits as staff chose them, all in one transaction. The visits
 * take their places in the series in date and time order; a refused one rolls back them all and the
 * 409 names it by its index in `occurrences` (occurrenceField).
 */
export async function bookSeries(
  db: Database,
  actor: Actor,
  body: SeriesBooking,
): Promise<{ series_id: number; data: Appointment[] }> {
  const { clinicId } = actor;
  const inOrder = body.occurrences
    .map((visit, index) => ({ visit, index }))
    .sort((a, b) => a.visit.date.localeCompare(b.visit.date) || a.visit.time.localeCompare(b.visit.time));
  const size = body.occurrences.length;
  const failing: { index: number; visit: OccurrenceChoice; wanted?: Placement } = {
    index: 0,
    visit: body.occurrences[0] as OccurrenceChoice,
  };
  try {
    return await db.transaction(async (tx) => {
      const [series] = await tx
        .insert(appointmentSeries)
        .values({
          clinicId,
          every: body.repeat.every,
          unit: body.repeat.unit,
          count: body.repeat.count ?? null,
          until: body.repeat.until ?? null,
          createdBy: actor.userId,
        })
        .returning({ id: appointmentSeries.id });
      if (!series) throw new Error('Series insert returned no row');
      let patientId = body.visit.patientId;
      const booked: Appointment[] = new Array(size);
      for (const [place, { visit, index }] of inOrder.entries()) {
        failing.index = index;
        failing.visit = visit;
        failing.wanted = undefined;
        const input: AppointmentWrite = { ...body.visit, ...visit, patientId };
        const appointment = await bookVisit(
          tx,
          actor,
          input,
          (wanted) => {
            failing.wanted = wanted;
          },
          { seriesId: series.id, position: place + 1 },
        );
        patientId = appointment.patient_id;
        booked[index] = appointment;
      }
      // Each visit was read as booked so far; its place reads right once all are in.
      const data = await readBooked(
        tx,
        clinicId,
        booked.map((appointment) => appointment.id),
      );
      return { series_id: series.id, data };
    });
  } catch (error) {
    throw await refusalOfVisit(db, clinicId, error, { ...failing, size, exceptId: null });
  }
}

/** The visits of `ids`, as answered, in the order of `ids`. */
async function readBooked(tx: Transaction, clinicId: number, ids: number[]): Promise<Appointment[]> {
  const rows: Appointment[] = [];
  for (const id of ids) rows.push((await findAppointment(tx, clinicId, id)) as Appointment);
  return rows;
}

/** The statuses of a visit that "this and the following" still changes: not cancelled, not completed. */
const LIVE_FOLLOWING: AppointmentStatus[] = ['pending', 'confirmed'];

/** The visits after `appointmentId` in its series (by place) that are still pending or confirmed. */
async function followingVisits(
  tx: Transaction,
  clinicId: number,
  appointmentId: number,
): Promise<{ id: number; date: string; time: string; position: number }[]> {
  const [clicked] = await tx
    .select({ seriesId: appointments.seriesId, position: appointments.seriesPosition })
    .from(appointments)
    .where(and(eq(appointments.clinicId, clinicId), eq(appointments.id, appointmentId)));
  if (!clicked) throw new NotFound(APPOINTMENT_NOT_FOUND);
  if (clicked.seriesId === null || clicked.position === null) return [];
  const rows = await tx
    .select({
      id: appointments.id,
      date: appointments.date,
      time: appointments.time,
      position: appointments.seriesPosition,
    })
    .from(appointments)
    .where(
      and(
        eq(appointments.clinicId, clinicId),
        eq(appointments.seriesId, clicked.seriesId),
        gt(appointments.seriesPosition, clicked.position),
        inArray(appointments.status, LIVE_FOLLOWING),
      ),
    )
    .orderBy(asc(appointments.seriesPosition));
  return rows.map((row) => ({ ...row, position: row.position ?? 0 }));
}

/**
 * Runs `write` on the visit clicked (under its If-Match) and then on each following visit of its
 * series, in one transaction: a refusal of any rolls back all, and its 409 names the visit refused.
 * Answers the clicked visit as it is left. A visit outside a series is written alone.
 */
async function thisAndFollowing(
  db: Database,
  actor: Actor,
  appointmentId: number,
  expected: ExpectedVersion,
  write: (
    tx: Transaction,
    visit: { id: number; date: string; expected: ExpectedVersion; clicked: Appointment | null },
    place: (wanted: Placement) => void,
  ) => Promise<Appointment>,
): Promise<Appointment> {
  const { clinicId } = actor;
  const failing: {
    /** Until the clicked visit is written, a refusal is its own, answered as a single write's. */
    following: boolean;
    index: number;
    size: number;
    visit: OccurrenceChoice;
    wanted?: Placement;
    exceptId: number;
  } = { following: false, index: 0, size: 1, visit: { date: '', time: '' }, exceptId: appointmentId };
  const place = (wanted: Placement) => {
    failing.wanted = wanted;
  };
  try {
    return await db.transaction(async (tx) => {
      const following = await followingVisits(tx, clinicId, appointmentId);
      const clicked = await write(tx, { id: appointmentId, date: '', expected, clicked: null }, place);
      failing.size = clicked.series?.size ?? 1;
      for (const visit of following) {
        Object.assign(failing, {
          following: true,
          index: visit.position - 1,
          visit: { date: visit.date, time: visit.time },
          wanted: undefined,
          exceptId: visit.id,
        });
        await write(tx, { id: visit.id, date: visit.date, expected: null, clicked }, place);
      }
      return clicked;
    });
  } catch (error) {
    if (!failing.following) throw await refusalOfClicked(db, clinicId, error, failing);
    throw await refusalOfVisit(db, clinicId, error, failing);
  }
}

async function refusalOfClicked(
  db: Database,
  clinicId: number,
  error: unknown,
  failing: { wanted?: Placement; exceptId: number },
): Promise<unknown> {
  const clash = clashOf(error);
  return clash && failing.wanted
    ? overlapConflict(db, clinicId, failing.wanted, failing.exceptId, clash)
    : error;
}

/**
 * "This and the following" of a status change: the clicked visit takes `status`, and so does each
 * later visit of its series that is still pending or confirmed (cancelled and completed ones stay).
 */
export function setSeriesStatusFrom(
  db: Database,
  actor: Actor,
  appointmentId: number,
  status: AppointmentStatus,
  expected: ExpectedVersion,
): Promise<Appointment> {
  return thisAndFollowing(db, actor, appointmentId, expected, (tx, visit, place) =>
    setVisitStatus(tx, actor, visit.id, status, visit.expected, place),
  );
}

/**
 * "This and the following" of an edit: the clicked visit takes the edit whole (its day too); each
 * later visit of its series that is still pending or confirmed keeps its own day and status and takes
 * the rest of it: the patient, the start time, the length, the dentist, the treatment, the notes
 * and an outside-hours reason.
 */
export function editSeriesFrom(
  db: Database,
  actor: Actor,
  appointmentId: number,
  input: AppointmentWrite,
  expected: ExpectedVersion,
): Promise<Appointment> {
  return thisAndFollowing(db, actor, appointmentId, expected, (tx, visit, place) =>
    visit.clicked
      ? editVisit(
          tx,
          actor,
          visit.id,
          { ...input, date: visit.date, status: undefined, patientId: visit.clicked.patient_id },
          visit.expected,
          place,
        )
      : editVisit(tx, actor, visit.id, input, visit.expected, place),
  );
}
