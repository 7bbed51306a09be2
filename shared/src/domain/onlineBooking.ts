import { z } from 'zod';
import { TREATMENTS, type Treatment } from './constants';
import { dateString, emailString, phoneString, requiredText, timeString, wholeNumberOf } from './validation';

/**
 * Online booking (docs/product.md, Online booking): the clinic's rules for what patients may book
 * on its public page, kept with the practice settings and enforced by the server.
 */

/** A visit can be booked online no sooner than this many hours from now. */
export const ONLINE_NOTICE_HOURS_MAX = 168;
export const ONLINE_NOTICE_HOURS_DEFAULT = 2;
/** ...and no further ahead than this many days. */
export const ONLINE_HORIZON_DAYS_MIN = 1;
export const ONLINE_HORIZON_DAYS_MAX = 365;
export const ONLINE_HORIZON_DAYS_DEFAULT = 60;
/** A patient moves or cancels online up to this many hours before the visit; later, they call. */
export const ONLINE_CUTOFF_HOURS_MAX = 168;
export const ONLINE_CUTOFF_HOURS_DEFAULT = 24;
/** How many visits booked online one e-mail or phone may have to come at once. */
export const ONLINE_OPEN_PER_CONTACT_MAX = 10;
export const ONLINE_OPEN_PER_CONTACT_DEFAULT = 2;

/** One treatment offered online, and to whom. */
export const onlineVisitTypeSchema = z
  .object({
    treatment: z.enum(TREATMENTS, { message: `Choose one of: ${TREATMENTS.join(', ')}` }),
    newPatients: z.boolean({ message: 'Choose yes or no' }),
    returningPatients: z.boolean({ message: 'Choose yes or no' }),
  })
  .strict()
  .refine((type) => type.newPatients || type.returningPatients, {
    message: 'Offer it to new patients, returning patients or both',
    path: ['newPatients'],
  });
export type OnlineVisitType = z.infer<typeof onlineVisitTypeSchema>;

export const onlineBookingSchema = z
  .object({
    enabled: z.boolean({ message: 'Choose on or off' }),
    noticeHours: wholeNumberOf('hours', 0, ONLINE_NOTICE_HOURS_MAX, ' (a week)'),
    horizonDays: wholeNumberOf('days', ONLINE_HORIZON_DAYS_MIN, ONLINE_HORIZON_DAYS_MAX, ' (a year)'),
    cutoffHours: wholeNumberOf('hours', 0, ONLINE_CUTOFF_HOURS_MAX, ' (a week)'),
    maxOpenPerContact: wholeNumberOf('visits', 1, ONLINE_OPEN_PER_CONTACT_MAX),
    visitTypes: z
      .array(onlineVisitTypeSchema)
      .max(TREATMENTS.length)
      .refine((types) => new Set(types.map((type) => type.treatment)).size === types.length, {
        message: 'Each treatment once',
      }),
  })
  .strict();
export type OnlineBooking = z.infer<typeof onlineBookingSchema>;

/** What a clinic starts with: off, and nothing offered until its admin chooses the visit types. */
export const DEFAULT_ONLINE_BOOKING: OnlineBooking = {
  enabled: false,
  noticeHours: ONLINE_NOTICE_HOURS_DEFAULT,
  horizonDays: ONLINE_HORIZON_DAYS_DEFAULT,
  cutoffHours: ONLINE_CUTOFF_HOURS_DEFAULT,
  maxOpenPerContact: ONLINE_OPEN_PER_CONTACT_DEFAULT,
  visitTypes: [],
};

/** A clinic's address on the web: `/book/<slug>`; lower-case words joined by hyphens. */
export const CLINIC_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const clinicSlugString = z.string().min(1).max(60).regex(CLINIC_SLUG_PATTERN);

/** A visit type's id on the public page: its treatment in lower-case words ('cavity-filling'). */
export const visitTypeIdOf = (treatment: Treatment): string => treatment.toLowerCase().replace(/\s+/g, '-');
export const treatmentOfVisitType = (id: string): Treatment | undefined =>
  TREATMENTS.find((treatment) => visitTypeIdOf(treatment) === id);

/** The one answer for a slug with no online booking behind it, whether or not a clinic has it. */
export const ONLINE_BOOKING_NOT_HERE = 'Online booking is not available here';

export const horizonMessage = (days: number) =>
  `Online booking takes visits up to ${days} ${days === 1 ? 'day' : 'days'} ahead: choose an earlier day`;
export const VISIT_TYPE_NOT_ONLINE = 'This visit type cannot be booked online: choose another';
export const DENTIST_NOT_ONLINE = 'Choose a dentist from the list, or any dentist';

export const publicSlugParamsSchema = z.object({ slug: z.string().max(100) });

/** GET /public/clinics/{slug}: what the booking page shows before a time is chosen. */
export const publicClinicSchema = z.object({
  name: z.string(),
  address: z.string(),
  phone: z.string(),
  timeZone: z.string(),
  visit_types: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      duration: z.number().int(),
      new_patients: z.boolean(),
      returning_patients: z.boolean(),
    }),
  ),
  dentists: z.array(z.object({ id: z.number().int(), name: z.string() })),
  rules: z.object({
    notice_hours: z.number().int(),
    horizon_days: z.number().int(),
    cutoff_hours: z.number().int(),
  }),
});
export type PublicClinic = z.infer<typeof publicClinicSchema>;

export const publicFreeTimesQuerySchema = z
  .object({
    visit_type: z.string().max(60),
    date: dateString,
    dentist_id: z.coerce.number().int().positive().max(2147483647).optional(),
  })
  .strict();

/** GET /public/clinics/{slug}/free-times: the starts a patient may take, each with its dentist. */
export const publicFreeTimesSchema = z.object({
  date: z.string(),
  times: z.array(
    z.object({
      time: timeString,
      end_time: z.string(),
      dentist_id: z.number().int(),
      dentist_name: z.string(),
    }),
  ),
});
export type PublicFreeTimes = z.infer<typeof publicFreeTimesSchema>;

/** A clinic date and wall-clock time moved on by `minutes` ('2027-01-12 23:30' + 60 → '2027-01-13 00:30'). */
export function addMinutesToClinicTime(
  at: { date: string; time: string },
  minutes: number,
): { date: string; time: string } {
  const [hours, mins] = at.time.split(':').map(Number) as [number, number];
  const moved = new Date(Date.parse(`${at.date}T00:00:00Z`) + (hours * 60 + mins + minutes) * 60_000);
  return { date: moved.toISOString().slice(0, 10), time: moved.toISOString().slice(11, 16) };
}

/** A time picked on the booking page is held this long for the patient, for the desk as well. */
export const ONLINE_HOLD_MINUTES = 5;

export const noticeMessage = (hours: number) =>
  `Online booking takes visits from ${hours} ${hours === 1 ? 'hour' : 'hours'} ahead: choose a later time`;
export const ONLINE_TIME_TAKEN = 'This time has just been taken: choose another';

/** POST /public/clinics/{slug}/holds: the time the patient picked (any dentist: `dentist_id` null). */
export const publicHoldBodySchema = z
  .object({
    visit_type_id: z.string().max(60),
    dentist_id: z.number().int().positive().max(2147483647).nullable(),
    date: dateString,
    time: timeString,
  })
  .strict();
export type PublicHoldBody = z.infer<typeof publicHoldBodySchema>;

/** 201: the hold's private id (it stands for the patient's pick until it expires) and when it expires. */
export const publicHoldSchema = z.object({ hold_id: z.string(), expires_at: z.string() });

/** 409: the time is no longer free; the nearest free times of the day instead. */
export const publicTimeTakenSchema = z.object({
  message: z.string(),
  times: publicFreeTimesSchema.shape.times,
});

/** What the desk is told when a time it wants is held by a patient booking online. */
export const heldOnlineMessage = (range: string, minutesLeft: number) =>
  `Held online ${range}, ${minutesLeft} min left: choose another time`;

/** A code sent to confirm who books is valid this long, for this many tries; a hold is sent this many codes. */
export const ONLINE_CODE_MINUTES = 10;
export const ONLINE_CODE_TRIES = 5;
export const ONLINE_CODE_SENDS = 3;

/** POST /public/holds/{hold_id}/code: who books (checked like the desk's patient form); `website` is left empty by people. */
export const publicContactSchema = z
  .object({
    name: requiredText(100),
    phone: phoneString,
    email: emailString,
    date_of_birth: dateString,
    website: z.string().max(200).optional(),
  })
  .strict();
export type PublicContact = z.infer<typeof publicContactSchema>;

export const publicHoldParamsSchema = z.object({ hold_id: z.string().min(1).max(100) });
export const publicConfirmBodySchema = z
  .object({
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, 'Give the 6 digits of the code'),
  })
  .strict();

/** A visit as its patient is shown it online, when booked and on its manage page. */
const publicVisitShape = {
  date: z.string(),
  time: z.string(),
  end_time: z.string(),
  dentist_name: z.string(),
  treatment: z.string(),
  status: z.string(),
};

/** 201 of POST /public/holds/{hold_id}/confirm: the visit booked and its private manage link. */
export const publicBookedSchema = z.object({
  appointment: z.object({ id: z.number().int(), ...publicVisitShape }),
  manage_url: z.string(),
});
export type PublicBooked = z.infer<typeof publicBookedSchema>;

export const HOLD_NOT_FOUND = 'This time is not held: pick a time again';
export const HOLD_EXPIRED = 'The time was held for 5 minutes and has been let go: pick a time again';
export const CODE_NOT_ASKED = 'Ask for a code first';
export const CODE_EXPIRED = 'The code has expired: ask for a new one';
export const CODE_SENDS_USED = 'Three codes were sent for this time: pick a time again';
export const CODE_TRIES_USED = 'Five wrong codes: the time has been let go. Pick a time again';
export const codeWrongMessage = (left: number) =>
  `That code is not right: ${left} ${left === 1 ? 'try' : 'tries'} left`;
export const openOnlineCapMessage = (max: number, phone: string) =>
  `You already have ${max} ${max === 1 ? 'visit' : 'visits'} booked online${phone ? `: call us on ${phone} to book another` : ': call the clinic to book another'}`;
export const BIRTH_DATE_FUTURE = 'The date of birth cannot be in the future';
export const CODE_SENT = 'A code is on its way to your e-mail';
/** 202 of POST /public/holds/{hold_id}/code: the hold now lasts as long as the code, until `expires_at`. */
export const publicCodeSentSchema = z.object({ message: z.string(), expires_at: z.string() });
export type PublicCodeSent = z.infer<typeof publicCodeSentSchema>;

export const MANAGE_LINK_UNKNOWN = 'This link does not open a visit: check the link in your e-mail';
export const visitEndedMessage = (status: string) =>
  status === 'cancelled' ? 'This visit is cancelled' : 'This visit has taken place';
export const cutoffMessage = (hours: number, phone: string) =>
  `Visits can be moved or cancelled online up to ${hours} ${hours === 1 ? 'hour' : 'hours'} before: ${phone ? `please call us on ${phone}` : 'please call the clinic'}. We have asked the clinic to call you.`;

export const publicManageParamsSchema = z.object({ token: z.string().min(1).max(100) });
export const publicMoveBodySchema = z.object({ date: dateString, time: timeString }).strict();

/** GET /public/manage/{token}: only the first name, the visit and the clinic, and what the patient may do. */
export const publicManagedVisitSchema = z.object({
  first_name: z.string(),
  clinic: z.object({
    name: z.string(),
    address: z.string(),
    phone: z.string(),
    slug: z.string(),
    timeZone: z.string(),
  }),
  appointment: z.object({ ...publicVisitShape, visit_type_id: z.string(), dentist_id: z.number().int() }),
  cutoff_hours: z.number().int(),
  /** Pending: the patient may confirm it. */
  can_confirm: z.boolean(),
  /** Live and before the cut-off: the patient may move or cancel it online. */
  can_change: z.boolean(),
});
export type PublicManagedVisit = z.infer<typeof publicManagedVisitSchema>;
