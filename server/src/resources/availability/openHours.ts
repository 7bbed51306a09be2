import {
  type DayRecord,
  type FreeTimes,
  freeStarts,
  minutesOf,
  type NoTimeReason,
  noTimeMessage,
  type OpenHours,
  openHoursOn,
  type PracticeSettings,
  type Span,
  type Treatment,
  timeOfMinutes,
  workingHoursOf,
} from '@dental/shared/domain';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client';
import { clinicNow } from '../../db/clinicTime';
import { availability, dentists, type TimeSlot } from '../../db/schema';
import { readSettings } from '../settings/settingsData';
import { onDentistDay } from './daySettling';

type Reader = Database | Transaction;

/** A dentist as the open-hours rule reads them. */
export interface DentistDays {
  id: number;
  name: string;
  workingDays: string;
}

/** The columns of `dentists` a DentistDays is read from. */
export const dentistDaysColumns = { id: dentists.id, name: dentists.name, workingDays: dentists.workingDays };

/** A day's availability record as openHoursOn reads it. */
const dayRecordOf = (day: { status: string; timeSlots: unknown } | undefined): DayRecord | null =>
  day
    ? { status: day.status === 'inactive' ? 'inactive' : 'active', slots: day.timeSlots as TimeSlot[] }
    : null;

/** The dentist's open time on `date` (openHoursOn), from the day's availability, their days and Settings. */
export async function openHoursOf(
  db: Reader,
  clinicId: number,
  dentist: DentistDays,
  date: string,
  settings?: PracticeSettings,
): Promise<OpenHours> {
  const [day] = await db
    .select({ status: availability.status, timeSlots: availability.timeSlots })
    .from(availability)
    .where(onDentistDay(availability, clinicId, dentist.id, date));
  const practice = settings ?? (await readSettings(db, clinicId));
  return openHoursOn(date, dayRecordOf(day), workingHoursOf(dentist.workingDays), practice.workingHours);
}

/** A visit being moved, left out of what is taken. */
const exceptVisit = (exceptId: number | undefined) =>
  exceptId === undefined ? sql`` : sql`and a.id <> ${exceptId}`;

/** What live visits and online holds take on a day: each dentist's part, and the patient's whole visits. */
interface TakenMinutes {
  dentist: Map<number, Span[]>;
  patient: Span[];
}

/**
 * The minutes (of the day, 0-1440 and past midnight) that live visits hold on `date` for each of
 * the dentists (their part of each visit, dentist_span) and for the patient when one is named (the
 * whole visit), leaving out `exceptId` (a visit being moved). Read through the exclusion constraints'
 * gist indexes, in one statement for all the dentists.
 */
async function takenMinutes(
  db: Reader,
  clinicId: number,
  date: string,
  holders: { dentistIds: number[]; patientId?: number; exceptId?: number },
): Promise<TakenMinutes> {
  const dayStart = sql`(${date}::date - date '2000-01-01') * 1440`;
  const day = sql`int4range(${dayStart}, ${dayStart} + 1440)`;
  // One dentist by equality: the gist index answers `=` alone (index only), `= any(…)` only by a bitmap scan.
  const [only] = holders.dentistIds;
  const ofDentists = (column: SQL) =>
    holders.dentistIds.length === 1 && only !== undefined
      ? sql`${column} = ${only}`
      : sql`${column} = any(${`{${holders.dentistIds.join(',')}}`}::int[])`;
  const patient =
    holders.patientId === undefined
      ? sql``
      : sql`union all
        select 'patient', null, lower(a.span) - ${dayStart}, upper(a.span) - ${dayStart} from appointments a
        where a.clinic_id = ${clinicId} and a.status <> 'cancelled' and a.patient_id = ${holders.patientId}
          and a.span && ${day} ${exceptVisit(holders.exceptId)}`;
  // A time a patient holds online (migration 0036) holds its dentist's part like a visit until it ends.
  const result = await db.execute(sql`
    select 'dentist' as whose, a.dentist_id, lower(a.dentist_span) - ${dayStart} as start,
      upper(a.dentist_span) - ${dayStart} as end
    from appointments a
    where a.clinic_id = ${clinicId} and a.status <> 'cancelled' and ${ofDentists(sql`a.dentist_id`)}
      and a.dentist_span && ${day} ${exceptVisit(holders.exceptId)}
    union all
    select 'dentist', h.dentist_id, lower(h.dentist_span) - ${dayStart}, upper(h.dentist_span) - ${dayStart}
    from booking_holds h
    where h.clinic_id = ${clinicId} and ${ofDentists(sql`h.dentist_id`)} and h.date = ${date}::date
      and h.expires_at > now()
    ${patient}
  `);
  const taken: TakenMinutes = { dentist: new Map(), patient: [] };
  for (const row of result.rows as Array<{
    whose: 'dentist' | 'patient';
    dentist_id: number | string | null;
    start: number | string;
    end: number | string;
  }>) {
    const span = { start: Number(row.start), end: Number(row.end) };
    if (row.whose === 'patient') {
      taken.patient.push(span);
      continue;
    }
    const dentistId = Number(row.dentist_id);
    taken.dentist.set(dentistId, [...(taken.dentist.get(dentistId) ?? []), span]);
  }
  return taken;
}

/** A chair a visit could take on a day: the minutes its visits hold, and its default dentist. */
interface ChairDay {
  id: number;
  defaultDentistId: number | null;
  held: Span[];
}

/**
 * The clinic's chairs in service (or the one asked for), in the clinic's order, each with the minutes
 * its live visits and their turnover hold on `date` and the times patients hold online, read in one
 * walk of the chairs' exclusion index whatever the number of dentists asked about.
 */
async function chairDay(
  db: Reader,
  clinicId: number,
  date: string,
  query: { chairId?: number; exceptId?: number; bookableOnline?: boolean },
): Promise<ChairDay[]> {
  const chairs = await db.execute(sql`
    select c.id, c.default_dentist_id
    from chairs c
    where c.clinic_id = ${clinicId} and c.retired_at is null and c.in_service
      ${query.chairId === undefined ? sql`` : sql`and c.id = ${query.chairId}`}
      ${query.bookableOnline ? sql`and c.bookable_online` : sql``}
    order by c.position, c.id`);
  const dayStart = sql`(${date}::date - date '2000-01-01') * 1440`;
  const held = await db.execute(sql`
    select a.chair_id, lower(a.chair_span) - ${dayStart} as start, upper(a.chair_span) - ${dayStart} as end
    from appointments a
    where a.clinic_id = ${clinicId} and a.status <> 'cancelled'
      and a.chair_span && int4range(${dayStart} - 1440, ${dayStart} + 2880) ${exceptVisit(query.exceptId)}
    union all
    select h.chair_id, lower(h.chair_span) - ${dayStart}, upper(h.chair_span) - ${dayStart}
    from booking_holds h
    where h.clinic_id = ${clinicId} and h.date between ${date}::date - 1 and ${date}::date + 1
      and h.expires_at > now()`);
  const heldBy = new Map<number, Span[]>();
  for (const row of held.rows as Array<{
    chair_id: number | string;
    start: number | string;
    end: number | string;
  }>) {
    const chairId = Number(row.chair_id);
    heldBy.set(chairId, [...(heldBy.get(chairId) ?? []), { start: Number(row.start), end: Number(row.end) }]);
  }
  return (chairs.rows as Array<{ id: number | string; default_dentist_id: number | string | null }>).map(
    (row) => ({
      id: Number(row.id),
      defaultDentistId: row.default_dentist_id === null ? null : Number(row.default_dentist_id),
      held: heldBy.get(Number(row.id)) ?? [],
    }),
  );
}

/** The chairs in the order the database gives one to a dentist's visit (appointments_hold_time): theirs first. */
const chairsFor = (chairs: readonly ChairDay[], dentistId: number) => [
  ...chairs.filter((chair) => chair.defaultDentistId === dentistId),
  ...chairs.filter((chair) => chair.defaultDentistId !== dentistId),
];

/** When the dentist is needed in a visit of `treatment` lasting `duration` minutes (dentist_part, migration 0034). */
async function dentistPartOf(
  db: Reader,
  clinicId: number,
  treatment: Treatment | undefined,
  duration: number,
): Promise<Span> {
  if (!treatment) return { start: 0, end: duration };
  const result = await db.execute(
    sql`select lower(part) as start, upper(part) as end from dentist_part(${clinicId}, ${treatment}, ${duration}) as part`,
  );
  const row = result.rows[0] as { start: number | string | null; end: number | string | null } | undefined;
  return row?.start === null || row?.start === undefined || row.end === null
    ? { start: 0, end: duration }
    : { start: Number(row.start), end: Number(row.end) };
}

const overlapsAny = (start: number, end: number, spans: readonly Span[]) =>
  spans.some((span) => span.start < end && start < span.end);

/** What a free-times answer asks: the day, the visit, and whose time besides the dentist's counts. */
export interface FreeTimesQuery {
  date: string;
  duration?: number;
  treatment?: Treatment;
  exceptId?: number;
  patientId?: number;
  chairId?: number;
  /** Only chairs the clinic lets patients book online (the public booking page). */
  bookableOnline?: boolean;
  /** No start before this clinic date and time (online booking's notice); now when earlier or unset. */
  earliest?: { date: string; time: string };
}

/**
 * The starts on the clinic's booking grid where a visit of `duration` minutes fits the dentist's
 * open hours, the dentist's part of it meets none of their other visits' parts, the patient (when
 * named) is free throughout, and a chair in service (the one asked for, or any) is free for the
 * visit and the clinic's turnover; the past hours of today are left out. Each start says the chair
 * a booking would take. When none is left, `reason` and `message` say why.
 */
export async function freeTimesOf(
  db: Reader,
  clinicId: number,
  dentist: DentistDays,
  query: FreeTimesQuery,
): Promise<FreeTimes> {
  const [free] = await freeTimesOfDentists(db, clinicId, [dentist], query);
  if (!free) throw new Error('free times were asked for one dentist and none came back');
  return free;
}

/**
 * freeTimesOf for several dentists on one day (the booking page's "any dentist"), in the order
 * given: the clinic's settings, the dentists' days, their taken minutes and the chairs are each read
 * once for all of them, so an answer costs the same few statements for one dentist or sixty.
 */
export async function freeTimesOfDentists(
  db: Reader,
  clinicId: number,
  dentistsAsked: readonly DentistDays[],
  query: FreeTimesQuery,
): Promise<FreeTimes[]> {
  if (dentistsAsked.length === 0) return [];
  const settings = await readSettings(db, clinicId);
  // Without a length: the treatment's, else the shortest treatment's (the most a day can offer).
  const duration =
    query.duration ??
    (query.treatment
      ? settings.treatmentMinutes[query.treatment]
      : Math.min(...Object.values(settings.treatmentMinutes)));
  const dentistIds = dentistsAsked.map((dentist) => dentist.id);
  const days = await db
    .select({
      dentistId: availability.dentistId,
      status: availability.status,
      timeSlots: availability.timeSlots,
    })
    .from(availability)
    .where(
      and(
        eq(availability.clinicId, clinicId),
        inArray(availability.dentistId, dentistIds),
        eq(availability.date, query.date),
      ),
    );
  const now = await clinicNow(db, clinicId);
  // Nothing of a past day is offered, nor a start of today that has gone by (nor one inside the notice).
  const asked = query.earliest;
  const from =
    asked && (asked.date > now.date || (asked.date === now.date && asked.time > now.time)) ? asked : now;
  const notBefore = query.date < from.date ? 24 * 60 : query.date === from.date ? minutesOf(from.time) : 0;
  const taken = await takenMinutes(db, clinicId, query.date, {
    dentistIds,
    patientId: query.patientId,
    exceptId: query.exceptId,
  });
  const part = await dentistPartOf(db, clinicId, query.treatment, duration);
  // The clinic's turnover, as the settings read above answer it (the trigger reads the same column).
  const turnover = settings.turnoverMinutes;
  const chairs = await chairDay(db, clinicId, query.date, query);
  return dentistsAsked.map((dentist) => {
    const open = openHoursOn(
      query.date,
      dayRecordOf(days.find((day) => day.dentistId === dentist.id)),
      workingHoursOf(dentist.workingDays),
      settings.workingHours,
    );
    const dentistTaken = taken.dentist.get(dentist.id) ?? [];
    const ordered = chairsFor(chairs, dentist.id);
    const slots: Array<{ time: string; chair_id: number }> = [];
    for (const time of freeStarts(
      open.spans,
      taken.patient,
      duration,
      settings.bookingGridMinutes,
      notBefore,
    )) {
      const start = minutesOf(time);
      if (overlapsAny(start + part.start, start + part.end, dentistTaken)) continue;
      const chair = ordered.find((one) => !overlapsAny(start, start + duration + turnover, one.held));
      if (chair) slots.push({ time, chair_id: chair.id });
    }
    const timeLeft = open.spans.some((span) => span.end > notBefore);
    const reason: NoTimeReason | null = slots.length
      ? null
      : query.date < now.date
        ? 'day_passed'
        : (open.closedBecause ?? (timeLeft ? 'fully_booked' : 'day_passed'));
    return {
      date: query.date,
      duration,
      times: slots.map((slot) => slot.time),
      slots,
      open: open.spans.map((span) => ({ start: timeOfMinutes(span.start), end: timeOfMinutes(span.end) })),
      reason,
      message: reason ? noTimeMessage(reason, dentist.name, query.date) : null,
    };
  });
}
