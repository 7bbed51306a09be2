import { randomInt } from 'node:crypto';
import {
  BIRTH_DATE_FUTURE,
  CODE_EXPIRED,
  CODE_NOT_ASKED,
  CODE_SENDS_USED,
  CODE_TRIES_USED,
  codeWrongMessage,
  HOLD_EXPIRED,
  HOLD_NOT_FOUND,
  ONLINE_CODE_MINUTES,
  ONLINE_CODE_SENDS,
  ONLINE_CODE_TRIES,
  ONLINE_TIME_TAKEN,
  openOnlineCapMessage,
  type PublicBooked,
  type PublicContact,
  phoneDigits,
} from '@dental/shared/domain';
import { and, eq, sql } from 'drizzle-orm';
import { hashSecretToken } from '../../auth/secretTokens';
import { recordAudit } from '../../db/auditLog';
import type { Database, Transaction } from '../../db/client';
import { clinicToday } from '../../db/clinicTime';
import { EXCLUSION_VIOLATION, violated } from '../../db/databaseErrors';
import { appointments, bookingHolds, bookingRequests, dentists, patients } from '../../db/schema';
import { Conflict, Expired, InvalidValue, NotFound } from '../../domain/errors';
import { settleVisit } from '../appointments/bookingRules';
import { queueOnlineMessage } from '../notifications/patientMessages';
import { readSettings } from '../settings/settingsData';
import { manageSecret, manageTokenOf, nextAppointmentId } from './manageLinks';

/** Who booked, as the hold keeps it until the visit is booked. */
type Contact = Omit<PublicContact, 'website'>;

/** The audit trail's actor for every public write: the patient online, no staff user. */
const PATIENT_ONLINE = 'patient online';

/** The hold behind a public id, live or not; unknown ids (and ids of removed holds) are refused alike. */
async function holdOf(tx: Transaction, holdId: string) {
  const [hold] = await tx
    .select()
    .from(bookingHolds)
    .where(eq(bookingHolds.tokenHash, hashSecretToken(holdId)))
    .for('update');
  if (!hold) throw new NotFound(HOLD_NOT_FOUND);
  if (hold.expiresAt.getTime() <= Date.now()) throw new Expired(HOLD_EXPIRED);
  return hold;
}

const codeHashOf = (holdId: string, code: string) => hashSecretToken(`${holdId}:${code}`);

/**
 * Sends a 6-digit code to the e-mail the patient gave (and by SMS to their phone when `bySms`, the
 * server having an SMS transport), valid {@link ONLINE_CODE_MINUTES} minutes; the hold lasts as long
 * as the code. A new code replaces the last one; a hold is sent {@link ONLINE_CODE_SENDS} at most.
 * Nothing says whether the e-mail or phone is a patient's.
 */
export async function sendHoldCode(
  db: Database,
  holdId: string,
  contact: Contact,
  { bySms }: { bySms: boolean },
): Promise<string> {
  return db.transaction(async (tx) => {
    const hold = await holdOf(tx, holdId);
    if (contact.date_of_birth > (await clinicToday(tx, hold.clinicId))) {
      throw InvalidValue.of('date_of_birth', BIRTH_DATE_FUTURE);
    }
    if (hold.codeSends >= ONLINE_CODE_SENDS) throw new Conflict(CODE_SENDS_USED);
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const minutes = sql`make_interval(mins => ${ONLINE_CODE_MINUTES})`;
    const [held] = await tx
      .update(bookingHolds)
      .set({
        contact,
        codeHash: codeHashOf(holdId, code),
        codeExpiresAt: sql`now() + ${minutes}`,
        codeTries: 0,
        codeSends: sql`${bookingHolds.codeSends} + 1`,
        expiresAt: sql`greatest(${bookingHolds.expiresAt}, now() + ${minutes})`,
      })
      .where(and(eq(bookingHolds.clinicId, hold.clinicId), eq(bookingHolds.id, hold.id)))
      .returning({ expiresAt: bookingHolds.expiresAt });
    const settings = await readSettings(tx, hold.clinicId);
    await queueOnlineMessage(tx, hold.clinicId, {
      kind: 'online_code',
      channel: 'email',
      to: contact.email,
      subject: `Your booking code for ${settings.practiceName}`,
      body: `Your code is ${code}. Type it on the booking page within ${ONLINE_CODE_MINUTES} minutes to book your visit on ${hold.date} at ${hold.time}. If you did not ask for it, ignore this e-mail.`,
    });
    if (bySms) {
      await queueOnlineMessage(tx, hold.clinicId, {
        kind: 'online_code',
        channel: 'sms',
        to: contact.phone,
        subject: null,
        body: `${settings.practiceName}: your booking code is ${code}, valid ${ONLINE_CODE_MINUTES} minutes.`,
      });
    }
    // The time stays held as long as the code is good: the page counts down to this.
    return (held?.expiresAt ?? new Date()).toISOString();
  });
}

/**
 * The patient a confirmed request is booked for (docs/product.md, Online booking): the one record
 * whose e-mail, phone and date of birth are all the request's; a new record when no record shares
 * the e-mail or the phone; otherwise a new record too, and the visit arrives at the desk as an
 * unmatched request. No existing record is changed.
 */
async function matchPatient(
  tx: Transaction,
  clinicId: number,
  contact: Contact,
): Promise<{ patientId: number; unmatched: boolean }> {
  const sharing = await tx
    .select({
      id: patients.id,
      email: patients.email,
      phone: patients.phone,
      dateOfBirth: patients.dateOfBirth,
    })
    .from(patients)
    .where(
      and(
        eq(patients.clinicId, clinicId),
        sql`(lower(${patients.email}) = lower(${contact.email})
          or regexp_replace(${patients.phone}, '\\D', '', 'g') = ${phoneDigits(contact.phone)})`,
      ),
    );
  const exact = sharing.filter(
    (row) =>
      row.email?.toLowerCase() === contact.email.toLowerCase() &&
      phoneDigits(row.phone) === phoneDigits(contact.phone) &&
      row.dateOfBirth === contact.date_of_birth,
  );
  if (exact.length === 1 && exact[0]) return { patientId: exact[0].id, unmatched: false };
  const [created] = await tx
    .insert(patients)
    .values({
      clinicId,
      name: contact.name,
      email: contact.email,
      phone: contact.phone,
      dateOfBirth: contact.date_of_birth,
      status: 'active',
    })
    .returning({ id: patients.id });
  if (!created) throw new Error('Patient insert returned no row');
  await recordAudit(tx, {
    clinicId,
    userId: null,
    action: 'create',
    entity: 'patient',
    entityId: created.id,
    details: { name: contact.name, by: PATIENT_ONLINE },
  });
  return { patientId: created.id, unmatched: sharing.length > 0 };
}

/** Visits to come booked online for this e-mail or phone, the clinic's cap counts them. */
async function openOnlineVisits(tx: Transaction, clinicId: number, contact: Contact): Promise<number> {
  const today = await clinicToday(tx, clinicId);
  const result = await tx.execute(sql`
    select count(*)::int as open from appointments a
    join patients p on p.clinic_id = a.clinic_id and p.id = a.patient_id
    where a.clinic_id = ${clinicId} and a.source = 'online' and a.status in ('pending', 'confirmed')
      and a.date >= ${today}::date
      and (lower(p.email) = lower(${contact.email})
        or regexp_replace(p.phone, '\\D', '', 'g') = ${phoneDigits(contact.phone)})`);
  return Number((result.rows[0] as { open: number | string }).open);
}

/**
 * Books the held time once the code is right: for the matched patient (or a new one), pending, from
 * the booking page, with a private manage link; the hold is let go. A wrong code counts; five, and
 * the hold is let go too. Answers the visit and the manage link's token.
 */
export async function confirmHold(
  db: Database,
  holdId: string,
  code: string,
  /** The manage page's address for a token, as the patient's browser reaches this server. */
  manageUrlOf: (token: string) => string,
): Promise<PublicBooked> {
  // A wrong code's try is counted in a transaction of its own, so the refusal does not undo it.
  const checked = await db.transaction(async (tx) => {
    const hold = await holdOf(tx, holdId);
    if (!hold.codeHash || !hold.contact) throw new Conflict(CODE_NOT_ASKED);
    if (!hold.codeExpiresAt || hold.codeExpiresAt.getTime() <= Date.now()) throw new Expired(CODE_EXPIRED);
    if (hold.codeHash === codeHashOf(holdId, code)) return hold;
    const tries = hold.codeTries + 1;
    const where = and(eq(bookingHolds.clinicId, hold.clinicId), eq(bookingHolds.id, hold.id));
    if (tries >= ONLINE_CODE_TRIES) await tx.delete(bookingHolds).where(where);
    else await tx.update(bookingHolds).set({ codeTries: tries }).where(where);
    return { wrong: ONLINE_CODE_TRIES - tries };
  });
  if ('wrong' in checked) {
    if (checked.wrong === 0) throw new Expired(CODE_TRIES_USED);
    throw InvalidValue.of('code', codeWrongMessage(checked.wrong));
  }
  const hold = checked;
  const contact = hold.contact as Contact;
  const appointmentId = await nextAppointmentId(db);
  const manageToken = manageTokenOf(await manageSecret(db), hold.clinicId, appointmentId);
  try {
    const booked = await db.transaction(async (tx) => {
      // The hold is let go in the booking's transaction: the visit takes its place at once.
      const gone = await tx
        .delete(bookingHolds)
        .where(and(eq(bookingHolds.clinicId, hold.clinicId), eq(bookingHolds.id, hold.id)))
        .returning({ id: bookingHolds.id });
      if (gone.length === 0) throw new NotFound(HOLD_NOT_FOUND);
      const settings = await readSettings(tx, hold.clinicId);
      const cap = settings.onlineBooking.maxOpenPerContact;
      if ((await openOnlineVisits(tx, hold.clinicId, contact)) >= cap) {
        throw new Conflict(openOnlineCapMessage(cap, settings.phone));
      }
      const { patientId, unmatched } = await matchPatient(tx, hold.clinicId, contact);
      const [created] = await tx
        .insert(appointments)
        .values({
          clinicId: hold.clinicId,
          id: appointmentId,
          patientId,
          dentistId: hold.dentistId,
          chairId: hold.chairId,
          date: hold.date,
          time: hold.time,
          duration: hold.duration,
          treatment: hold.treatment,
          notes: null,
          status: 'pending',
          source: 'online',
          manageTokenHash: hashSecretToken(manageToken),
        })
        .returning({ id: appointments.id, endTime: appointments.endTime });
      if (!created) throw new Error('Appointment insert returned no row');
      await settleVisit(tx, hold.clinicId, created.id, [{ dentistId: hold.dentistId, date: hold.date }]);
      if (unmatched) {
        await tx.insert(bookingRequests).values({
          clinicId: hold.clinicId,
          kind: 'unmatched',
          appointmentId: created.id,
          patientId,
          contact,
        });
      }
      await recordAudit(tx, {
        clinicId: hold.clinicId,
        userId: null,
        action: 'create',
        entity: 'appointment',
        entityId: created.id,
        details: {
          patient: contact.name,
          status: 'pending',
          date: hold.date,
          time: hold.time,
          duration: hold.duration,
          by: PATIENT_ONLINE,
          ...(unmatched ? { unmatched: true } : {}),
        },
      });
      const [dentist] = await tx
        .select({ name: dentists.name })
        .from(dentists)
        .where(and(eq(dentists.clinicId, hold.clinicId), eq(dentists.id, hold.dentistId)));
      const visit = {
        id: created.id,
        date: hold.date,
        time: hold.time,
        end_time: created.endTime ?? hold.time,
        dentist_name: dentist?.name ?? '',
        treatment: hold.treatment,
        status: 'pending',
      };
      await queueOnlineMessage(tx, hold.clinicId, {
        kind: 'online_confirmation',
        channel: 'email',
        to: contact.email,
        patientId,
        appointmentId: created.id,
        subject: `Your visit at ${settings.practiceName} on ${hold.date} at ${hold.time}`,
        body: [
          `Hello ${contact.name.split(/\s+/)[0]}, your ${hold.treatment.toLowerCase()} is booked on ${hold.date} from ${visit.time} to ${visit.end_time} with ${visit.dentist_name}.`,
          [settings.practiceName, settings.address, settings.phone].filter(Boolean).join(', '),
          `To confirm, move or cancel it, open your visit: ${manageUrlOf(manageToken)}`,
        ].join('\n\n'),
      });
      return visit;
    });
    return { appointment: booked, manage_url: manageUrlOf(manageToken) };
  } catch (error) {
    // The held time was taken meanwhile (the hold had expired between the code and the booking).
    if (violated(error, [EXCLUSION_VIOLATION], '')) throw new Conflict(ONLINE_TIME_TAKEN);
    throw error;
  }
}
