import { isTimeZone } from '@dental/shared/domain';
import { eq } from 'drizzle-orm';
import type { Database } from './client';
import { clinics } from './schema';

/** The server's own zone: what a new clinic starts with. */
export function serverTimeZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isTimeZone(zone) ? zone : 'UTC';
}

/** Building a formatter costs far more than using one: one per zone (and kind) is kept. */
const dateFormatters = new Map<string, Intl.DateTimeFormat>();
const timeFormatters = new Map<string, Intl.DateTimeFormat>();

function formatter(
  cache: Map<string, Intl.DateTimeFormat>,
  timeZone: string,
  options: Intl.DateTimeFormatOptions,
) {
  let found = cache.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', { timeZone, ...options });
    cache.set(timeZone, found);
  }
  return found;
}

function partsOf(format: Intl.DateTimeFormat, at: Date): (type: string) => string {
  const parts = format.formatToParts(at);
  return (type) => parts.find((candidate) => candidate.type === type)?.value ?? '00';
}

/** The calendar date at an instant in a time zone: 'YYYY-MM-DD'. */
export function localDate(timeZone: string, at: Date = new Date()): string {
  const part = partsOf(
    formatter(dateFormatters, timeZone, { year: 'numeric', month: '2-digit', day: '2-digit' }),
    at,
  );
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The wall-clock time at an instant in a time zone: 'HH:mm'. */
export function localTime(timeZone: string, at: Date = new Date()): string {
  const part = partsOf(
    formatter(timeFormatters, timeZone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
    at,
  );
  return `${part('hour')}:${part('minute')}`;
}

/** A 'YYYY-MM-DD' date moved by whole days (calendar arithmetic, no time zone involved). */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number);
  const shifted = new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, (day ?? 1) + days));
  return shifted.toISOString().slice(0, 10);
}

/** ISO weekday of a 'YYYY-MM-DD' date: 1 = Monday … 7 = Sunday (as dentists' working_days count). */
export function isoWeekday(date: string): number {
  const [year, month, day] = date.split('-').map(Number);
  const weekday = new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1)).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}

type Reader = Pick<Database, 'select'>;

/**
 * Zones read in the last second, by clinic: most requests need the clinic's today, and a change of
 * zone (an administrator's, in Settings) drops its entry here at once and reaches other API
 * processes within the second.
 */
const zoneCache = new Map<number, { zone: string; readAt: number }>();
const ZONE_CACHE_MS = 1_000;

/** The clinic's zone was changed: its next today is read afresh. */
export function forgetClinicTimeZone(clinicId: number): void {
  zoneCache.delete(clinicId);
}

/** The zone a clinic's 'today' is counted in; a name the runtime no longer knows falls back to UTC. */
export async function clinicTimeZone(db: Reader, clinicId: number): Promise<string> {
  const now = Date.now();
  const cached = zoneCache.get(clinicId);
  if (cached && now - cached.readAt < ZONE_CACHE_MS) return cached.zone;
  const [row] = await db.select({ timeZone: clinics.timeZone }).from(clinics).where(eq(clinics.id, clinicId));
  const zone = row && isTimeZone(row.timeZone) ? row.timeZone : 'UTC';
  if (zoneCache.size > 10_000) zoneCache.clear();
  zoneCache.set(clinicId, { zone, readAt: now });
  return zone;
}

/** The clinic's 'today'. */
export async function clinicToday(db: Reader, clinicId: number, at: Date = new Date()): Promise<string> {
  return localDate(await clinicTimeZone(db, clinicId), at);
}

/** The clinic's date and wall-clock time now: what has passed and what is still to come. */
export async function clinicNow(
  db: Reader,
  clinicId: number,
  at: Date = new Date(),
): Promise<{ date: string; time: string }> {
  const timeZone = await clinicTimeZone(db, clinicId);
  return { date: localDate(timeZone, at), time: localTime(timeZone, at) };
}

/** The instant a clinic's wall-clock date and time ('YYYY-MM-DD', 'HH:mm') fall on in its zone. */
export function zonedInstant(date: string, time: string, timeZone: string): Date {
  const [year = 1970, month = 1, day = 1] = date.split('-').map(Number);
  const [hour = 0, minute = 0] = time.split(':').map(Number);
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // The zone's offset at a guess, then again at the corrected instant (a change of offset between them).
  const offsetAt = (instant: number) => {
    const seen = new Date(instant);
    const [y = 1970, m = 1, d = 1] = localDate(timeZone, seen).split('-').map(Number);
    const [h = 0, min = 0] = localTime(timeZone, seen).split(':').map(Number);
    return Date.UTC(y, m - 1, d, h, min) - Math.floor(instant / 60_000) * 60_000;
  };
  const first = wall - offsetAt(wall);
  return new Date(wall - offsetAt(first));
}
