import { ICalCalendar } from 'ical-generator';
import { tzlib_get_ical_block } from 'timezones-ical-library';

/** `2026-11-24` and `09:30` as the Date whose UTC fields are that wall time (ical-generator's zoned form). */
export function wallTime(date: string, time: string, plusMinutes = 0): Date {
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number);
  const [hour = 0, minute = 0] = time.split(':').map(Number);
  return new Date(Date.UTC(year, month - 1, day, hour, minute + plusMinutes));
}

/**
 * An iCalendar in the clinic's zone: its events give wall times with `timezone` (when `zoned`), and the
 * zone's own block travels with them, so a phone anywhere shows the clinic's hours.
 */
export function clinicCalendar(name: string, timeZone: string): { calendar: ICalCalendar; zoned: boolean } {
  const calendar = new ICalCalendar({
    name,
    prodId: { company: 'Dental Clinic', product: 'Appointments', language: 'EN' },
  });
  const zoned = timeZone !== 'UTC';
  if (zoned)
    calendar.timezone({ name: timeZone, generator: (zone) => tzlib_get_ical_block(zone)[0] ?? null });
  return { calendar, zoned };
}
