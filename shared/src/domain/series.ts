import { z } from 'zod';
import { appointmentSchema, appointmentWriteSchema } from './appointments';
import { dateString, timeString } from './validation';

/**
 * Recurring visits: one booking repeated every N weeks or months, K times or until a date. Each
 * visit of a series is an ordinary appointment, checked by the same rules as a single booking.
 */

export const SERIES_UNITS = ['week', 'month'] as const;
export type SeriesUnit = (typeof SERIES_UNITS)[number];

/** A series holds at most this many visits (a year of weekly visits). */
export const SERIES_VISITS_MAX = 52;
export const SERIES_EVERY_MAX = 52;

export const SERIES_TOO_LONG_MESSAGE = `A series holds at most ${SERIES_VISITS_MAX} visits`;
export const SERIES_END_MESSAGE = 'End the series after a number of visits or on a date, not both';
export const SERIES_UNTIL_MESSAGE = 'The end date is after the first visit';

/** How a series repeats: every `every` weeks or months, `count` visits in all or until `until` (inclusive). */
export const repeatRuleSchema = z
  .object({
    every: z
      .number({ message: 'every is a whole number' })
      .int('every is a whole number')
      .min(1, 'every is at least 1')
      .max(SERIES_EVERY_MAX, `every is at most ${SERIES_EVERY_MAX}`),
    unit: z.enum(SERIES_UNITS, { message: `unit is one of ${SERIES_UNITS.join(', ')}` }),
    count: z
      .number({ message: 'count is a whole number' })
      .int('count is a whole number')
      .min(2, 'A series has at least 2 visits')
      .max(SERIES_VISITS_MAX, SERIES_TOO_LONG_MESSAGE)
      .optional(),
    until: dateString.optional(),
  })
  .strict()
  .refine((rule) => (rule.count === undefined) !== (rule.until === undefined), {
    message: SERIES_END_MESSAGE,
    path: ['count'],
  });
export type RepeatRule = z.infer<typeof repeatRuleSchema>;

/** The day `months` calendar months after `date`; past the month's last day, that last day (31 Jan → 28 Feb). */
export function addMonthsClamped(date: string, months: number): string {
  const [year = 1970, month = 1, day = 1] = date.split('-').map(Number);
  const firstOfTarget = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(
    Date.UTC(firstOfTarget.getUTCFullYear(), firstOfTarget.getUTCMonth() + 1, 0),
  ).getUTCDate();
  firstOfTarget.setUTCDate(Math.min(day, lastDay));
  return firstOfTarget.toISOString().slice(0, 10);
}

function addDaysTo(date: string, days: number): string {
  const [year = 1970, month = 1, day = 1] = date.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** The `index`-th day of the rule from `first` (0 = `first`), each counted from the first, not the one before. */
export function occurrenceDate(
  first: string,
  rule: Pick<RepeatRule, 'every' | 'unit'>,
  index: number,
): string {
  return rule.unit === 'week'
    ? addDaysTo(first, 7 * rule.every * index)
    : addMonthsClamped(first, rule.every * index);
}

/**
 * The days of a series starting on `first`, in order. A rule that reaches past SERIES_VISITS_MAX
 * days answers SERIES_VISITS_MAX + 1 of them, so the caller can refuse it.
 */
export function seriesDates(first: string, rule: RepeatRule): string[] {
  const dates: string[] = [];
  for (let index = 0; index <= SERIES_VISITS_MAX; index += 1) {
    if (rule.count !== undefined && index >= rule.count) break;
    const date = occurrenceDate(first, rule, index);
    if (rule.until !== undefined && date > rule.until) break;
    dates.push(date);
  }
  return dates;
}

export const SERIES_FROM_WAITLIST_MESSAGE =
  'A series is not booked from the waitlist: book the waitlisted visit on its own';

/** The series rule as staff read it: `every 2 weeks, 6 visits` or `every month until 2027-06-30`. */
export function repeatRuleText(rule: RepeatRule): string {
  const every = rule.every === 1 ? `every ${rule.unit}` : `every ${rule.every} ${rule.unit}s`;
  return rule.count !== undefined ? `${every}, ${rule.count} visits` : `${every} until ${rule.until}`;
}

/** The booking repeated: the first visit (its date is the series' first day) and the rule. */
const seriesRequest = {
  // The waitlist offers one freed time: a series is not booked from it.
  visit: appointmentWriteSchema.refine((visit) => visit.waitlistEntryId === null, {
    message: SERIES_FROM_WAITLIST_MESSAGE,
    path: ['waitlist_entry_id'],
  }),
  repeat: repeatRuleSchema,
};

/**
 * POST /api/appointments/series/check: a dry run. Every day of the rule is tried against the
 * schedule's rules as a booking would be; nothing is written.
 */
export const seriesCheckSchema = z
  .object(seriesRequest)
  .strict()
  .refine((body) => !body.repeat.until || body.repeat.until > body.visit.date, {
    message: SERIES_UNTIL_MESSAGE,
    path: ['repeat', 'until'],
  });
export type SeriesCheckRequest = z.input<typeof seriesCheckSchema>;
export type SeriesCheck = z.output<typeof seriesCheckSchema>;

/** Why a visit of a series cannot be booked as the rule places it. */
export const OCCURRENCE_STATES = ['ok', 'refused'] as const;
export type OccurrenceState = (typeof OCCURRENCE_STATES)[number];

export const occurrenceCheckSchema = z.object({
  date: z.string(),
  time: z.string(),
  state: z.enum(OCCURRENCE_STATES),
  /** Why it cannot be booked (a clash, a closed day, a day that has passed); null when it can. */
  message: z.string().nullable(),
  /** The free start nearest to the asked time that day, else the next day's; null when neither has one. */
  nearest: z.object({ date: z.string(), time: z.string() }).nullable(),
});
export type OccurrenceCheck = z.infer<typeof occurrenceCheckSchema>;

export const seriesCheckAnswerSchema = z.object({
  /** The length each visit holds, minutes. */
  duration: z.number().int(),
  occurrences: z.array(occurrenceCheckSchema),
});
export type SeriesCheckAnswer = z.infer<typeof seriesCheckAnswerSchema>;

/** One visit of a series as staff finally chose it: the rule's day and time, or where they moved it. */
export const occurrenceChoiceSchema = z.object({ date: dateString, time: timeString }).strict();
export type OccurrenceChoice = z.infer<typeof occurrenceChoiceSchema>;

/**
 * POST /api/appointments/series: books `occurrences` (the days of the rule, those skipped left out,
 * those moved at their new day and time) in one transaction: all of them or none.
 */
export const seriesBookingSchema = z
  .object({
    ...seriesRequest,
    occurrences: z
      .array(occurrenceChoiceSchema)
      .min(1, 'Keep at least one visit of the series')
      .max(SERIES_VISITS_MAX, SERIES_TOO_LONG_MESSAGE),
  })
  .strict();
export type SeriesBookingRequest = z.input<typeof seriesBookingSchema>;
export type SeriesBooking = z.output<typeof seriesBookingSchema>;

/** The field a refused visit of a series is named by in a 409's `errors`: `occurrences.2.time`. */
export const occurrenceField = (index: number) => `occurrences.${index}.time`;

/** The index of the refused visit a 409's field names (occurrenceField), or null. */
export function occurrenceIndexOf(field: string): number | null {
  const match = /^occurrences\.(\d+)\.time$/.exec(field);
  return match ? Number(match[1]) : null;
}

/** How a refused visit of a series is named in the 409's message. */
export const refusedOccurrenceMessage = (index: number, size: number, visit: OccurrenceChoice, why: string) =>
  `Visit ${index + 1} of ${size} (${visit.date} at ${visit.time}) cannot be booked: ${why}`;

export const seriesBookedSchema = z.object({
  /** The new series. */
  series_id: z.number().int(),
  /** The visits booked, in the order sent. */
  data: z.array(appointmentSchema),
});

/**
 * Editing or cancelling a visit of a series: `this` (default) changes that visit alone, `following`
 * also every later visit of its series (by place in the series) that is still pending or confirmed.
 */
export const SERIES_SCOPES = ['this', 'following'] as const;
export type SeriesScope = (typeof SERIES_SCOPES)[number];
export const seriesScopeQuerySchema = z.object({
  scope: z.enum(SERIES_SCOPES, { message: `scope is one of ${SERIES_SCOPES.join(', ')}` }).default('this'),
});

/** What the series calls show when the server sends no message of its own. */
export const SERIES_ERROR_MESSAGES = {
  checkSeries: 'Failed to check the visits of the series',
  bookSeries: 'Failed to book the series',
} as const;
