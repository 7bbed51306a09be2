import { z } from 'zod';
import {
  APPOINTMENT_STATUSES,
  DATE_RANGE_MESSAGE,
  PERSON_STATUSES,
  SPECIALIZATIONS,
  WEEKDAYS,
  type Weekday,
} from './constants';
import { dashboardAppointmentSchema } from './dashboard';
import { sortField, sortsOf } from './listSorts';
import { serverOwnedFields } from './serverOwned';
import {
  dateString,
  emailString,
  listQuerySchema,
  pageSchema,
  phoneString,
  requiredText,
} from './validation';

/** Dentists (docs/product.md, Records and their fields; API calls): the shapes the Dentists screens and the server share. */

export const DENTIST_NAME_MAX = 100;
export const DENTIST_LICENSE_MAX = 50;
export const YEARS_OF_EXPERIENCE_MAX = 70;
export const DEFAULT_WORKING_DAYS = '12345';

/** One weekday of a dentist's derived working hours; `off` days are 00:00-00:00. */
export interface DentistDayHours {
  start: string;
  end: string;
  off: boolean;
}
export type DentistWorkingHours = Record<Weekday, DentistDayHours>;

const OFF_DAY: DentistDayHours = { start: '00:00', end: '00:00', off: true };

/**
 * Working hours derived from `working_days` (docs/product.md, Records and their fields: "Default working hours are Monday to Friday
 * 09:00-17:00. Saturday and Sunday are 09:00-13:00 only if the day is listed, otherwise 00:00-00:00
 * (off)"). A listed Monday-Friday is 09:00-17:00, a listed Saturday or Sunday 09:00-13:00; any day
 * not listed, weekday or weekend, is off (00:00-00:00) — so a dentist working '135' is off on
 * Tuesday, Thursday and the weekend. Day numbers are ISO: 1 Monday … 7 Sunday.
 */
export function workingHoursOf(workingDays: string): DentistWorkingHours {
  const hours = {} as DentistWorkingHours;
  WEEKDAYS.forEach((day, index) => {
    const number = String(index + 1);
    if (!workingDays.includes(number)) hours[day] = { ...OFF_DAY };
    else if (index < 5) hours[day] = { start: '09:00', end: '17:00', off: false };
    else hours[day] = { start: '09:00', end: '13:00', off: false };
  });
  return hours;
}

/** Days a week worked: the days whose start is not 00:00 (docs/product.md, Constants and limits), i.e. the distinct days listed. */
export function daysPerWeekOf(workingDays: string): number {
  return Object.values(workingHoursOf(workingDays)).filter((day) => day.start !== '00:00').length;
}

/** '531' → '135'; duplicates are the caller's concern (the schema refuses them). */
export function normaliseWorkingDays(workingDays: string): string {
  return [...workingDays].sort().join('');
}

/** Distinct digits 1-7 (1 Monday … 7 Sunday), at least one; stored and answered sorted. */
export const workingDaysString = z
  .string()
  .trim()
  .regex(/^[1-7]{1,7}$/, {
    message: 'Use the day numbers 1 (Monday) to 7 (Sunday), at least one, e.g. 12345',
    abort: true,
  })
  .refine((value) => new Set(value).size === value.length, 'A day may be listed only once')
  .transform(normaliseWorkingDays);

const dayHoursSchema = z.object({ start: z.string(), end: z.string(), off: z.boolean() });

/** A dentist's own details as answered and exported (backup.ts): what the clinic tells of them. */
export const dentistDetailFields = {
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  specialty: z.string(),
  license: z.string(),
  years_of_experience: z.number().int(),
  working_days: z.string(),
};

export const wireDentistSchema = z.object({
  id: z.number().int(),
  ...dentistDetailFields,
  status: z.enum(PERSON_STATUSES),
  working_hours: z.object(
    Object.fromEntries(WEEKDAYS.map((day) => [day, dayHoursSchema])) as Record<
      Weekday,
      typeof dayHoursSchema
    >,
  ),
  days_per_week: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Moves on with every visible change: sent back in If-Match (liveDesk.ts). */
  version: z.number().int(),
});
export type WireDentist = z.infer<typeof wireDentistSchema>;

/**
 * POST /api/dentists and PUT /api/dentists/:id. `years_of_experience`, `working_days` and `status`
 * may be left out: a new dentist then has 0, '12345' and 'active'; an update keeps the current value.
 */
export const dentistWriteSchema = z
  .object({
    name: requiredText(DENTIST_NAME_MAX),
    email: emailString,
    phone: phoneString,
    specialty: z.enum(SPECIALIZATIONS, { message: `specialty must be one of ${SPECIALIZATIONS.join(', ')}` }),
    license: requiredText(DENTIST_LICENSE_MAX),
    years_of_experience: z
      .number({ message: 'years_of_experience is a whole number' })
      .int('years_of_experience is a whole number')
      .min(0, 'years_of_experience is at least 0')
      .max(YEARS_OF_EXPERIENCE_MAX, `years_of_experience is at most ${YEARS_OF_EXPERIENCE_MAX}`)
      .optional(),
    working_days: workingDaysString.optional(),
    status: z.enum(PERSON_STATUSES, { message: 'status must be active or inactive' }).optional(),
    ...serverOwnedFields({
      working_hours: 'derived from working_days',
      days_per_week: 'derived from working_days',
    }),
  })
  .strict()
  .transform((raw) => ({
    name: raw.name,
    email: raw.email,
    phone: raw.phone,
    specialty: raw.specialty,
    license: raw.license,
    yearsOfExperience: raw.years_of_experience,
    workingDays: raw.working_days,
    status: raw.status,
  }));
export type DentistWriteRequest = z.input<typeof dentistWriteSchema>;
export type DentistWrite = z.output<typeof dentistWriteSchema>;

export const DENTIST_SORTS = sortsOf(['name', 'years_of_experience', 'specialty', 'created_at']);
export type DentistSort = (typeof DENTIST_SORTS)[number];

/** GET /api/dentists: search name, e-mail and license; filter by status and specialty; sort. */
export const dentistListQuerySchema = listQuerySchema.extend({
  status: z.enum(PERSON_STATUSES, { message: 'status must be active or inactive' }).optional(),
  specialty: z
    .enum(SPECIALIZATIONS, { message: `specialty must be one of ${SPECIALIZATIONS.join(', ')}` })
    .optional(),
  sort: sortField(DENTIST_SORTS),
});
export type DentistListQuery = z.infer<typeof dentistListQuerySchema>;

export const dentistPageSchema = pageSchema(wireDentistSchema);
export type DentistPage = z.infer<typeof dentistPageSchema>;

/** The query of a date range: `from` must not come after `to`. */
function rangeIsOrdered(query: { from?: string; to?: string }): boolean {
  return !query.from || !query.to || query.from <= query.to;
}
const RANGE_MESSAGE = DATE_RANGE_MESSAGE;

/** GET /api/dentists/:id/appointments: an exact `date` or a `from`/`to` range, a `status`; paged. */
export const dentistAppointmentsQuerySchema = listQuerySchema
  .pick({ page: true, limit: true })
  .extend({
    date: dateString.optional(),
    from: dateString.optional(),
    to: dateString.optional(),
    status: z
      .enum(APPOINTMENT_STATUSES, { message: `status must be one of ${APPOINTMENT_STATUSES.join(', ')}` })
      .optional(),
  })
  .refine(rangeIsOrdered, { message: RANGE_MESSAGE, path: ['to'] });
export type DentistAppointmentsQuery = z.infer<typeof dentistAppointmentsQuerySchema>;

export const dentistAppointmentsPageSchema = pageSchema(dashboardAppointmentSchema);
