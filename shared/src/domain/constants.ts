/** Business constants of the product (docs/product.md, Constants and limits). */

export const REQUEST_TIMEOUT_MS = 15000;
/** Used when a configured time-out cannot be parsed. */
export const FALLBACK_REQUEST_TIMEOUT_MS = 10000;
/** How many times a failed read is tried again (network, time-out, server error); writes never are. */
export const RETRY_ATTEMPTS = 3;

export const STORAGE_KEYS = {
  token: 'authToken',
  user: 'dental_user',
} as const;

export const SPECIALIZATIONS = [
  'General Dentistry',
  'Orthodontics',
  'Oral Surgery',
  'Pediatric Dentistry',
  'Periodontics',
  'Endodontics',
  'Prosthodontics',
  'Oral Pathology',
] as const;
export type Specialization = (typeof SPECIALIZATIONS)[number];

export const TREATMENTS = [
  'Regular Cleaning',
  'Dental Checkup',
  'Cavity Filling',
  'Tooth Extraction',
  'Root Canal',
] as const;
export type Treatment = (typeof TREATMENTS)[number];

export const APPOINTMENT_STATUSES = ['pending', 'confirmed', 'cancelled', 'completed'] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

export const PERSON_STATUSES = ['active', 'inactive'] as const;
export type PersonStatus = (typeof PERSON_STATUSES)[number];

export const CALENDAR_MAX_APPOINTMENTS_PER_DAY = 2;

/** A date range whose end comes before its start: the one wording, in forms, filters and the API. */
export const DATE_RANGE_MESSAGE = 'The end date must not be before the start date';

export const SUGGESTED_SLOTS = [
  { start: '09:00', end: '10:00' },
  { start: '10:00', end: '11:00' },
  { start: '11:00', end: '12:00' },
  { start: '14:00', end: '15:00' },
  { start: '15:00', end: '16:00' },
  { start: '16:00', end: '17:00' },
] as const;

/**
 * The suggested slots of a day by its ISO weekday (1 Monday … 7 Sunday): Saturday and Sunday are
 * worked 09:00-13:00 (docs/product.md, Records and their fields), so only the morning slots.
 */
export function suggestedSlotsOn(isoWeekday: number): ReadonlyArray<{ start: string; end: string }> {
  return isoWeekday >= 6 ? SUGGESTED_SLOTS.filter((slot) => slot.end <= '13:00') : SUGGESTED_SLOTS;
}

export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface WorkingHours {
  start: string;
  end: string;
  closed: boolean;
}

export const DEFAULT_PRACTICE_HOURS: Record<Weekday, WorkingHours> = {
  monday: { start: '09:00', end: '17:00', closed: false },
  tuesday: { start: '09:00', end: '17:00', closed: false },
  wednesday: { start: '09:00', end: '17:00', closed: false },
  thursday: { start: '09:00', end: '17:00', closed: false },
  friday: { start: '09:00', end: '17:00', closed: false },
  saturday: { start: '09:00', end: '13:00', closed: false },
  sunday: { start: '09:00', end: '17:00', closed: true },
};

/** List paging bounds every list endpoint keeps. */
export const PAGE_LIMIT_DEFAULT = 20;
export const PAGE_LIMIT_MAX = 100;
/**
 * A list's matches are counted up to this many pages past the one asked for: past that the answer
 * says `total_capped` and the screens show '1-20 of 200+'; each page further on counts further, so
 * the pager always offers the next pages while there are more. Counting a large clinic's hundreds of
 * thousands of appointments for every page is what made its lists slow: this keeps a count to about
 * what a page ten pages on would read. A narrower filter or search gives an exact count again.
 */
export const LIST_COUNT_PAGES_AHEAD = 10;

/** Where the count of a list's matches stops for this page (LIST_COUNT_PAGES_AHEAD). */
export function listCountCap(page: number, limit: number): number {
  return (page - 1 + LIST_COUNT_PAGES_AHEAD) * limit;
}
