import {
  addMinutesToClinicTime,
  minutesOf,
  noticeMessage,
  ONLINE_HOLD_MINUTES,
  ONLINE_TIME_TAKEN,
  type PublicHoldBody,
} from '@dental/shared/domain';
import { sql } from 'drizzle-orm';
import { hashSecretToken, newSecretToken } from '../../auth/secretTokens';
import type { Database, Transaction } from '../../db/client';
import { clinicNow } from '../../db/clinicTime';
import { InvalidValue } from '../../domain/errors';
import { type BookingClinic, type OnlineSlot, onlineSlots, onlineTreatment } from './publicClinics';

/** How many free times a refused pick is offered instead, the nearest to it first. */
const NEAREST_OFFERED = 4;

export type HoldOutcome =
  | { held: { hold_id: string; expires_at: string } }
  | { taken: { message: string; times: Array<Omit<OnlineSlot, 'chair_id'>> } };

/**
 * Takes the clinic's day's turn (migration 0036: the visits' trigger takes the same lock when the
 * clinic books online), so holds and bookings of one day are placed one after another in every
 * process; the day's expired holds are removed under it.
 */
export async function takeDayTurn(tx: Transaction, clinicId: number, date: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`holds:${clinicId}:${date}`}, 0))`);
  await tx.execute(
    sql`delete from booking_holds where clinic_id = ${clinicId} and date = ${date} and expires_at <= now()`,
  );
}

/** The day's free times nearest to a refused pick, in the day's order. */
function nearestTo(time: string, slots: readonly OnlineSlot[]) {
  const wanted = minutesOf(time);
  return [...slots]
    .sort((a, b) => Math.abs(minutesOf(a.time) - wanted) - Math.abs(minutesOf(b.time) - wanted))
    .slice(0, NEAREST_OFFERED)
    .sort((a, b) => a.time.localeCompare(b.time))
    .map(({ chair_id: _chair, ...slot }) => slot);
}

/**
 * Holds the time a patient picked for {@link ONLINE_HOLD_MINUTES} minutes, in the chair and with the
 * dentist a booking would then get, when it is one of the page's free times; otherwise answers the
 * nearest free times instead. The hold's id is a random token; only its hash is kept.
 */
export async function placeHold(
  db: Database,
  clinic: BookingClinic,
  body: PublicHoldBody,
): Promise<HoldOutcome> {
  const { clinicId, settings } = clinic;
  const treatment = onlineTreatment(settings, body.visit_type_id, 'visit_type_id');
  const now = await clinicNow(db, clinicId);
  const earliest = addMinutesToClinicTime(now, settings.onlineBooking.noticeHours * 60);
  if (body.date < earliest.date || (body.date === earliest.date && body.time < earliest.time)) {
    const message = noticeMessage(settings.onlineBooking.noticeHours);
    throw new InvalidValue(message, [{ field: 'time', message }]);
  }
  return db.transaction(async (tx): Promise<HoldOutcome> => {
    await takeDayTurn(tx, clinicId, body.date);
    const slots = await onlineSlots(tx, clinic, { treatment, date: body.date, dentistId: body.dentist_id });
    const slot = slots.find((free) => free.time === body.time);
    if (!slot) return { taken: { message: ONLINE_TIME_TAKEN, times: nearestTo(body.time, slots) } };
    const token = newSecretToken(16);
    const duration = settings.treatmentMinutes[treatment];
    const result = await tx.execute(sql`
      insert into booking_holds (clinic_id, token_hash, dentist_id, chair_id, treatment, date, time,
        duration, turnover, dentist_from, dentist_to, expires_at)
      select ${clinicId}, ${hashSecretToken(token)}, ${slot.dentist_id}, ${slot.chair_id}, ${treatment},
        ${body.date}, ${body.time}, ${duration}, ${settings.turnoverMinutes}, lower(part), upper(part),
        now() + make_interval(mins => ${ONLINE_HOLD_MINUTES})
      from (select dentist_part(${clinicId}, ${treatment}, ${duration}) as part) as parts
      returning id, expires_at`);
    const { id, expires_at: expiresAt } = result.rows[0] as { id: number; expires_at: string | Date };
    // The desk's Day view shows the time held; no staff member made the change.
    await tx.execute(
      sql`select announce_change(${clinicId}, null, 'booking_hold', ${String(id)}, 'created')`,
    );
    return { held: { hold_id: token, expires_at: new Date(expiresAt).toISOString() } };
  });
}
