import {
  listCountCap,
  minutesOf,
  type PartOfDay,
  type PracticeSettings,
  startsInPartOfDay,
  type Treatment,
  WAITLIST_FREE_TIMES_SHOWN,
  WAITLIST_NO_CHANNEL,
  WAITLIST_NOT_FOUND,
  WAITLIST_OFFER_PAST,
  WAITLIST_SEARCH_DAYS,
  type WaitlistEntry,
  type WaitlistFreeTimes,
  type WaitlistMatch,
  type WaitlistOffer,
  type WaitlistOfferChannel,
  type WaitlistTold,
  waitlistAlreadyTold,
  type waitlistBodySchema,
  waitlistEntrySchema,
  type waitlistMatchesQuerySchema,
  type waitlistOfferBodySchema,
  type waitlistQuerySchema,
} from '@dental/shared/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { cappedCount, pageWithTotal, type SeekPage } from '../../db/cappedCount';
import type { Database, Reader, Transaction } from '../../db/client';
import { addDays, clinicTimeZone, clinicToday, isoWeekday, localDate, localTime } from '../../db/clinicTime';
import { UNIQUE_VIOLATION, violated } from '../../db/databaseErrors';
import { HttpError } from '../../plugins/errors';
import { type ExpectedVersion, requireVersion } from '../../plugins/versions';
import { type Actor, recordActorAudit } from '../actorAudit';
import { NO_ACTIVE_DENTIST, NO_SUCH_PATIENT } from '../appointments/appointmentsData';
import { type DentistDays, freeTimesOf } from '../availability/openHours';
import { queueWaitlistOffer, requireQueued } from '../notifications/outboxQueue';
import { readSettings } from '../settings/settingsData';

/** How many entries a freed time is tried against (oldest first): each costs a free-time reading. */
const MATCH_CANDIDATES_MAX = 50;

type WaitlistFields = z.output<typeof waitlistBodySchema>;

interface EntryRecord {
  id: number;
  patient_id: number;
  patient_name: string;
  phone: string | null;
  treatment: string;
  dentist_id: number | null;
  dentist_name: string | null;
  weekdays: number[] | string;
  part_of_day: string;
  earliest_on: string;
  latest_on: string;
  note: string;
  created_at: Date | string;
  version: number;
}

/** A smallint[] as the driver hands it: an array, or its text `{1,2,3}` on the wire protocol. */
const weekdaysOf = (value: number[] | string): number[] =>
  Array.isArray(value)
    ? value.map(Number)
    : value.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);

const entryOf =
  (settings: PracticeSettings) =>
  (row: EntryRecord): WaitlistEntry => {
    // Entries are written with the product's treatments only (the table's check says so too).
    const treatment = row.treatment as Treatment;
    return {
      id: row.id,
      patient_id: row.patient_id,
      patient_name: row.patient_name,
      phone: row.phone ?? '',
      treatment,
      duration: settings.treatmentMinutes[treatment],
      dentist_id: row.dentist_id,
      dentist_name: row.dentist_name,
      weekdays: weekdaysOf(row.weekdays),
      part_of_day: row.part_of_day as PartOfDay,
      earliest_on: row.earliest_on,
      latest_on: row.latest_on,
      note: row.note,
      created_at: new Date(row.created_at).toISOString(),
      version: row.version,
    };
  };

/** An entry as every answer gives it, with its patient's and dentist's names. */
function entrySelect(clinicId: number): SQL {
  return sql`
    select w.id, w.patient_id, p.name as patient_name, p.phone, w.treatment, w.dentist_id,
      d.name as dentist_name, w.weekdays, w.part_of_day, to_char(w.earliest_on, 'YYYY-MM-DD') as earliest_on,
      to_char(w.latest_on, 'YYYY-MM-DD') as latest_on, w.note, w.created_at, w.version
    from waitlist_entries w
    join patients p on p.clinic_id = w.clinic_id and p.id = w.patient_id
    left join dentists d on d.clinic_id = w.clinic_id and d.id = w.dentist_id
    where w.clinic_id = ${clinicId}`;
}

async function readEntries(db: Reader, clinicId: number, query: SQL): Promise<WaitlistEntry[]> {
  const settings = await readSettings(db, clinicId);
  const { rows } = await db.execute(query);
  return (rows as unknown as EntryRecord[]).map(entryOf(settings));
}

export async function findEntry(
  db: Reader,
  clinicId: number,
  id: number,
  /** Held to the transaction's end (the entry's row only). */
  lock = false,
): Promise<WaitlistEntry | null> {
  const [entry] = await readEntries(
    db,
    clinicId,
    sql`${entrySelect(clinicId)} and w.id = ${id} ${lock ? sql`for update of w` : sql``}`,
  );
  return entry ?? null;
}

/** One waitlist entry as its routes read it (rowRoutes): its wire schema, its read and its 404. */
export const entryLookup = { schema: waitlistEntrySchema, find: findEntry, notFound: WAITLIST_NOT_FOUND };

/** The clinic's waitlist, oldest entry first (the order it is worked in), read through its queue index. */
export async function listWaitlist(
  db: Reader,
  clinicId: number,
  query: z.output<typeof waitlistQuerySchema>,
): Promise<SeekPage<WaitlistEntry>> {
  const conditions: SQL[] = [sql`true`];
  // An entry for any dentist is one this dentist can take too.
  if (query.dentist_id) conditions.push(sql`(w.dentist_id = ${query.dentist_id} or w.dentist_id is null)`);
  if (query.treatment) conditions.push(sql`w.treatment = ${query.treatment}`);
  if (query.search) conditions.push(sql`p.name ilike ${`%${query.search.replace(/[\\%_]/g, '\\$&')}%`}`);
  const where = sql.join(conditions, sql` and `);
  const offset = (query.page - 1) * query.limit;
  let capped = false;
  const { data, total } = await pageWithTotal(
    { offset, limit: query.limit },
    () =>
      readEntries(
        db,
        clinicId,
        sql`${entrySelect(clinicId)} and ${where} order by w.created_at, w.id limit ${query.limit} offset ${offset}`,
      ),
    async () => {
      const counted = await cappedCount(
        db,
        sql`select 1 from waitlist_entries w join patients p on p.clinic_id = w.clinic_id and p.id = w.patient_id
          where w.clinic_id = ${clinicId} and ${where}`,
        listCountCap(query.page, query.limit),
      );
      capped = counted.capped;
      return counted.total;
    },
  );
  return { data, total, capped };
}

const fieldError = (field: string, message: string) =>
  new HttpError(400, `Invalid ${field}: ${message}`, [{ field, message }]);

/** The entry's patient is the clinic's, and its dentist (when one is named) an active one of the clinic. */
async function requireOwnRows(tx: Transaction, clinicId: number, body: WaitlistFields): Promise<void> {
  const { rows: patient } = await tx.execute(
    sql`select 1 from patients where clinic_id = ${clinicId} and id = ${body.patient_id}`,
  );
  if (patient.length === 0) throw fieldError('patient_id', NO_SUCH_PATIENT);
  if (body.dentist_id === null) return;
  const { rows: dentist } = await tx.execute(sql`
    select 1 from dentists where clinic_id = ${clinicId} and id = ${body.dentist_id}
      and status = 'active' and deleted_at is null`);
  if (dentist.length === 0) throw fieldError('dentist_id', NO_ACTIVE_DENTIST);
}

/** `{1,3,5}`: the weekdays as a smallint[] literal both drivers take. */
const weekdaysArray = (days: readonly number[]) => sql`${`{${days.join(',')}}`}::smallint[]`;

/** The entry as a write left it, with the write's audit record (which announces it to other desks). */
async function auditedEntry(
  tx: Transaction,
  actor: Actor,
  action: string,
  id: number,
): Promise<WaitlistEntry> {
  const entry = (await findEntry(tx, actor.clinicId, id)) as WaitlistEntry;
  await recordActorAudit(tx, actor, {
    action,
    entity: 'waitlist',
    entityId: id,
    details: { patient: entry.patient_name, treatment: entry.treatment },
  });
  return entry;
}

export function createEntry(db: Database, actor: Actor, body: WaitlistFields): Promise<WaitlistEntry> {
  return db.transaction(async (tx) => {
    await requireOwnRows(tx, actor.clinicId, body);
    const { rows } = await tx.execute(sql`
      insert into waitlist_entries (clinic_id, patient_id, treatment, dentist_id, weekdays, part_of_day,
        earliest_on, latest_on, note, created_by)
      values (${actor.clinicId}, ${body.patient_id}, ${body.treatment}, ${body.dentist_id},
        ${weekdaysArray(body.weekdays)}, ${body.part_of_day}, ${body.earliest_on}::date, ${body.latest_on}::date,
        ${body.note}, ${actor.userId})
      returning id`);
    return auditedEntry(tx, actor, 'create', (rows[0] as { id: number }).id);
  });
}

/** Locks the entry for a write and checks If-Match: 404 when the clinic has no such entry. */
async function holdEntry(
  tx: Transaction,
  clinicId: number,
  id: number,
  expected: ExpectedVersion,
): Promise<WaitlistEntry> {
  const held = await findEntry(tx, clinicId, id, true);
  if (!held) throw new HttpError(404, WAITLIST_NOT_FOUND);
  requireVersion(held.version, expected);
  return held;
}

export function updateEntry(
  db: Database,
  actor: Actor,
  id: number,
  body: WaitlistFields,
  expected: ExpectedVersion,
): Promise<WaitlistEntry> {
  return db.transaction(async (tx) => {
    await holdEntry(tx, actor.clinicId, id, expected);
    await requireOwnRows(tx, actor.clinicId, body);
    await tx.execute(sql`
      update waitlist_entries set patient_id = ${body.patient_id}, treatment = ${body.treatment},
        dentist_id = ${body.dentist_id}, weekdays = ${weekdaysArray(body.weekdays)},
        part_of_day = ${body.part_of_day}, earliest_on = ${body.earliest_on}::date,
        latest_on = ${body.latest_on}::date, note = ${body.note}, updated_at = now()
      where clinic_id = ${actor.clinicId} and id = ${id}`);
    return auditedEntry(tx, actor, 'update', id);
  });
}

export function deleteEntry(
  db: Database,
  actor: Actor,
  id: number,
  expected: ExpectedVersion,
): Promise<void> {
  return db.transaction(async (tx) => {
    const held = await holdEntry(tx, actor.clinicId, id, expected);
    await tx.execute(sql`delete from waitlist_entries where clinic_id = ${actor.clinicId} and id = ${id}`);
    await recordActorAudit(tx, actor, {
      action: 'delete',
      entity: 'waitlist',
      entityId: id,
      details: { patient: held.patient_name, treatment: held.treatment },
    });
  });
}

/** The clinic's live, active dentists, or the one an entry names (none when it is gone). */
async function dentistsFor(db: Reader, clinicId: number, dentistId: number | null): Promise<DentistDays[]> {
  const { rows } = await db.execute(sql`
    select id, name, working_days as "workingDays" from dentists
    where clinic_id = ${clinicId} and status = 'active' and deleted_at is null
      ${dentistId === null ? sql`` : sql`and id = ${dentistId}`}
    order by name, id`);
  return rows as unknown as DentistDays[];
}

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

interface ToldRecord {
  entry_id: number;
  time: string;
  channels: string;
  created_at: Date | string;
}

const toldKey = (entryId: number, time: string) => `${entryId} ${time}`;

/**
 * The offers of a dentist's day these entries were told of, by entry and start: read through the
 * offers' key (clinic, entry, dentist, day, start).
 */
async function toldOffers(
  db: Reader,
  clinicId: number,
  dentistId: number,
  date: string,
  entryIds: readonly number[],
): Promise<Map<string, WaitlistTold>> {
  const told = new Map<string, WaitlistTold>();
  if (entryIds.length === 0) return told;
  const { rows } = await db.execute(sql`
    select entry_id, time, array_to_string(channels, ',') as channels, created_at from waitlist_offers
    where clinic_id = ${clinicId} and entry_id in (${sql.join(
      entryIds.map((id) => sql`${id}`),
      sql`, `,
    )})
      and dentist_id = ${dentistId} and date = ${date}::date`);
  for (const row of rows as unknown as ToldRecord[])
    told.set(toldKey(row.entry_id, row.time), {
      at: new Date(row.created_at).toISOString(),
      // Written from the outbox's channels alone (the table's check says so too).
      channels: row.channels.split(',') as WaitlistOfferChannel[],
    });
  return told;
}

type OfferFields = z.output<typeof waitlistOfferBodySchema>;

/** 409: the entry was told of this time already, saying when (the clinic's day and time) and how. */
async function alreadyTold(
  db: Reader,
  clinicId: number,
  id: number,
  offer: OfferFields,
): Promise<HttpError | null> {
  const told = (await toldOffers(db, clinicId, offer.dentist_id, offer.date, [id])).get(
    toldKey(id, offer.time),
  );
  if (!told) return null;
  const zone = await clinicTimeZone(db, clinicId);
  const at = new Date(told.at);
  return new HttpError(
    409,
    waitlistAlreadyTold(`${localDate(zone, at)} at ${localTime(zone, at)}`, told.channels),
  );
}

/**
 * The entry's earliest free times now: from today (or its earliest day) for up to WAITLIST_SEARCH_DAYS
 * days within its window, on its weekdays, with its dentist or any active one, in its part of the day;
 * the first free start of each day and dentist, earliest first, WAITLIST_FREE_TIMES_SHOWN of them.
 */
export async function entryFreeTimes(db: Reader, clinicId: number, id: number): Promise<WaitlistFreeTimes> {
  const entry = await findEntry(db, clinicId, id);
  if (!entry) throw new HttpError(404, WAITLIST_NOT_FOUND);
  const today = await clinicToday(db, clinicId);
  // Days as YYYY-MM-DD order as text does.
  const [from = today] = [entry.earliest_on, today].sort().reverse();
  const [until = from] = [entry.latest_on, addDays(from, WAITLIST_SEARCH_DAYS - 1)].sort();
  if (from > until) return { data: [], searched_until: null };
  const dentists = await dentistsFor(db, clinicId, entry.dentist_id);
  const offers: WaitlistOffer[] = [];
  for (let date = from; date <= until && offers.length < WAITLIST_FREE_TIMES_SHOWN; date = addDays(date, 1)) {
    if (!entry.weekdays.includes(isoWeekday(date))) continue;
    const ofDay: WaitlistOffer[] = [];
    for (const dentist of dentists) {
      const free = await freeTimesOf(db, clinicId, dentist, {
        date,
        treatment: entry.treatment,
        patientId: entry.patient_id,
      });
      const time = free.times.find((start) => startsInPartOfDay(entry.part_of_day, start));
      if (time)
        ofDay.push({
          dentist_id: dentist.id,
          dentist_name: dentist.name,
          date,
          time,
          duration: free.duration,
        });
    }
    offers.push(...ofDay.sort((a, b) => a.time.localeCompare(b.time)));
  }
  return { data: offers.slice(0, WAITLIST_FREE_TIMES_SHOWN), searched_until: until };
}

/**
 * Tells the entry's patient of a time that opened (Fill this time's Tell them): one outbox message per
 * channel the clinic's reminder switches allow and the patient has an address for, audited on the
 * entry, and recorded as told in the same transaction. The entry stays on the list until a visit is
 * booked for it. No channel, or this time told of already (the offers' key keeps it, races included):
 * 409, nothing written.
 */
export async function offerTime(
  db: Database,
  actor: Actor,
  id: number,
  offer: OfferFields,
): Promise<{ queued: WaitlistOfferChannel[] }> {
  try {
    return await tellOnce(db, actor, id, offer);
  } catch (error) {
    // Another desk told them of this time in the same moment: the offers' key refused this one, and
    // its messages went with the rolled-back transaction.
    if (violated(error, [UNIQUE_VIOLATION], 'waitlist_offers_pk'))
      throw (await alreadyTold(db, actor.clinicId, id, offer)) ?? error;
    throw error;
  }
}

function tellOnce(
  db: Database,
  actor: Actor,
  id: number,
  offer: OfferFields,
): Promise<{ queued: WaitlistOfferChannel[] }> {
  return db.transaction(async (tx) => {
    // Held to the end: offers of one entry take turns, and it is not taken off meanwhile.
    const entry = await findEntry(tx, actor.clinicId, id, true);
    if (!entry) throw new HttpError(404, WAITLIST_NOT_FOUND);
    if (offer.date < (await clinicToday(tx, actor.clinicId))) throw fieldError('date', WAITLIST_OFFER_PAST);
    const [dentist] = await dentistsFor(tx, actor.clinicId, offer.dentist_id);
    if (!dentist) throw fieldError('dentist_id', NO_ACTIVE_DENTIST);
    const told = await alreadyTold(tx, actor.clinicId, id, offer);
    if (told) throw told;
    const { rows } = await tx.execute(
      sql`select email, phone from patients where clinic_id = ${actor.clinicId} and id = ${entry.patient_id}`,
    );
    const address = rows[0] as { email: string | null; phone: string | null } | undefined;
    const queued = requireQueued(
      await queueWaitlistOffer(tx, actor.clinicId, {
        patientId: entry.patient_id,
        patient: entry.patient_name,
        email: address?.email ?? null,
        phone: address?.phone ?? null,
        date: offer.date,
        time: offer.time,
        duration: entry.duration,
        dentist: dentist.name,
      }),
      WAITLIST_NO_CHANNEL,
    );
    await tx.execute(sql`
      insert into waitlist_offers (clinic_id, entry_id, dentist_id, date, time, channels, created_by)
      values (${actor.clinicId}, ${id}, ${dentist.id}, ${offer.date}::date, ${offer.time},
        ${`{${queued.join(',')}}`}::text[], ${actor.userId})`);
    await recordActorAudit(tx, actor, {
      action: 'waitlist_offered',
      entity: 'waitlist',
      entityId: id,
      details: {
        patient: entry.patient_name,
        date: offer.date,
        time: offer.time,
        dentist_id: dentist.id,
        channels: queued,
      },
    });
    return { queued };
  });
}
