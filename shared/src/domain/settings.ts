import { z } from 'zod';
import { MFA_POLICIES } from './auth';
import { DEFAULT_PRACTICE_HOURS, TREATMENTS, type Treatment, WEEKDAYS, type Weekday } from './constants';
import { DEFAULT_ONLINE_BOOKING, onlineBookingSchema } from './onlineBooking';
import { emailString, phoneString, requiredText, timeString, wholeNumberOf } from './validation';
import {
  BOOKING_GRID_DEFAULT,
  bookingGridSchema,
  DEFAULT_TREATMENT_MINUTES,
  type DentistParts,
  dentistPartsSchema,
  TURNOVER_MINUTES_DEFAULT,
  treatmentMinutesSchema,
  turnoverMinutesSchema,
  wholeVisitPart,
} from './visitTime';

/** Practice settings (docs/product.md, Records and their fields), kept per clinic: GET /api/settings answers them, PUT saves them. */

/** Answers of isTimeZone so far (a few hundred zones exist; the bound only keeps nonsense out). */
const knownTimeZones = new Map<string, boolean>();

/** An IANA zone name the runtime knows ('Europe/Berlin', 'UTC'); offsets and abbreviations are refused. */
export function isTimeZone(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(value)) return false;
  // Building a formatter to ask costs a tenth of a millisecond, and the server asks on every request.
  const known = knownTimeZones.get(value);
  if (known !== undefined) return known;
  let valid = true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
  } catch {
    valid = false;
  }
  if (knownTimeZones.size > 1000) knownTimeZones.clear();
  knownTimeZones.set(value, valid);
  return valid;
}

/** The zone's canonical spelling ('europe/berlin' → 'Europe/Berlin'). */
export function canonicalTimeZone(value: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
}

export const timeZoneString = z
  .string()
  .trim()
  .refine(isTimeZone, 'Use an IANA time zone name such as Europe/London')
  .transform(canonicalTimeZone);

/** One weekday's opening hours; a day that is open ends after it starts. */
export const workingHoursSchema = z
  .object({ start: timeString, end: timeString, closed: z.boolean() })
  .strict()
  .refine((day) => day.closed || day.end > day.start, {
    message: 'The end time must be after the start time',
    path: ['end'],
  });

const weekHoursShape = Object.fromEntries(WEEKDAYS.map((day) => [day, workingHoursSchema])) as Record<
  Weekday,
  typeof workingHoursSchema
>;

export const NOTIFICATION_FLAGS = [
  'emailReminders',
  'smsReminders',
  'appointmentConfirmations',
  'newPatientAlerts',
] as const;
export type NotificationFlag = (typeof NOTIFICATION_FLAGS)[number];

const notificationsShape = Object.fromEntries(
  NOTIFICATION_FLAGS.map((flag) => [flag, z.boolean()]),
) as Record<NotificationFlag, z.ZodBoolean>;

export const notificationsSchema = z.object(notificationsShape).strict();

/** Optional contact fields: empty means not given. */
const blankOr = <T extends z.ZodType<string>>(schema: T) => z.union([z.literal(''), schema]);

const dayHoursOutput = z.object({ start: z.string(), end: z.string(), closed: z.boolean() });
const dentistPartOutput = z.object({ dentistFrom: z.number().int(), dentistTo: z.number().int() });

/** The idle sign-out time: a session left this many minutes without activity is signed out. */
export const IDLE_TIMEOUT_MIN = 5;
export const IDLE_TIMEOUT_MAX = 480;
export const IDLE_TIMEOUT_DEFAULT = 30;
export const idleTimeoutMinutes = wholeNumberOf('minutes', IDLE_TIMEOUT_MIN, IDLE_TIMEOUT_MAX, ' (8 hours)');

/** How long before a visit its reminder goes out. */
export const REMINDER_LEAD_MIN_HOURS = 1;
export const REMINDER_LEAD_MAX_HOURS = 168;
export const REMINDER_LEAD_DEFAULT_HOURS = 24;
export const reminderLeadHours = wholeNumberOf(
  'hours',
  REMINDER_LEAD_MIN_HOURS,
  REMINDER_LEAD_MAX_HOURS,
  ' (a week)',
);

/** Automatic recall reminders go this many days before a patient's recall falls due. */
export const RECALL_REMINDER_MIN_DAYS = 1;
export const RECALL_REMINDER_MAX_DAYS = 90;
export const RECALL_REMINDER_DEFAULT_DAYS = 14;
export const recallReminderDaysBefore = wholeNumberOf(
  'days',
  RECALL_REMINDER_MIN_DAYS,
  RECALL_REMINDER_MAX_DAYS,
);

/** GET /api/settings answers this shape; a PUT of it unchanged succeeds. */
export const practiceSettingsSchema = z.object({
  practiceName: z.string(),
  address: z.string(),
  phone: z.string(),
  email: z.string(),
  workingHours: z.object(
    Object.fromEntries(WEEKDAYS.map((day) => [day, dayHoursOutput])) as Record<
      Weekday,
      typeof dayHoursOutput
    >,
  ),
  notifications: z.object({
    emailReminders: z.boolean(),
    smsReminders: z.boolean(),
    appointmentConfirmations: z.boolean(),
    newPatientAlerts: z.boolean(),
  }),
  timeZone: z.string(),
  idleTimeoutMinutes: z.number().int(),
  reminderLeadHours: z.number().int(),
  /**
   * Off by default: when on, each patient due for a recall and not yet booked for it is sent one
   * reminder `recallReminderDaysBefore` days before the due date, by the reminder channels that are on.
   */
  recallRemindersEnabled: z.boolean(),
  recallReminderDaysBefore: z.number().int(),
  /** Each treatment's visit length in minutes, used when a booking does not give one. */
  treatmentMinutes: z.object(
    Object.fromEntries(TREATMENTS.map((treatment) => [treatment, z.number().int()])) as Record<
      Treatment,
      z.ZodNumber
    >,
  ),
  /** The starts a day offers are this many minutes apart. */
  bookingGridMinutes: z.number().int(),
  /** The minutes a chair is held after each visit for cleaning: 0 to 60 in steps of 5, 0 by default. */
  turnoverMinutes: z.number().int(),
  /**
   * Per treatment, when the dentist is needed, in minutes from the visit's start: every treatment
   * answers, the whole visit (`0` to its length) unless the clinic set a part of it.
   */
  dentistParts: z.object(
    Object.fromEntries(TREATMENTS.map((treatment) => [treatment, dentistPartOutput])) as Record<
      Treatment,
      typeof dentistPartOutput
    >,
  ),
  /** Who signs in with a second factor: nobody, the administrators, or all staff. */
  mfaRequired: z.enum(MFA_POLICIES),
  /** What patients may book on the clinic's public page (`/book/<slug>`), off unless turned on. */
  onlineBooking: z.object({
    enabled: z.boolean(),
    noticeHours: z.number().int(),
    horizonDays: z.number().int(),
    cutoffHours: z.number().int(),
    maxOpenPerContact: z.number().int(),
    visitTypes: z.array(
      z.object({ treatment: z.enum(TREATMENTS), newPatients: z.boolean(), returningPatients: z.boolean() }),
    ),
  }),
  /** The clinic's address on the web, given when the clinic is made: its booking page is `/book/<slug>`. */
  slug: z.string(),
  /** Moves on with every visible change: sent back in If-Match (liveDesk.ts). */
  version: z.number().int(),
});
export type PracticeSettings = z.infer<typeof practiceSettingsSchema>;

/**
 * PUT /api/settings. Every field is checked like any other input; a field left out keeps its saved
 * value, and so does a weekday left out of `workingHours` or a flag left out of `notifications`.
 */
export const practiceSettingsUpdateSchema = z
  .object({
    practiceName: requiredText(200).optional(),
    address: z.string().trim().max(500, 'At most 500 characters').optional(),
    phone: blankOr(phoneString).optional(),
    email: blankOr(emailString).optional(),
    workingHours: z.object(weekHoursShape).partial().strict().optional(),
    notifications: notificationsSchema.partial().optional(),
    timeZone: timeZoneString.optional(),
    idleTimeoutMinutes: idleTimeoutMinutes.optional(),
    reminderLeadHours: reminderLeadHours.optional(),
    recallRemindersEnabled: z.boolean({ message: 'Choose on or off' }).optional(),
    recallReminderDaysBefore: recallReminderDaysBefore.optional(),
    treatmentMinutes: treatmentMinutesSchema.partial().optional(),
    bookingGridMinutes: bookingGridSchema.optional(),
    turnoverMinutes: turnoverMinutesSchema.optional(),
    /**
     * The treatments given, each with both ends; a treatment left out keeps its part. After the
     * lengths are merged, each part must end within its visit (checked on save).
     */
    dentistParts: dentistPartsSchema.partial().optional(),
    mfaRequired: z.enum(MFA_POLICIES, { message: 'Choose nobody, administrators or all staff' }).optional(),
    /** The rules given replace the saved ones; a rule left out keeps its value. */
    onlineBooking: onlineBookingSchema.partial().optional(),
    slug: z.unknown().optional().describe('Ignored: the clinic keeps the address it was made with'),
    version: z.unknown().optional().describe('Ignored: sent in If-Match, not the body'),
  })
  .strict();
export type PracticeSettingsUpdateRequest = z.input<typeof practiceSettingsUpdateSchema>;
export type PracticeSettingsUpdate = z.output<typeof practiceSettingsUpdateSchema>;

export const DEFAULT_NOTIFICATIONS: PracticeSettings['notifications'] = {
  emailReminders: true,
  smsReminders: false,
  appointmentConfirmations: true,
  newPatientAlerts: true,
};

/** The dentist needed throughout every treatment's visit of these lengths: what a clinic starts with. */
export function wholeVisitParts(treatmentMinutes: Record<Treatment, number>): DentistParts {
  return Object.fromEntries(
    TREATMENTS.map((treatment) => [treatment, wholeVisitPart(treatmentMinutes[treatment])]),
  ) as DentistParts;
}

/** What a clinic that never saved its settings has. */
export function defaultPracticeSettings(
  practiceName: string,
  timeZone: string,
  slug: string,
): PracticeSettings {
  return {
    practiceName,
    address: '',
    phone: '',
    email: '',
    workingHours: structuredClone(DEFAULT_PRACTICE_HOURS),
    notifications: { ...DEFAULT_NOTIFICATIONS },
    timeZone,
    idleTimeoutMinutes: IDLE_TIMEOUT_DEFAULT,
    reminderLeadHours: REMINDER_LEAD_DEFAULT_HOURS,
    recallRemindersEnabled: false,
    recallReminderDaysBefore: RECALL_REMINDER_DEFAULT_DAYS,
    treatmentMinutes: { ...DEFAULT_TREATMENT_MINUTES },
    bookingGridMinutes: BOOKING_GRID_DEFAULT,
    turnoverMinutes: TURNOVER_MINUTES_DEFAULT,
    dentistParts: wholeVisitParts(DEFAULT_TREATMENT_MINUTES),
    mfaRequired: 'none',
    onlineBooking: { ...DEFAULT_ONLINE_BOOKING, visitTypes: [] },
    slug,
    /** The defaults are the first version: a clinic's first save makes the second. */
    version: 1,
  };
}
