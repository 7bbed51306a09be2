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
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client';
import { clinicNow } from '../../db/clinicTime';
import { availability, dentists, type TimeSlot } from '../../db/schema';
import { readSettings } from '../settings/settingsData';

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
    .where(
      and(
        eq(availability.clinicId, clinicId),
        eq(availability.dentistId, dentist.id),
        eq(availability.date, date),
      ),
    );
  const record: DayRecord | null = day
    ? { status: day.status === 'inactive' ? 'inactive' : 'active', slots: day.timeSlots as TimeSlot[] }
    : null;
  const practice = settings ?? (await readSettings(db, clinicId));
  return openHoursOn(date, record, workingHoursOf(dentist.workingDays), practice.workingHours);
}

/**
 * The minutes (of the day, 0-1440 and past midnight) that live visits hold on `date` for the dentist,
 * or the patient when one is named, leaving out `exceptId` (a visit being moved). Read through the
 * exclusion constraints' gist indexes.
 */
export async function takenSpans(
  db: Reader,
  clinicId: number,
  date: string,
  holders: { dentistId: number; patientId?: number; exceptId?: number },
): Promise<Span[]> {
  const dayStart = sql`(${date}::date - date '2000-01-01') * 1440`;
  const whose: SQL[] = [sql`a.dentist_id = ${holders.dentistId}`];
  if (holders.patientId !== undefined) whose.push(sql`a.patient_id = ${holders.patientId}`);
  const result = await db.execute(sql`
    select lower(a.span) - ${dayStart} as start, upper(a.span) - ${dayStart} as end
    from appointments a
    where a.clinic_id = ${clinicId} and a.status <> 'cancelled'
      and (${sql.join(whose, sql` or `)})
      and a.span && int4range(${dayStart}, ${dayStart} + 1440)
      ${holders.exceptId === undefined ? sql`` : sql`and a.id <> ${holders.exceptId}`}
  `);
  return (result.rows as Array<{ start: number | string; end: number | string }>).map((row) => ({
    start: Number(row.start),
    end: Number(row.end),
  }));
}

/**
 * The starts on the clinic's booking grid where a visit of `duration` minutes fits the dentist's
 * open hours and overlaps none of the dentist's (or the patient's) live visits; the past hours of
 * today are left out. When none is left, `reason` and `message` say why.
 */
export async function freeTimesOf(
  db: Reader,
  clinicId: number,
  dentist: DentistDays,
  query: { date: string; duration?: number; treatment?: Treatment; exceptId?: number; patientId?: number },
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
  // Nothing of a past day is offered, nor a start of today that has gone by.
  const notBefore = query.date < now.date ? 24 * 60 : query.date === now.date ? minutesOf(now.time) : 0;
  const taken = await takenSpans(db, clinicId, query.date, {
    dentistId: dentist.id,
    patientId: query.patientId,
    exceptId: query.exceptId,
  });
  const times = freeStarts(open.spans, taken, duration, settings.bookingGridMinutes, notBefore);
  const timeLeft = open.spans.some((span) => span.end > notBefore);
  const reason: NoTimeReason | null = times.length
    ? null
    : query.date < now.date
      ? 'day_passed'
      : (open.closedBecause ?? (timeLeft ? 'fully_booked' : 'day_passed'));
  return {
    date: query.date,
    duration,
    times,
    open: open.spans.map((span) => ({ start: timeOfMinutes(span.start), end: timeOfMinutes(span.end) })),
    reason,
    message: reason ? noTimeMessage(reason, dentist.name, query.date) : null,
  };
}
