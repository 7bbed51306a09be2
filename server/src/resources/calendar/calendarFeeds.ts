import {
  CALENDAR_FEED_FUTURE_DAYS,
  CALENDAR_FEED_PAST_DAYS,
  type CalendarFeedStatus,
} from '@dental/shared/domain';
import { and, asc, eq, gte, lte } from 'drizzle-orm';
import { hashSecretToken, newSecretToken } from '../../auth/secretTokens';
import type { Database } from '../../db/client';
import { addDays, clinicToday } from '../../db/clinicTime';
import { liveDentist } from '../../db/liveDentists';
import { appointments, calendarFeeds, chairs, clinics, dentists, patients } from '../../db/schema';
import { NotFound } from '../../domain/errors';
import { type Actor, recordActorAudit } from '../actorAudit';
import { addVisitEvent, clinicCalendar } from './icalendar';

async function requireDentist(db: Database, clinicId: number, dentistId: number) {
  const [dentist] = await db
    .select({ name: dentists.name })
    .from(dentists)
    .where(liveDentist(clinicId, dentistId));
  if (!dentist) throw new NotFound('Dentist not found');
  return dentist;
}

export async function feedStatus(
  db: Database,
  clinicId: number,
  dentistId: number,
): Promise<CalendarFeedStatus> {
  await requireDentist(db, clinicId, dentistId);
  const [feed] = await db
    .select({ createdAt: calendarFeeds.createdAt })
    .from(calendarFeeds)
    .where(and(eq(calendarFeeds.clinicId, clinicId), eq(calendarFeeds.dentistId, dentistId)));
  return { dentist_id: dentistId, active: !!feed, created_at: feed ? feed.createdAt.toISOString() : null };
}

/** Turns the dentist's feed off: its address stops working. False when there was none. */
export async function turnOffFeed(db: Database, actor: Actor, dentistId: number): Promise<boolean> {
  const dentist = await requireDentist(db, actor.clinicId, dentistId);
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(calendarFeeds)
      .where(and(eq(calendarFeeds.clinicId, actor.clinicId), eq(calendarFeeds.dentistId, dentistId)))
      .returning({ dentistId: calendarFeeds.dentistId });
    if (removed.length === 0) return false;
    await recordActorAudit(tx, actor, {
      action: 'delete',
      entity: 'calendar_feed',
      entityId: dentistId,
      details: { name: `${dentist.name}'s calendar feed` },
    });
    return true;
  });
}

/** A new private token for the dentist's feed; any earlier one stops working. Answers the token. */
export async function rotateFeed(
  db: Database,
  actor: Actor,
  dentistId: number,
): Promise<{ token: string; createdAt: Date }> {
  const dentist = await requireDentist(db, actor.clinicId, dentistId);
  const token = newSecretToken(24);
  const createdAt = new Date();
  await db.transaction(async (tx) => {
    await tx
      .insert(calendarFeeds)
      .values({
        clinicId: actor.clinicId,
        dentistId,
        tokenHash: hashSecretToken(token),
        createdBy: actor.userId,
        createdAt,
      })
      .onConflictDoUpdate({
        target: [calendarFeeds.clinicId, calendarFeeds.dentistId],
        set: { tokenHash: hashSecretToken(token), createdBy: actor.userId, createdAt },
      });
    await recordActorAudit(tx, actor, {
      action: 'update',
      entity: 'calendar_feed',
      entityId: dentistId,
      details: { name: `${dentist.name}'s calendar feed`, changed: ['url'] },
    });
  });
  return { token, createdAt };
}

/**
 * The feed of the dentist whose token this is, or null for an unknown token: one VEVENT per
 * appointment from 30 days back to 180 ahead, cancelled ones marked so; stable UIDs, the appointment's
 * change count as SEQUENCE, times in the clinic's zone. No phone, e-mail or notes.
 */
export async function renderFeed(
  db: Database,
  token: string,
): Promise<{ body: string; clinicId: number; dentistId: number; visits: number } | null> {
  const [feed] = await db
    .select({
      clinicId: calendarFeeds.clinicId,
      dentistId: calendarFeeds.dentistId,
      dentistName: dentists.name,
      clinicName: clinics.name,
      timeZone: clinics.timeZone,
    })
    .from(calendarFeeds)
    // An inactive dentist's visits are nobody's calendar any more.
    .innerJoin(dentists, liveDentist(calendarFeeds.clinicId, calendarFeeds.dentistId, { active: true }))
    .innerJoin(clinics, eq(clinics.id, calendarFeeds.clinicId))
    .where(eq(calendarFeeds.tokenHash, hashSecretToken(token)));
  if (!feed) return null;
  const today = await clinicToday(db, feed.clinicId);
  const visits = await db
    .select({
      id: appointments.id,
      date: appointments.date,
      time: appointments.time,
      duration: appointments.duration,
      treatment: appointments.treatment,
      status: appointments.status,
      sequence: appointments.sequence,
      patient: patients.name,
      chair: chairs.name,
      updatedAt: appointments.updatedAt,
    })
    .from(appointments)
    .innerJoin(
      patients,
      and(eq(patients.clinicId, appointments.clinicId), eq(patients.id, appointments.patientId)),
    )
    .innerJoin(chairs, and(eq(chairs.clinicId, appointments.clinicId), eq(chairs.id, appointments.chairId)))
    .where(
      and(
        eq(appointments.clinicId, feed.clinicId),
        eq(appointments.dentistId, feed.dentistId),
        gte(appointments.date, addDays(today, -CALENDAR_FEED_PAST_DAYS)),
        lte(appointments.date, addDays(today, CALENDAR_FEED_FUTURE_DAYS)),
      ),
    )
    .orderBy(asc(appointments.date), asc(appointments.time));

  const ical = clinicCalendar(`${feed.dentistName}, ${feed.clinicName}`, feed.timeZone);
  for (const visit of visits) {
    addVisitEvent(ical, feed.timeZone, {
      // Not the address the feed was read from: a phone that reaches it by another name (an IP, a
      // proxy) must see the same events, not a second copy of each.
      uid: `appointment-${feed.clinicId}-${visit.id}@dental-clinic.calendar`,
      sequence: visit.sequence,
      date: visit.date,
      time: visit.time,
      duration: visit.duration,
      changedAt: visit.updatedAt,
      summary: `${visit.treatment}: ${visit.patient}`,
      // The chair the dentist finds the patient in (docs/product.md, Chairs).
      location: visit.chair,
      description: `Status: ${visit.status}`,
      cancelled: visit.status === 'cancelled',
    });
  }
  return {
    body: ical.calendar.toString(),
    clinicId: feed.clinicId,
    dentistId: feed.dentistId,
    visits: visits.length,
  };
}
