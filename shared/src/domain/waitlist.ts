import { z } from 'zod';
import type { Appointment } from './appointments';
import { DATE_RANGE_MESSAGE, TREATMENTS, type Treatment } from './constants';
import { dateString, listQuerySchema, pageSchema, timeString } from './validation';
import { minutesOf, visitMinutes } from './visitTime';

/**
 * The waitlist: patients who want an earlier or a particular time (a treatment, a dentist or any, some
 * weekdays and a part of the day, between two dates). When a visit is cancelled, deleted or moved,
 * the time it frees is offered to the waitlisted patients it suits; booking one takes them off.
 */

/** GET the waitlist (paged, oldest entry first), POST an entry: staff with `appointments`. */
export const WAITLIST_URL = '/api/waitlist';
/** PUT or DELETE one entry (If-Match). */
export const waitlistEntryUrl = (id: number) => `${WAITLIST_URL}/${id}`;
/** GET: the entry's earliest free times that suit it now. */
export const waitlistFreeTimesUrl = (id: number) => `${waitlistEntryUrl(id)}/free-times`;
/** GET `?dentist_id=&date=&time=&duration=`: the entries a freed time suits, best first. */
export const WAITLIST_MATCHES_URL = `${WAITLIST_URL}/matches`;
/** POST `{ date, time, dentist_id }`: tells the entry's patient, through the outbox, of a time that opened. */
export const waitlistOfferUrl = (id: number) => `${waitlistEntryUrl(id)}/offer`;

/** ISO weekdays, as a dentist's working days are numbered: 1 Monday … 7 Sunday. */
export const ISO_WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export const ISO_WEEKDAY_LABELS: Record<number, string> = {
  1: 'Mon',
  2: 'Tue',
  3: 'Wed',
  4: 'Thu',
  5: 'Fri',
  6: 'Sat',
  7: 'Sun',
};

export const PARTS_OF_DAY = ['any', 'morning', 'afternoon', 'evening'] as const;
export type PartOfDay = (typeof PARTS_OF_DAY)[number];

/**
 * The minutes of the day (from midnight) each part of the day covers: a visit is in a part of the day
 * when it starts there. The one place these bounds are set; the server matches by them too.
 */
export const PART_OF_DAY_MINUTES: Record<PartOfDay, { start: number; end: number }> = {
  any: { start: 0, end: 24 * 60 },
  morning: { start: 0, end: 12 * 60 },
  afternoon: { start: 12 * 60, end: 17 * 60 },
  evening: { start: 17 * 60, end: 24 * 60 },
};

export const PART_OF_DAY_LABELS: Record<PartOfDay, string> = {
  any: 'Any time of day',
  morning: 'Morning (before 12:00)',
  afternoon: 'Afternoon (12:00–17:00)',
  evening: 'Evening (from 17:00)',
};

/** Whether a visit starting at `time` (`HH:mm`) is in the part of the day. */
export function startsInPartOfDay(part: PartOfDay, time: string): boolean {
  const bounds = PART_OF_DAY_MINUTES[part];
  const start = minutesOf(time);
  return start >= bounds.start && start < bounds.end;
}

export const WAITLIST_NOTE_MAX = 500;
/** How many days ahead (from today or the entry's earliest date) an entry's free times are sought. */
export const WAITLIST_SEARCH_DAYS = 28;
/** How many free times an entry shows: the earliest, one a day and dentist. */
export const WAITLIST_FREE_TIMES_SHOWN = 3;

export const WAITLIST_NOT_FOUND = 'Waitlist entry not found';
/** A booking named an entry that is gone (booked or taken off at another desk) or is another clinic's. */
export const WAITLIST_ENTRY_GONE =
  'This patient is no longer on the waitlist: booked or taken off at another desk. Book without the waitlist entry, or open it again.';
export const WAITLIST_OTHER_PATIENT = 'This waitlist entry is for another patient';
/** Telling a patient of an opened time: no channel can reach them. */
export const WAITLIST_NO_CHANNEL =
  "No message can be sent: the clinic's e-mail and SMS reminders are off, or the patient has no address for them.";
/** Telling a patient of a time already gone by. */
export const WAITLIST_OFFER_PAST = 'This day has passed: tell them of a time to come';

/** The channels a patient is told by: e-mail and SMS, as the reminders go. */
export const WAITLIST_OFFER_CHANNELS = ['email', 'sms'] as const;
export type WaitlistOfferChannel = (typeof WAITLIST_OFFER_CHANNELS)[number];
const CHANNEL_WORDS: Record<WaitlistOfferChannel, string> = { email: 'e-mail', sms: 'SMS' };
/** The channels as staff read them: `e-mail and SMS`. */
export const channelWords = (channels: readonly WaitlistOfferChannel[]): string =>
  channels.map((channel) => CHANNEL_WORDS[channel]).join(' and ');
/** Telling a patient of a time they were told of already (`when`: the clinic's day and time it was done). */
export const waitlistAlreadyTold = (when: string, channels: readonly WaitlistOfferChannel[]): string =>
  `Already told of this time on ${when}, by ${channelWords(channels)}`;

const wireId = (field: string) =>
  z
    .number({ message: `${field} is a number` })
    .int(`${field} is a whole number`)
    .positive(`${field} is a positive number`)
    .max(2147483647, `${field} is too large`);

const queryId = (field: string) => z.coerce.number().pipe(wireId(field));

export const waitlistEntrySchema = z.object({
  id: z.number().int(),
  patient_id: z.number().int(),
  patient_name: z.string(),
  phone: z.string(),
  treatment: z.enum(TREATMENTS),
  /** The treatment's length from Settings: the time the entry needs. */
  duration: z.number().int(),
  /** The dentist they want; null: any dentist. */
  dentist_id: z.number().int().nullable(),
  dentist_name: z.string().nullable(),
  weekdays: z.array(z.number().int()),
  part_of_day: z.enum(PARTS_OF_DAY),
  earliest_on: z.string(),
  latest_on: z.string(),
  note: z.string(),
  created_at: z.string(),
  version: z.number().int(),
});
export type WaitlistEntry = z.infer<typeof waitlistEntrySchema>;
export const waitlistPageSchema = pageSchema(waitlistEntrySchema);
export type WaitlistPage = z.infer<typeof waitlistPageSchema>;

/** POST and PUT of an entry: what the patient wants. Fields GET answers besides these are ignored. */
export const waitlistBodySchema = z
  .object({
    patient_id: wireId('patient_id'),
    treatment: z.enum(TREATMENTS, { message: 'Choose one of the treatments' }),
    dentist_id: wireId('dentist_id').nullable().optional().default(null),
    weekdays: z
      .array(
        z
          .number({ message: 'A weekday is a number, 1 Monday … 7 Sunday' })
          .int('A weekday is a number, 1 Monday … 7 Sunday')
          .min(1, 'A weekday is a number, 1 Monday … 7 Sunday')
          .max(7, 'A weekday is a number, 1 Monday … 7 Sunday'),
        { message: 'Choose at least one weekday' },
      )
      .min(1, 'Choose at least one weekday')
      .refine((days) => new Set(days).size === days.length, 'Name each weekday once')
      .transform((days) => [...days].sort((a, b) => a - b)),
    part_of_day: z
      .enum(PARTS_OF_DAY, { message: `part_of_day is one of ${PARTS_OF_DAY.join(', ')}` })
      .optional()
      .default('any'),
    earliest_on: dateString,
    latest_on: dateString,
    note: z
      .string()
      .trim()
      .max(WAITLIST_NOTE_MAX, `At most ${WAITLIST_NOTE_MAX} characters`)
      .optional()
      .default(''),
    id: z.unknown().optional().describe('Ignored: the server owns it'),
    patient_name: z.unknown().optional().describe('Ignored: derived from patient_id'),
    phone: z.unknown().optional().describe('Ignored: derived from patient_id'),
    dentist_name: z.unknown().optional().describe('Ignored: derived from dentist_id'),
    duration: z.unknown().optional().describe("Ignored: the treatment's length from Settings"),
    created_at: z.unknown().optional().describe('Ignored: the server owns it'),
    version: z.unknown().optional().describe('Ignored: sent in If-Match, not the body'),
  })
  .strict()
  .refine((body) => body.earliest_on <= body.latest_on, { message: DATE_RANGE_MESSAGE, path: ['latest_on'] });
export type WaitlistBody = z.input<typeof waitlistBodySchema>;

/** GET /api/waitlist: `search` by the patient's name, `dentist_id` (wanting them; any-dentist entries too), `treatment`. */
export const waitlistQuerySchema = listQuerySchema
  .pick({ page: true, limit: true, search: true })
  .extend({
    dentist_id: queryId('dentist_id').optional(),
    treatment: z
      .enum(TREATMENTS, { message: `Treatment must be one of ${TREATMENTS.join(', ')}` })
      .optional(),
  })
  .strict();
export type WaitlistQuery = z.input<typeof waitlistQuerySchema>;

/** GET /api/waitlist/matches: the time a visit freed (its dentist, day, start and length). */
export const waitlistMatchesQuerySchema = z
  .object({
    dentist_id: queryId('dentist_id'),
    date: dateString,
    time: timeString,
    duration: z.coerce.number({ message: 'Give the length in whole minutes' }).pipe(visitMinutes),
  })
  .strict();
export type WaitlistMatchesQuery = z.input<typeof waitlistMatchesQuerySchema>;

/** A time offered to an entry: a start a visit of its treatment can be booked at. */
export const waitlistOfferSchema = z.object({
  dentist_id: z.number().int(),
  dentist_name: z.string(),
  date: z.string(),
  time: z.string(),
  duration: z.number().int(),
});
export type WaitlistOffer = z.infer<typeof waitlistOfferSchema>;

/** An entry's patient told of a time: when (ISO instant) and by which channels. Told once a time. */
export const waitlistToldSchema = z.object({
  at: z.string(),
  channels: z.array(z.enum(WAITLIST_OFFER_CHANNELS)),
});
export type WaitlistTold = z.infer<typeof waitlistToldSchema>;

/**
 * An entry a freed time suits, and the start offered to it. Ranked: the entry that wants this dentist
 * before one that takes any; then the visit that fills the freed time best (fewest minutes left over
 * or spilling beyond it); then the entry waiting longest.
 */
export const waitlistMatchSchema = z.object({
  entry: waitlistEntrySchema,
  offer: waitlistOfferSchema,
  /** The entry asked for this dentist (not any). */
  wants_this_dentist: z.boolean(),
  /** Minutes of the freed time the visit leaves empty, or runs beyond it into other free time. */
  unfilled_minutes: z.number().int(),
  /** The patient was told of this offer already (Tell them): it is not told again. */
  told: waitlistToldSchema.nullable(),
});
export type WaitlistMatch = z.infer<typeof waitlistMatchSchema>;
export const waitlistMatchesSchema = z.object({ data: z.array(waitlistMatchSchema) });
export type WaitlistMatches = z.infer<typeof waitlistMatchesSchema>;

/** POST /api/waitlist/:id/offer: the time that opened, as the match offered it. */
export const waitlistOfferBodySchema = z
  .object({ dentist_id: wireId('dentist_id'), date: dateString, time: timeString })
  .strict();
export type WaitlistOfferBody = z.input<typeof waitlistOfferBodySchema>;

/** The messages queued to tell the patient: one per channel (e-mail, SMS). */
export const waitlistOfferAnswerSchema = z.object({
  queued: z.array(z.enum(WAITLIST_OFFER_CHANNELS)).min(1),
});
export type WaitlistOfferAnswer = z.infer<typeof waitlistOfferAnswerSchema>;

/** An entry's earliest free times now, and the last day that was sought. */
export const waitlistFreeTimesSchema = z.object({
  data: z.array(waitlistOfferSchema),
  searched_until: z.string().nullable(),
});
export type WaitlistFreeTimes = z.infer<typeof waitlistFreeTimesSchema>;

/**
 * The appointment form, opened by URL on an offer for an entry: prefilled with the patient, dentist,
 * day, time and treatment, and naming the entry, which leaves the waitlist once the visit is booked.
 */
export function waitlistBookingUrl(
  entry: Pick<WaitlistEntry, 'id' | 'patient_id' | 'treatment'>,
  offer: Pick<WaitlistOffer, 'dentist_id' | 'date' | 'time'>,
  returnTo?: string,
): string {
  const query = new URLSearchParams({
    new: '1',
    patient: String(entry.patient_id),
    dentist: String(offer.dentist_id),
    date: offer.date,
    time: offer.time,
    treatment: entry.treatment satisfies Treatment,
    waitlist: String(entry.id),
  });
  if (returnTo) query.set('returnTo', returnTo);
  return `/appointments?${query.toString()}`;
}

/**
 * A visit's time as it was before it was cancelled, deleted or moved: what it leaves free. Its
 * dentist's name, when known, names the time on screen.
 */
export type FreedVisit = Pick<Appointment, 'dentist_id' | 'date' | 'time' | 'duration'> &
  Partial<Pick<Appointment, 'dentist_name'>>;

/**
 * A freed time in a screen's URL (`?freed=1.2027-03-01.14:00.60`: dentist, day, start, length), so the
 * appointment form opened from another screen can hand it back with the way back there.
 */
export const FREED_PARAM = 'freed';
export const freedParamOf = (visit: FreedVisit): string =>
  [visit.dentist_id, visit.date, visit.time, visit.duration].join('.');
/** The freed time a URL names; null when it names none or a malformed one (then nothing is offered). */
export function parseFreedParam(value: string | null): FreedVisit | null {
  const [dentist_id, date, time, duration, ...rest] = (value ?? '').split('.');
  if (rest.length > 0) return null;
  const parsed = waitlistMatchesQuerySchema.safeParse({ dentist_id, date, time, duration });
  return parsed.success ? parsed.data : null;
}

/** The return path with the freed time added (or put in place of the one it had). */
export function withFreedParam(path: string, visit: FreedVisit): string {
  const [pathname = '', query = ''] = path.split('?', 2);
  const params = new URLSearchParams(query);
  params.set(FREED_PARAM, freedParamOf(visit));
  return `${pathname}?${params}`;
}

/** Whether an edit left some of the visit's time free: moved, shortened, given to another dentist, or cancelled. */
export function leftFree(
  before: Pick<Appointment, 'status' | 'dentist_id' | 'date' | 'time' | 'duration'>,
  after: Pick<Appointment, 'status' | 'dentist_id' | 'date' | 'time' | 'duration'>,
): boolean {
  return (
    before.status !== 'cancelled' &&
    (after.status === 'cancelled' ||
      after.dentist_id !== before.dentist_id ||
      after.date !== before.date ||
      after.time !== before.time ||
      after.duration < before.duration)
  );
}
