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
import { sql } from 'drizzle-orm';
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
  const record: DayRecord | null = day
    ? { status: day.status === 'inactive' ? 'inactive' : 'active', slots: day.timeSlots as TimeSlot[] }
    : null;
  const practice = settings ?? (await readSettings(db, clinicId));
  return openHoursOn(date, record, workingHoursOf(dentist.workingDays), practice.workingHours);
}

/** A visit being moved, left out of what is taken. */
const exceptVisit = (exceptId: number | undefined) =>
  exceptId === undefined ? sql`` : sql`and a.id <> ${exceptId}`;

/**
 * The minutes (of the day, 0-1440 and past midnight) that live visits hold on `date` for the dentist
 * (their part of each visit, dentist_span) or the patient when one is named (the whole visit),
 * leaving out `exceptId` (a visit being moved). Read through the exclusion constraints' gist indexes.
 */
export async function takenSpans(
  db: Reader,
  clinicId: number,
  date: string,
  holders: { dentistId: number; patientId?: number; exceptId?: number },
): Promise<{ dentist: Span[]; patient: Span[] }> {
  const dayStart = sql`(${date}::date - date '2000-01-01') * 1440`;
  const day = sql`int4range(${dayStart}, ${dayStart} + 1440)`;
  const patient =
    holders.patientId === undefined
      ? sql``
      : sql`union all
        select 'patient', lower(a.span) - ${dayStart}, upper(a.span) - ${dayStart} from appointments a
        where a.clinic_id = ${clinicId} and a.status <> 'cancelled' and a.patient_id = ${holders.patientId}
          and a.span && ${day} ${exceptVisit(holders.exceptId)}`;
  // A time a patient holds online (migration 0036) holds its dentist's part like a visit until it ends.
  const result = await db.execute(sql`
    select 'dentist' as whose, lower(a.dentist_span) - ${dayStart} as start, upper(a.dentist_span) - ${dayStart} as end
    from appointments a
    where a.clinic_id = ${clinicId} and a.status <> 'cancelled' and a.dentist_id = ${holders.dentistId}
      and a.dentist_span && ${day} ${exceptVisit(holders.exceptId)}
    union all
    select 'dentist', lower(h.dentist_span) - ${dayStart}, upper(h.dentist_span) - ${dayStart}
    from booking_holds h
    where h.clinic_id = ${clinicId} and h.dentist_id = ${holders.dentistId} and h.date = ${date}::date
      and h.expires_at > now()
    ${patient}
  `);
  const spans = { dentist: [] as Span[], patient: [] as Span[] };
  for (const row of result.rows as Array<{
    whose: 'dentist' | 'patient';
    start: number | string;
    end: number | string;
  }>)
    spans[row.whose].push({ start: Number(row.start), end: Number(row.end) });
  return spans;
}

/** A chair a visit could take on a day: its place in the order and the minutes its visits hold. */
interface ChairDay {
  id: number;
  held: Span[];
}

/**
 * The chairs' held minutes of a day, read once for all the dentists one answer asks about (the
 * booking page's "any dentist"): each dentist's free times would otherwise read the clinic's whole
 * day again. A cache lives for one request; make a new one (`new Map()`) for each.
 */
export type HeldChairMinutes = Map<string, Promise<Map<number, Span[]>>>;

/** The day's held minutes of every chair in one walk of the chairs' exclusion index. */
async function heldChairMinutes(
  db: Reader,
  clinicId: number,
  date: string,
  exceptId: number | undefined,
): Promise<Map<number, Span[]>> {
  const dayStart = sql`(${date}::date - date '2000-01-01') * 1440`;
  const held = await db.execute(sql`
    select a.chair_id, lower(a.chair_span) - ${dayStart} as start, upper(a.chair_span) - ${dayStart} as end
    from appointments a
    where a.clinic_id = ${clinicId} and a.status <> 'cancelled'
      and a.chair_span && int4range(${dayStart} - 1440, ${dayStart} + 2880) ${exceptVisit(exceptId)}
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
    const spans = heldBy.get(Number(row.chair_id)) ?? [];
    spans.push({ start: Number(row.start), end: Number(row.end) });
    heldBy.set(Number(row.chair_id), spans);
  }
  return heldBy;
}

/**
 * The clinic's chairs in service on `date` (or the one asked for), the dentist's default chairs
 * first, then in the clinic's order, as the database gives a chair (appointments_hold_time); each
 * with the minutes its live visits and their turnover hold, and the times patients hold online.
 */
async function chairDay(
  db: Reader,
  clinicId: number,
  date: string,
  query: { dentistId: number; chairId?: number; exceptId?: number; bookableOnline?: boolean },
  cache?: HeldChairMinutes,
): Promise<ChairDay[]> {
  const result = await db.execute(sql`
    select c.id
    from chairs c
    where c.clinic_id = ${clinicId} and c.retired_at is null and c.in_service
      ${query.chairId === undefined ? sql`` : sql`and c.id = ${query.chairId}`}
      ${query.bookableOnline ? sql`and c.bookable_online` : sql``}
    order by coalesce(c.default_dentist_id = ${query.dentistId}, false) desc, c.position, c.id`);
  const key = `${date} ${query.exceptId ?? ''}`;
  let held = cache?.get(key);
  if (!held) {
    held = heldChairMinutes(db, clinicId, date, query.exceptId);
    cache?.set(key, held);
  }
  const heldBy = await held;
  const rows = result.rows as Array<{ id: number | string }>;
  return rows.map((row) => ({
    id: Number(row.id),
    held: heldBy.get(Number(row.id)) ?? [],
  }));
}

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
  query: {
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
    /** The chairs' held minutes already read for this answer's other dentists. */
    heldChairs?: HeldChairMinutes;
  },
): Promise<FreeTimes> {
  const settings = await readSettings(db, clinicId);
  // Without a length: the treatment's, else the shortest treatment's (the most a day can offer).
  const duration =
    query.duration ??
    (query.treatment
      ? settings.treatmentMinutes[query.treatment]
      : Math.min(...Object.values(settings.treatmentMinutes)));
  const open = await openHoursOf(db, clinicId, dentist, query.date, settings);
  const now = await clinicNow(db, clinicId);
  // Nothing of a past day is offered, nor a start of today that has gone by (nor one inside the notice).
  const asked = query.earliest;
  const from =
    asked && (asked.date > now.date || (asked.date === now.date && asked.time > now.time)) ? asked : now;
  const notBefore = query.date < from.date ? 24 * 60 : query.date === from.date ? minutesOf(from.time) : 0;
  const taken = await takenSpans(db, clinicId, query.date, {
    dentistId: dentist.id,
    patientId: query.patientId,
    exceptId: query.exceptId,
  });
  const part = await dentistPartOf(db, clinicId, query.treatment, duration);
  // The clinic's turnover, as the settings read above answer it (the trigger reads the same column).
  const turnover = settings.turnoverMinutes;
  const chairs = await chairDay(
    db,
    clinicId,
    query.date,
    {
      dentistId: dentist.id,
      chairId: query.chairId,
      exceptId: query.exceptId,
      bookableOnline: query.bookableOnline,
    },
    query.heldChairs,
  );
  const slots: Array<{ time: string; chair_id: number }> = [];
  for (const time of freeStarts(
    open.spans,
    taken.patient,
    duration,
    settings.bookingGridMinutes,
    notBefore,
  )) {
    const start = minutesOf(time);
    if (overlapsAny(start + part.start, start + part.end, taken.dentist)) continue;
    const chair = chairs.find((one) => !overlapsAny(start, start + duration + turnover, one.held));
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
}
