import {
  WAITLIST_NO_CHANNEL,
  WAITLIST_NOT_FOUND,
  WAITLIST_OFFER_PAST,
  type WaitlistOfferChannel,
  type WaitlistTold,
  waitlistAlreadyTold,
  type waitlistOfferBodySchema,
} from '@dental/shared/domain';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database, Reader } from '../../db/client';
import { clinicTimeZone, clinicToday, localDate, localTime } from '../../db/clinicTime';
import { UNIQUE_VIOLATION, violated } from '../../db/databaseErrors';
import { Conflict, InvalidValue, NotFound } from '../../domain/errors';
import { type Actor, recordActorAudit } from '../actorAudit';
import { NO_ACTIVE_DENTIST } from '../appointments/bookingRules';
import { queueWaitlistOffer, requireQueued } from '../notifications/patientMessages';
import { dentistsFor, findEntry } from './waitlistEntries';

interface ToldRecord {
  entry_id: number;
  time: string;
  channels: string;
  created_at: Date | string;
}

export const toldKey = (entryId: number, time: string) => `${entryId} ${time}`;

/**
 * The offers of a dentist's day these entries were told of, by entry and start: read through the
 * offers' key (clinic, entry, dentist, day, start).
 */
export async function toldOffers(
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
): Promise<Conflict | null> {
  const told = (await toldOffers(db, clinicId, offer.dentist_id, offer.date, [id])).get(
    toldKey(id, offer.time),
  );
  if (!told) return null;
  const zone = await clinicTimeZone(db, clinicId);
  const at = new Date(told.at);
  return new Conflict(waitlistAlreadyTold(`${localDate(zone, at)} at ${localTime(zone, at)}`, told.channels));
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
    if (!entry) throw new NotFound(WAITLIST_NOT_FOUND);
    if (offer.date < (await clinicToday(tx, actor.clinicId)))
      throw InvalidValue.of('date', WAITLIST_OFFER_PAST);
    const [dentist] = await dentistsFor(tx, actor.clinicId, offer.dentist_id);
    if (!dentist) throw InvalidValue.of('dentist_id', NO_ACTIVE_DENTIST);
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
