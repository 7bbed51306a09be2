import {
  minutesOf,
  startsInPartOfDay,
  WAITLIST_FREE_TIMES_SHOWN,
  WAITLIST_NOT_FOUND,
  WAITLIST_SEARCH_DAYS,
  type WaitlistFreeTimes,
  type WaitlistMatch,
  type WaitlistOffer,
  type waitlistMatchesQuerySchema,
} from '@dental/shared/domain';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Reader } from '../../db/client';
import { addDays, clinicToday, isoWeekday } from '../../db/clinicTime';
import { NotFound } from '../../domain/errors';
import { freeTimesOf, freeTimesOfDentists } from '../availability/openHours';
import { dentistsFor, entrySelect, findEntry, readEntries } from './waitlistEntries';
import { toldKey, toldOffers } from './waitlistOffers';

/** How many entries a freed time is tried against (oldest first): each costs a free-time reading. */
const MATCH_CANDIDATES_MAX = 50;

/** Minutes of the freed span a visit leaves empty, plus the minutes it runs beyond it. */
function unfilledMinutes(freed: { start: number; end: number }, start: number, duration: number): number {
  const overlap = Math.max(0, Math.min(freed.end, start + duration) - Math.max(freed.start, start));
  return freed.end - freed.start - overlap + (duration - overlap);
}

/**
 * The entries a freed time suits, best first (see waitlistMatchSchema for the order). An entry is
 * suited when its window holds the day, its weekdays the day's weekday, and a visit of its treatment
 * can start inside the freed time, in its part of the day, on a start the booking form offers (the
 * dentist's free times for the entry's patient: open hours, other visits, the grid, not in the past).
 */
export async function matchFreedTime(
  db: Reader,
  clinicId: number,
  freed: z.output<typeof waitlistMatchesQuerySchema>,
): Promise<WaitlistMatch[]> {
  const [dentist] = await dentistsFor(db, clinicId, freed.dentist_id);
  if (!dentist) return [];
  const candidates = await readEntries(
    db,
    clinicId,
    sql`${entrySelect(clinicId)} and w.earliest_on <= ${freed.date}::date and w.latest_on >= ${freed.date}::date
      and (w.dentist_id = ${dentist.id} or w.dentist_id is null)
      and ${isoWeekday(freed.date)}::smallint = any(w.weekdays)
      order by w.created_at, w.id limit ${MATCH_CANDIDATES_MAX}`,
  );
  const span = { start: minutesOf(freed.time), end: minutesOf(freed.time) + freed.duration };
  const matches: Array<Omit<WaitlistMatch, 'told'>> = [];
  for (const entry of candidates) {
    const free = await freeTimesOf(db, clinicId, dentist, {
      date: freed.date,
      treatment: entry.treatment,
      patientId: entry.patient_id,
    });
    const starts = free.times
      .filter((time) => startsInPartOfDay(entry.part_of_day, time))
      .map((time) => ({ time, start: minutesOf(time) }))
      .filter(({ start }) => start >= span.start && start < span.end)
      .map((each) => ({ ...each, unfilled: unfilledMinutes(span, each.start, free.duration) }))
      .sort((a, b) => a.unfilled - b.unfilled || a.start - b.start);
    const best = starts[0];
    if (!best) continue;
    matches.push({
      entry,
      offer: {
        dentist_id: dentist.id,
        dentist_name: dentist.name,
        date: freed.date,
        time: best.time,
        duration: free.duration,
      },
      wants_this_dentist: entry.dentist_id === dentist.id,
      unfilled_minutes: best.unfilled,
    });
  }
  const told = await toldOffers(
    db,
    clinicId,
    dentist.id,
    freed.date,
    matches.map(({ entry }) => entry.id),
  );
  // Candidates came oldest first, and the sort keeps that order among equals.
  return matches
    .map((match) => ({ ...match, told: told.get(toldKey(match.entry.id, match.offer.time)) ?? null }))
    .sort(
      (a, b) =>
        Number(b.wants_this_dentist) - Number(a.wants_this_dentist) ||
        a.unfilled_minutes - b.unfilled_minutes,
    );
}

/**
 * The entry's earliest free times now: from today (or its earliest day) for up to WAITLIST_SEARCH_DAYS
 * days within its window, on its weekdays, with its dentist or any active one, in its part of the day;
 * the first free start of each day and dentist, earliest first, WAITLIST_FREE_TIMES_SHOWN of them.
 */
export async function entryFreeTimes(db: Reader, clinicId: number, id: number): Promise<WaitlistFreeTimes> {
  const entry = await findEntry(db, clinicId, id);
  if (!entry) throw new NotFound(WAITLIST_NOT_FOUND);
  const today = await clinicToday(db, clinicId);
  // Days as YYYY-MM-DD order as text does.
  const [from = today] = [entry.earliest_on, today].sort().reverse();
  const [until = from] = [entry.latest_on, addDays(from, WAITLIST_SEARCH_DAYS - 1)].sort();
  if (from > until) return { data: [], searched_until: null };
  const dentists = await dentistsFor(db, clinicId, entry.dentist_id);
  const offers: WaitlistOffer[] = [];
  for (let date = from; date <= until && offers.length < WAITLIST_FREE_TIMES_SHOWN; date = addDays(date, 1)) {
    if (!entry.weekdays.includes(isoWeekday(date))) continue;
    const answers = await freeTimesOfDentists(db, clinicId, dentists, {
      date,
      treatment: entry.treatment,
      patientId: entry.patient_id,
    });
    const ofDay: WaitlistOffer[] = [];
    dentists.forEach((dentist, index) => {
      const free = answers[index];
      const time = free?.times.find((start) => startsInPartOfDay(entry.part_of_day, start));
      if (free && time)
        ofDay.push({
          dentist_id: dentist.id,
          dentist_name: dentist.name,
          date,
          time,
          duration: free.duration,
        });
    });
    offers.push(...ofDay.sort((a, b) => a.time.localeCompare(b.time)));
  }
  return { data: offers.slice(0, WAITLIST_FREE_TIMES_SHOWN), searched_until: until };
}
