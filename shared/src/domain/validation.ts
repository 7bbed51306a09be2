import { z } from 'zod';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from './constants';

/** Validation building blocks shared by the browser's forms and the server's routes. */

function isRealDate(value: string): boolean {
  const [year, month, day] = value.split('-').map(Number);
  if (!year || !month || !day) return false;
  const parsed = new Date(Date.UTC(year, month - 1, day));
  return (
    parsed.getUTCFullYear() === year && parsed.getUTCMonth() === month - 1 && parsed.getUTCDate() === day
  );
}

/** A calendar date `YYYY-MM-DD` that exists (no 2026-02-30). */
export const dateString = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use the format YYYY-MM-DD')
  .refine(isRealDate, 'This date does not exist');

/** A time of day `HH:mm`, zero-padded, 00:00 to 23:59. */
export const timeString = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use the format HH:mm (00:00 to 23:59)');

/** Digits with the usual separators and an optional leading +; 7 to 15 digits in all. */
export const phoneString = z
  .string()
  .trim()
  .max(30, 'At most 30 characters')
  .regex(/^\+?[0-9 ().-]+$/, 'Use digits, spaces and + ( ) - . only')
  .refine((value) => {
    const digits = value.replace(/\D/g, '').length;
    return digits >= 7 && digits <= 15;
  }, 'A phone number has 7 to 15 digits');

/** A phone number's digits alone: how two spellings of one number are compared. */
export const phoneDigits = (phone: string): string => phone.replace(/\D/g, '');

export const emailString = z
  .string()
  .trim()
  .max(254, 'At most 254 characters')
  .email('Enter a valid e-mail address');

/**
 * A whole number of `units` ('minutes', 'days') from `min` to `max`, each bound said in the field's
 * error ('At least 1 day', 'At most 168 hours (a week)' with `maxNote` ' (a week)').
 */
export const wholeNumberOf = (units: string, min: number, max: number, maxNote = '') => {
  const unitOf = (count: number) => (count === 1 ? units.replace(/s$/, '') : units);
  return z
    .number({ message: `Give the ${units} as a whole number` })
    .int(`Give the ${units} as a whole number`)
    .min(min, `At least ${min} ${unitOf(min)}`)
    .max(max, `At most ${max} ${unitOf(max)}${maxNote}`);
};

export const requiredText = (max: number) =>
  z.string().trim().min(1, 'This field is required').max(max, `At most ${max} characters`);

export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max} characters`)
    .optional()
    .nullable()
    .transform((value) => (value ? value : null));

/** Paging, search and sort every list takes (`{ data, total, page, limit }` answers). */
export const listQuerySchema = z.object({
  page: z.coerce.number().int('page is a whole number').min(1, 'page starts at 1').default(1),
  limit: z.coerce
    .number()
    .int('limit is a whole number')
    .min(1, 'limit is at least 1')
    .max(PAGE_LIMIT_MAX, `limit is at most ${PAGE_LIMIT_MAX}`)
    .default(PAGE_LIMIT_DEFAULT),
  search: z.string().trim().max(100, 'search is at most 100 characters').optional(),
  sort: z.string().max(40).optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

/**
 * The answer of every list endpoint. `total_capped`: there are more than `total` matches (counting
 * stops ten pages past the one asked for, listCountCap). `next_cursor`, on a full page of a list that
 * can seek: asked as `after` with the next page's number, that page starts right after this one's
 * last row, found in the index instead of counted off from the first.
 */
export const pageSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    total: z.number().int(),
    total_capped: z.boolean().optional(),
    page: z.number().int(),
    limit: z.number().int(),
    next_cursor: z.string().optional(),
  });

/** Where a page in date order starts: just after the row with this date, time and id. */
export interface DateCursor {
  date: string;
  time: string;
  id: number;
}

const NOT_A_CURSOR = 'after is not a next_cursor of this list';

const DATE_CURSOR = /^(\d{4}-\d{2}-\d{2}),(\d{2}:\d{2}),([1-9]\d{0,9})$/;

/** A page's `next_cursor` in date order: its last row's date, time and id. */
export const dateCursorOf = (row: DateCursor): string => `${row.date},${row.time},${row.id}`;

/** `after`: a `next_cursor` this list gave (dateCursorOf). */
export const dateCursorField = z
  .string()
  .max(40)
  .transform((value, context): DateCursor => {
    const [, date = '', time = '', id = ''] = DATE_CURSOR.exec(value) ?? [];
    const valid =
      dateString.safeParse(date).success && timeString.safeParse(time).success && Number(id) <= 2147483647;
    if (!valid) {
      context.addIssue({ code: 'custom', message: NOT_A_CURSOR });
      return z.NEVER;
    }
    return { date, time, id: Number(id) };
  });

/** Where a page in name order starts: just after the row with this name and id. */
export interface NameCursor {
  name: string;
  id: number;
}

/** The id first: a name may hold any character, a comma too. */
const NAME_CURSOR = /^([1-9]\d{0,9}),([\s\S]{1,200})$/;

/** A page's `next_cursor` in name order: its last row's id and name. */
export const nameCursorOf = (row: NameCursor): string => `${row.id},${row.name}`;

/** `after`: a `next_cursor` this list gave (nameCursorOf). */
export const nameCursorField = z
  .string()
  .max(220)
  .transform((value, context): NameCursor => {
    const [, id = '', name = ''] = NAME_CURSOR.exec(value) ?? [];
    if (!id || Number(id) > 2147483647) {
      context.addIssue({ code: 'custom', message: NOT_A_CURSOR });
      return z.NEVER;
    }
    return { name, id: Number(id) };
  });

/** Path ids are positive whole numbers; anything else is simply not found. */
export const idParamsSchema = z.object({ id: z.coerce.number().int().positive().max(2147483647) });
