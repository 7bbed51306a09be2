import { z } from 'zod';
import { DATE_RANGE_MESSAGE } from './constants';
import { actsForDentist, type Role } from './roles';
import { serverOwnedFields } from './serverOwned';
import { dateString, listQuerySchema, pageSchema, timeString } from './validation';

/** Availability (docs/product.md, Records and their fields; API calls): a dentist's open time slots on one date, one row per dentist and date. */

export const TIME_SLOTS_MAX = 48;

export const wireTimeSlotSchema = z.object({ start: z.string(), end: z.string(), available: z.boolean() });
export type WireTimeSlot = z.infer<typeof wireTimeSlotSchema>;

/** A day is active (its open slots can be booked) or inactive (the dentist takes no visits that day). */
export const AVAILABILITY_DAY_STATUSES = ['active', 'inactive'] as const;
export type AvailabilityDayStatus = (typeof AVAILABILITY_DAY_STATUSES)[number];

/** Why a booking on an inactive day is refused; the booking form says the same before anyone saves. */
export const inactiveDayMessage = (dentistName: string, date: string) =>
  `${dentistName} is not available on ${date}: the day is marked inactive`;

export const wireAvailabilitySchema = z.object({
  id: z.number().int(),
  dentist_id: z.number().int(),
  dentist_name: z.string(),
  date: z.string(),
  time_slots: z.array(wireTimeSlotSchema),
  status: z.enum(AVAILABILITY_DAY_STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
  /** Moves on with every visible change: sent back in If-Match (liveDesk.ts). */
  version: z.number().int(),
});
export type WireAvailability = z.infer<typeof wireAvailabilitySchema>;

const END_AFTER_START = 'end must be after start';

/** The query of a date range: `from` must not come after `to`. */
function rangeIsOrdered(query: { from?: string; to?: string }): boolean {
  return !query.from || !query.to || query.from <= query.to;
}
const RANGE_MESSAGE = DATE_RANGE_MESSAGE;

/** One slot of a write: `HH:mm` times, end after start; `available` defaults to true (open). */
export const timeSlotSchema = z
  .object({ start: timeString, end: timeString, available: z.boolean().default(true) })
  .strict()
  .refine((slot) => slot.end > slot.start, { message: END_AFTER_START, path: ['end'] });
export type TimeSlotInput = z.input<typeof timeSlotSchema>;

/**
 * 1 to 48 slots, none overlapping another (touching is fine: 09:00-10:00, 10:00-11:00); they may be
 * sent in any order and are kept in time order.
 */
export const timeSlotsSchema = z
  .array(timeSlotSchema)
  .min(1, 'Give at least one time slot')
  .max(TIME_SLOTS_MAX, `At most ${TIME_SLOTS_MAX} time slots`)
  .superRefine((slots, context) => {
    const byStart = slots
      .map((slot, index) => ({ slot, index }))
      .sort((a, b) => a.slot.start.localeCompare(b.slot.start));
    byStart.forEach(({ slot, index }, position) => {
      const previous = byStart[position - 1]?.slot;
      if (previous && slot.start < previous.end) {
        context.addIssue({
          code: 'custom',
          path: [index, 'start'],
          message: `Slots must not overlap: ${slot.start}-${slot.end} overlaps ${previous.start}-${previous.end}`,
        });
      }
    });
  })
  .transform((slots) => [...slots].sort((a, b) => a.start.localeCompare(b.start)));

/** The dentist a body names: a whole number PostgreSQL's integer holds. */
const dentistIdField = z
  .number({ message: 'dentist_id is a whole number' })
  .int('dentist_id is a whole number')
  .positive('dentist_id is a positive number')
  .max(2147483647);

/** The dentist a list query filters by (calendar.ts too): the query string's text, as a number. */
export const dentistIdFilter = z.coerce
  .number()
  .int('dentist_id is a whole number')
  .positive('dentist_id is a positive number')
  .max(2147483647)
  .optional();

/**
 * POST /api/availability and PUT /api/availability/:id: `{ dentist_id, date, time_slots, status? }`;
 * status defaults to active on a new day and to the day's own on a replace.
 */
export const availabilityWriteSchema = z
  .object({
    dentist_id: dentistIdField,
    date: dateString,
    time_slots: timeSlotsSchema,
    status: z
      .enum(AVAILABILITY_DAY_STATUSES, {
        message: `status must be one of ${AVAILABILITY_DAY_STATUSES.join(', ')}`,
      })
      .optional(),
    ...serverOwnedFields({ dentist_name: 'the server owns it' }),
  })
  .strict()
  .transform((raw) => ({
    dentistId: raw.dentist_id,
    date: raw.date,
    status: raw.status,
    timeSlots: raw.time_slots.map((slot) => ({
      start: slot.start,
      end: slot.end,
      available: slot.available,
    })),
  }));
export type AvailabilityWriteRequest = z.input<typeof availabilityWriteSchema>;
export type AvailabilityWrite = z.output<typeof availabilityWriteSchema>;

/** PATCH /api/availability/:id/slot: the slot named by its times, and whether it is open. */
export const slotUpdateSchema = z
  .object({
    start: timeString,
    end: timeString,
    available: z.boolean({ message: 'available is true or false' }),
  })
  .strict()
  .refine((slot) => slot.end > slot.start, { message: END_AFTER_START, path: ['end'] });
export type SlotUpdate = z.infer<typeof slotUpdateSchema>;

/** A fill covers at most this many days (a quarter): a longer range is refused. */
export const AVAILABILITY_FILL_MAX_DAYS = 92;

/**
 * POST /api/availability/fill: the dentist's working days (their `working_days`) from `from` to `to`
 * get `time_slots` (the suggested slots of docs/product.md, Constants and limits: unless given); days already set are kept as they are.
 */
export const availabilityFillSchema = z
  .object({
    dentist_id: dentistIdField,
    from: dateString,
    to: dateString,
    time_slots: timeSlotsSchema.optional(),
  })
  .strict()
  .refine(rangeIsOrdered, { message: RANGE_MESSAGE, path: ['to'] })
  .refine(
    (fill) =>
      !fill.from ||
      !fill.to ||
      (Date.parse(fill.to) - Date.parse(fill.from)) / 86_400_000 < AVAILABILITY_FILL_MAX_DAYS,
    { message: `A fill covers at most ${AVAILABILITY_FILL_MAX_DAYS} days`, path: ['to'] },
  );
export type AvailabilityFillRequest = z.input<typeof availabilityFillSchema>;
export type AvailabilityFill = z.output<typeof availabilityFillSchema>;

/** What a fill did: the days it created, and the working days it left as they were (already set). */
export const availabilityFillResultSchema = z.object({
  created: z.array(wireAvailabilitySchema),
  kept: z.array(z.string()),
});
export type AvailabilityFillResult = z.infer<typeof availabilityFillResultSchema>;

export const AVAILABILITY_SORTS = ['date', '-date'] as const;

const availabilityFilters = {
  date: dateString.optional(),
  from: dateString.optional(),
  to: dateString.optional(),
  sort: z
    .enum(AVAILABILITY_SORTS, { message: `sort must be one of ${AVAILABILITY_SORTS.join(', ')}` })
    .optional(),
};

/**
 * GET /api/availability: filters `dentist_id`, an exact `date` or a `from`/`to` range, `search` on the
 * dentist's name; ordered by date (`-date` newest first), then dentist name.
 */
export const availabilityListQuerySchema = listQuerySchema
  .extend({
    dentist_id: dentistIdFilter,
    ...availabilityFilters,
  })
  .refine(rangeIsOrdered, { message: RANGE_MESSAGE, path: ['to'] });
export type AvailabilityListQuery = z.infer<typeof availabilityListQuerySchema>;

/** GET /api/availability/dentist/:id: the same, for one dentist. */
export const dentistAvailabilityQuerySchema = listQuerySchema
  .pick({ page: true, limit: true })
  .extend(availabilityFilters)
  .refine(rangeIsOrdered, { message: RANGE_MESSAGE, path: ['to'] });
export type DentistAvailabilityQuery = z.infer<typeof dentistAvailabilityQuerySchema>;

export const availabilityPageSchema = pageSchema(wireAvailabilitySchema);
export type AvailabilityPage = z.infer<typeof availabilityPageSchema>;

/** Who may change a dentist's days (the server's rule too): an admin any dentist's, a dentist their own. */
export function managesDaysOf(staff: { role: Role; dentistId: number | null }, dentistId: number): boolean {
  return actsForDentist(staff, dentistId);
}
