import { ICalCalendar, ICalEventStatus } from 'ical-generator';
import { tzlib_get_ical_block } from 'timezones-ical-library';

/** `2026-11-24` and `09:30` as the Date whose UTC fields are that wall time (ical-generator's zoned form). */
function wallTime(date: string, time: string, plusMinutes = 0): Date {
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

/** A visit as one calendar event: its start and end in the clinic's zone, cancelled ones marked so. */
export interface VisitEvent {
  /** Stable across changes, so a calendar updates the entry instead of adding another. */
  uid: string;
  sequence: number;
  date: string;
  time: string;
  duration: number;
  changedAt: Date;
  summary: string;
  location: string | null;
  description: string;
  cancelled: boolean;
}

export function addVisitEvent(
  { calendar, zoned }: { calendar: ICalCalendar; zoned: boolean },
  timeZone: string,
  visit: VisitEvent,
): void {
  calendar.createEvent({
    id: visit.uid,
    sequence: visit.sequence,
    start: wallTime(visit.date, visit.time),
    end: wallTime(visit.date, visit.time, visit.duration),
    ...(zoned ? { timezone: timeZone } : {}),
    stamp: visit.changedAt,
    lastModified: visit.changedAt,
    summary: visit.summary,
    location: visit.location,
    description: visit.description,
    status: visit.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  });
}
