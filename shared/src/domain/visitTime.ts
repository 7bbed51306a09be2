import { z } from 'zod';
import { inactiveDayMessage } from './availability';
import { TREATMENTS, type Treatment, WEEKDAYS, type Weekday } from './constants';
import { dateString } from './validation';

/**
 * How long a visit lasts and when a dentist is open: the rules the booking form offers times by and
 * the server refuses a booking by (the database keeps visits apart itself).
 */

export const VISIT_MINUTES_MIN = 5;
export const VISIT_MINUTES_MAX = 480;
export const VISIT_MINUTES_STEP = 5;

/** Each treatment's length when a booking does not say (Settings > General > Visit lengths). */
export const DEFAULT_TREATMENT_MINUTES: Record<Treatment, number> = {
  'Dental Checkup': 30,
  'Regular Cleaning': 60,
  'Cavity Filling': 60,
  'Tooth Extraction': 60,
  'Root Canal': 90,
};

/** The starts a day offers are this many minutes apart (Settings > General > Booking grid). */
export const BOOKING_GRIDS = [5, 10, 15, 30] as const;
export type BookingGrid = (typeof BOOKING_GRIDS)[number];
export const BOOKING_GRID_DEFAULT: BookingGrid = 15;

/** A visit's length: whole minutes, a multiple of 5, 5 to 480 (8 hours). */
export const visitMinutes = z
  .number({ message: 'Give the length in whole minutes' })
  .int('Give the length in whole minutes')
  .min(VISIT_MINUTES_MIN, `At least ${VISIT_MINUTES_MIN} minutes`)
  .max(VISIT_MINUTES_MAX, `At most ${VISIT_MINUTES_MAX} minutes (8 hours)`)
  .refine((minutes) => minutes % VISIT_MINUTES_STEP === 0, `Use steps of ${VISIT_MINUTES_STEP} minutes`);

/** One value for each treatment, every treatment named and nothing else. */
function perTreatment<Schema extends z.ZodType>(schema: Schema) {
  const shape = Object.fromEntries(TREATMENTS.map((treatment) => [treatment, schema]));
  // fromEntries loses the keys; TREATMENTS lists every treatment, so each key is there.
  return z.object(shape as Record<Treatment, Schema>).strict();
}

export const treatmentMinutesSchema = perTreatment(visitMinutes);
export type TreatmentMinutes = Record<Treatment, number>;

export const bookingGridSchema = z
  .number({ message: `Use one of ${BOOKING_GRIDS.join(', ')} minutes` })
  .refine((value): value is BookingGrid => (BOOKING_GRIDS as readonly number[]).includes(value), {
    message: `Use one of ${BOOKING_GRIDS.join(', ')} minutes`,
  });

/**
 * The turnover: the minutes a chair is held after each visit for cleaning and setting up
 * (Settings > General > Visit lengths; docs/product.md, Settings). 0 to 60 in steps of 5; none by default.
 */
export const TURNOVER_MINUTES_MIN = 0;
export const TURNOVER_MINUTES_MAX = 60;
export const TURNOVER_MINUTES_STEP = 5;
export const TURNOVER_MINUTES_DEFAULT = 0;

export const turnoverMinutesSchema = z
  .number({ message: 'Give the turnover in whole minutes' })
  .int('Give the turnover in whole minutes')
  .min(TURNOVER_MINUTES_MIN, `At least ${TURNOVER_MINUTES_MIN} minutes`)
  .max(TURNOVER_MINUTES_MAX, `At most ${TURNOVER_MINUTES_MAX} minutes (an hour)`)
  .refine(
    (minutes) => minutes % TURNOVER_MINUTES_STEP === 0,
    `Use steps of ${TURNOVER_MINUTES_STEP} minutes`,
  );

/**
 * The dentist's part of a treatment's visit: when the dentist is needed, in minutes from the visit's
 * start, [dentistFrom, dentistTo). The whole visit (0 to its length) unless a clinic says otherwise
 * (docs/product.md, Settings); the rest of the visit needs only the chair.
 */
export interface DentistPart {
  dentistFrom: number;
  dentistTo: number;
}
export type DentistParts = Record<Treatment, DentistPart>;

export const DENTIST_PART_STEP = 5;

/** Said when a part does not end after it starts. */
export const DENTIST_PART_ORDER_MESSAGE = "The dentist's part must end after it starts";

/** Said when a part runs past the end of its treatment's visit. */
export const dentistPartLengthMessage = (length: number) =>
  `The dentist's part must end within the visit (${length} minutes)`;

/** A minute of the dentist's part, counted from the visit's start: whole, a multiple of 5, 0 to 480. */
export const dentistPartMinute = z
  .number({ message: 'Give the minute as a whole number' })
  .int('Give the minute as a whole number')
  .min(0, 'Count from minute 0, the start of the visit')
  .max(VISIT_MINUTES_MAX, `At most minute ${VISIT_MINUTES_MAX} (8 hours)`)
  .refine((minute) => minute % DENTIST_PART_STEP === 0, `Use steps of ${DENTIST_PART_STEP} minutes`);

/** One treatment's part: both ends given, the end after the start (its fit in the visit is checked with the length). */
export const dentistPartSchema = z
  .object({ dentistFrom: dentistPartMinute, dentistTo: dentistPartMinute })
  .strict()
  .refine((part) => part.dentistFrom < part.dentistTo, {
    message: DENTIST_PART_ORDER_MESSAGE,
    path: ['dentistTo'],
  });

export const dentistPartsSchema = perTreatment(dentistPartSchema);

/** The whole visit: the dentist is needed from its start to its end. */
export const wholeVisitPart = (length: number): DentistPart => ({ dentistFrom: 0, dentistTo: length });

export const isWholeVisit = (part: DentistPart, length: number) =>
  part.dentistFrom === 0 && part.dentistTo === length;

/**
 * What is wrong with a part for a visit of `length` minutes, by the end at fault; null when
 * 0 ≤ dentistFrom < dentistTo ≤ length. The form and the server's save ask the same.
 */
export function dentistPartProblem(
  part: DentistPart,
  length: number,
): { end: keyof DentistPart; message: string } | null {
  if (part.dentistFrom < 0)
    return { end: 'dentistFrom', message: 'Count from minute 0, the start of the visit' };
  if (part.dentistTo > length) return { end: 'dentistTo', message: dentistPartLengthMessage(length) };
  if (part.dentistFrom >= part.dentistTo) return { end: 'dentistTo', message: DENTIST_PART_ORDER_MESSAGE };
  return null;
}

/** Minutes since midnight of an `HH:mm` time. */
export function minutesOf(time: string): number {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return hours * 60 + minutes;
}

/** The `HH:mm` of minutes since midnight; a visit running past midnight ends on the next day's clock. */
export function timeOfMinutes(total: number): string {
  const inDay = ((total % 1440) + 1440) % 1440;
  return `${String(Math.floor(inDay / 60)).padStart(2, '0')}:${String(inDay % 60).padStart(2, '0')}`;
}

/** When a visit starting at `time` and lasting `duration` minutes ends. */
export function endTimeOf(time: string, duration: number): string {
  return timeOfMinutes(minutesOf(time) + duration);
}

/** A visit's time as staff read it: `10:00–11:30`. */
export function timeRange(start: string, end: string): string {
  return `${start}–${end}`;
}

/** A stretch of a day, in minutes since midnight: [start, end). */
export interface Span {
  start: number;
  end: number;
}

export const spansOverlap = (a: Span, b: Span) => a.start < b.end && b.start < a.end;

/** Spans sorted and joined where they touch or overlap (09:00-10:00 and 10:00-11:00 make 09:00-11:00). */
export function joinSpans(spans: readonly Span[]): Span[] {
  const joined: Span[] = [];
  for (const span of [...spans].filter((each) => each.end > each.start).sort((a, b) => a.start - b.start)) {
    const last = joined[joined.length - 1];
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else joined.push({ ...span });
  }
  return joined;
}

/** Spans written as staff read them: `09:00–12:00, 14:00–17:00`. */
export const spansText = (spans: readonly Span[]) =>
  spans.map((span) => timeRange(timeOfMinutes(span.start), timeOfMinutes(span.end))).join(', ');

/** Why a day offers no time, or null when it offers some. */
export const NO_TIME_REASONS = [
  'not_working_day',
  'day_inactive',
  'practice_closed',
  'fully_booked',
  'day_passed',
] as const;
export type NoTimeReason = (typeof NO_TIME_REASONS)[number];

/** A day's availability record as the open-hours rule reads it. */
export interface DayRecord {
  status: 'active' | 'inactive';
  slots: ReadonlyArray<{ start: string; end: string; closed?: boolean }>;
}

export interface OpenHours {
  /** The open stretches of the day, joined. */
  spans: Span[];
  /** Why there are none: only when `spans` is empty. */
  closedBecause: Extract<NoTimeReason, 'not_working_day' | 'day_inactive' | 'practice_closed'> | null;
}

/** The weekday of a `YYYY-MM-DD` date. */
export function weekdayOf(date: string): Weekday {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return WEEKDAYS[(day + 6) % 7] as Weekday;
}

/**
 * A dentist's open time on a day: the open (not staff-closed) slots of the day's availability when
 * it has an active record; nothing when the record is inactive; otherwise the dentist's working
 * hours of that weekday (docs/product.md, Records and their fields) within the practice's hours from Settings.
 */
export function openHoursOn(
  date: string,
  record: DayRecord | null,
  dentistHours: Record<Weekday, { start: string; end: string; off: boolean }>,
  practiceHours: Record<Weekday, { start: string; end: string; closed: boolean }>,
): OpenHours {
  if (record?.status === 'inactive') return { spans: [], closedBecause: 'day_inactive' };
  if (record) {
    const spans = joinSpans(
      record.slots
        .filter((slot) => slot.closed !== true)
        .map((slot) => ({ start: minutesOf(slot.start), end: minutesOf(slot.end) })),
    );
    return { spans, closedBecause: spans.length ? null : 'day_inactive' };
  }
  const weekday = weekdayOf(date);
  const dentist = dentistHours[weekday];
  if (dentist.off) return { spans: [], closedBecause: 'not_working_day' };
  const practice = practiceHours[weekday];
  if (practice.closed) return { spans: [], closedBecause: 'practice_closed' };
  const start = Math.max(minutesOf(dentist.start), minutesOf(practice.start));
  const end = Math.min(minutesOf(dentist.end), minutesOf(practice.end));
  return end > start
    ? { spans: [{ start, end }], closedBecause: null }
    : { spans: [], closedBecause: 'practice_closed' };
}

/** Whether a visit lies wholly inside one open stretch. */
export const fitsOpenHours = (visit: Span, open: readonly Span[]) =>
  open.some((span) => span.start <= visit.start && visit.end <= span.end);

/**
 * Every start on the booking grid where a visit of `duration` minutes lies inside the open hours and
 * overlaps none of `taken`, from minute `notBefore` on (the past hours of today are left out).
 */
export function freeStarts(
  open: readonly Span[],
  taken: readonly Span[],
  duration: number,
  grid: number,
  notBefore = 0,
): string[] {
  const starts: string[] = [];
  for (const span of open) {
    const first = Math.ceil(Math.max(span.start, notBefore) / grid) * grid;
    for (let start = first; start + duration <= span.end; start += grid) {
      const visit = { start, end: start + duration };
      if (!taken.some((busy) => spansOverlap(busy, visit))) starts.push(timeOfMinutes(start));
    }
  }
  return starts;
}

/** What staff read when a day offers no time. */
export function noTimeMessage(reason: NoTimeReason, dentistName: string, date: string): string {
  const day = `${weekdayOf(date).replace(/^./, (first) => first.toUpperCase())}, ${date}`;
  switch (reason) {
    case 'not_working_day':
      return `${dentistName} does not work on ${day}`;
    case 'day_inactive':
      return inactiveDayMessage(dentistName, date);
    case 'practice_closed':
      return `The practice is closed on ${day}`;
    case 'fully_booked':
      return `${dentistName} is fully booked on ${day} for a visit of this length`;
    case 'day_passed':
      return `${day} has no time left to book`;
  }
}

/** Why a booking outside the open hours is refused: names that day's open hours. */
export function outsideHoursMessage(dentistName: string, date: string, open: OpenHours, visit: Span): string {
  const asked = timeRange(timeOfMinutes(visit.start), timeOfMinutes(visit.end));
  // An inactive day is refused as the form and the availability screens word it.
  if (open.closedBecause === 'day_inactive') return inactiveDayMessage(dentistName, date);
  if (!open.spans.length && open.closedBecause) {
    return `${noTimeMessage(open.closedBecause, dentistName, date)}, so ${asked} cannot be booked`;
  }
  return `${asked} is outside ${dentistName}'s open hours on ${date} (${spansText(open.spans)})`;
}

/** The override's reason is required, and says why staff book outside open hours. */
export const OUTSIDE_HOURS_REASON_MAX = 500;
export const OUTSIDE_HOURS_REASON_REQUIRED = 'Say why this visit is booked outside open hours';

/** GET /api/dentists/:id/free-times. */
export const freeTimesQuerySchema = z.object({
  date: dateString,
  duration: z.coerce.number({ message: 'Give the length in whole minutes' }).pipe(visitMinutes).optional(),
  treatment: z.enum(TREATMENTS, { message: `Treatment must be one of ${TREATMENTS.join(', ')}` }).optional(),
  /** A visit being edited: its own time counts as free. */
  except_id: z.coerce.number().int().positive().max(2147483647).optional(),
  /** The patient's other visits are not offered over either. */
  patient_id: z.coerce.number().int().positive().max(2147483647).optional(),
  /** Only starts where this chair is free (and in service). */
  chair_id: z.coerce.number().int().positive().max(2147483647).optional(),
});
export type FreeTimesQuery = z.infer<typeof freeTimesQuerySchema>;

export const freeTimesSchema = z.object({
  date: z.string(),
  duration: z.number().int(),
  times: z.array(z.string()),
  /** Each of `times` with the chair a booking then would take (the dentist's default chair first). */
  slots: z.array(z.object({ time: z.string(), chair_id: z.number().int() })).optional(),
  /** The day's open hours, `HH:mm` stretches. */
  open: z.array(z.object({ start: z.string(), end: z.string() })),
  reason: z.enum(NO_TIME_REASONS).nullable(),
  message: z.string().nullable(),
});
export type FreeTimes = z.infer<typeof freeTimesSchema>;
