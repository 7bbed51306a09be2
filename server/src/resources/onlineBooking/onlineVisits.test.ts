import {
  BIRTH_DATE_FUTURE,
  type BookingRequest,
  type BookingRequestsPage,
  CODE_EXPIRED,
  CODE_NOT_ASKED,
  CODE_TRIES_USED,
  codeWrongMessage,
  cutoffMessage,
  HOLD_EXPIRED,
  HOLD_NOT_FOUND,
  MANAGE_LINK_UNKNOWN,
  NOT_A_CANDIDATE,
  openOnlineCapMessage,
  type PublicBooked,
  type PublicFreeTimes,
} from '@dental/shared/domain';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { hashSecretToken } from '../../auth/secretTokens';
import { addDays, clinicToday, isoWeekday } from '../../db/clinicTime';
import { appointments, auditLog, bookingHolds, bookingRequests, outbox, patients } from '../../db/schema';
import { apiSender, createSecondApp, createTestApp, fieldErrorsOf, login } from '../../test/testApp';

const PAGE = '/public/clinics/bright-smile-dental';

/** From a held time to a booked visit: the code by e-mail, matching the patient, and every refusal. */
describe('online booking: the code and the booking', () => {
  let app: FastifyInstance;
  let admin: string;
  let clinicId: number;
  let today: string;
  let dayOffset = 250;
  let contacts = 0;
  const db = () => app.database.db;
  const send = apiSender(() => app);
  const post = (url: string, payload: unknown) =>
    app.inject({ method: 'POST', url, payload: payload as object, remoteAddress: '203.0.113.30' });
  const nextTuesday = () => {
    do dayOffset += 1;
    while (isoWeekday(addDays(today, dayOffset)) !== 2);
    return addDays(today, dayOffset);
  };
  /** A newcomer's details, different for each test. */
  const newcomer = () => {
    contacts += 1;
    return {
      name: `Online Newcomer ${contacts}`,
      phone: `555 730 ${String(contacts).padStart(4, '0')}`,
      email: `newcomer${contacts}@patients.example`,
      date_of_birth: '1990-04-12',
    };
  };
  /** A hold of the first free time of a Tuesday of its own. */
  const holdATime = async () => {
    const date = nextTuesday();
    const free = (
      await app.inject({ method: 'GET', url: `${PAGE}/free-times?visit_type=dental-checkup&date=${date}` })
    ).json() as PublicFreeTimes;
    const slot = free.times[0] as PublicFreeTimes['times'][number];
    const held = await post(`${PAGE}/holds`, {
      visit_type_id: 'dental-checkup',
      dentist_id: slot.dentist_id,
      date,
      time: slot.time,
    });
    expect(held.statusCode).toBe(201);
    return { holdId: held.json().hold_id as string, date, slot };
  };
  /** The code the last code e-mail to `email` carries. */
  const codeSentTo = async (email: string) => {
    const [message] = await db()
      .select({ body: outbox.body })
      .from(outbox)
      .where(and(eq(outbox.kind, 'online_code'), eq(outbox.recipient, email)))
      .orderBy(desc(outbox.id))
      .limit(1);
    return /\b(\d{6})\b/.exec(message?.body ?? '')?.[1] as string;
  };
  const askCode = (holdId: string, contact: Record<string, unknown>) =>
    post(`/public/holds/${holdId}/code`, contact);
  const confirm = (holdId: string, code: string) => post(`/public/holds/${holdId}/confirm`, { code });
  /** Holds a time, asks for the code and books with it. */
  const bookOnline = async (contact: Record<string, unknown>) => {
    const { holdId } = await holdATime();
    expect((await askCode(holdId, contact)).statusCode).toBe(202);
    return confirm(holdId, await codeSentTo(contact.email as string));
  };

  beforeAll(async () => {
    app = await createTestApp();
    const signedIn = await login(app, 'admin', 'admin123');
    admin = signedIn.token;
    clinicId = signedIn.user.clinic_id;
    today = await clinicToday(db(), clinicId);
    const saved = await send(admin, 'PUT', '/api/settings', {
      onlineBooking: {
        enabled: true,
        horizonDays: 365,
        maxOpenPerContact: 2,
        visitTypes: [{ treatment: 'Dental Checkup', newPatients: true, returningPatients: true }],
      },
    });
    expect(saved.statusCode).toBe(200);
  });
  afterAll(() => app.close());

  it('books a newcomer with the code from the e-mail: a new patient, pending, from online, with a manage link', async () => {
    const contact = newcomer();
    const { holdId, date, slot } = await holdATime();
    const asked = await askCode(holdId, contact);
    expect(asked.statusCode).toBe(202);
    const code = await codeSentTo(contact.email);
    expect(code).toMatch(/^\d{6}$/);
    const wrong = await confirm(holdId, code === '000000' ? '000001' : '000000');
    expect(wrong.statusCode).toBe(400);
    expect(fieldErrorsOf(wrong)).toEqual([{ field: 'code', message: codeWrongMessage(4) }]);

    const booked = await confirm(holdId, code);
    expect(booked.statusCode).toBe(201);
    const answer = booked.json() as PublicBooked;
    expect(answer.appointment).toEqual({
      id: expect.any(Number),
      date,
      time: slot.time,
      end_time: slot.end_time,
      dentist_name: slot.dentist_name,
      treatment: 'Dental Checkup',
      status: 'pending',
    });
    const token = /\/book\/manage\/([A-Za-z0-9_-]{32,})$/.exec(answer.manage_url)?.[1] as string;
    expect(token).toBeDefined();

    // At the desk: a pending visit from online, for a new patient made from the request.
    const visit = (await send(admin, 'GET', `/api/appointments/${answer.appointment.id}`)).json();
    expect(visit).toMatchObject({
      source: 'online',
      confirmed_by: null,
      status: 'pending',
      patient: contact.name,
    });
    const [patient] = await db().select().from(patients).where(eq(patients.id, visit.patient_id));
    expect(patient).toMatchObject({
      name: contact.name,
      email: contact.email,
      phone: contact.phone,
      dateOfBirth: '1990-04-12',
    });
    const [stored] = await db()
      .select({ hash: appointments.manageTokenHash })
      .from(appointments)
      .where(eq(appointments.id, answer.appointment.id));
    expect(stored?.hash).toBe(hashSecretToken(token));
    // The hold is gone, and the code does not book twice.
    expect(await db().$count(bookingHolds, eq(bookingHolds.tokenHash, hashSecretToken(holdId)))).toBe(0);
    const again = await confirm(holdId, code);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(HOLD_NOT_FOUND);
    // The trail names the patient online, no staff user; the e-mail carries the manage link.
    const [record] = await db()
      .select({ userId: auditLog.userId, details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'appointment'), eq(auditLog.entityId, String(answer.appointment.id))));
    expect(record).toMatchObject({ userId: null, details: { by: 'patient online' } });
    const [mail] = await db()
      .select({ body: outbox.body })
      .from(outbox)
      .where(and(eq(outbox.kind, 'online_confirmation'), eq(outbox.recipient, contact.email)));
    expect(mail?.body).toContain(answer.manage_url);
  });

  it('books a returning patient whose e-mail, phone and birth date all match, changing nothing of theirs', async () => {
    const [known] = await db()
      .select()
      .from(patients)
      .where(
        and(
          eq(patients.clinicId, clinicId),
          sql`${patients.email} is not null and ${patients.dateOfBirth} is not null`,
        ),
      )
      .limit(1);
    if (!known?.email || !known.dateOfBirth)
      throw new Error('the demo clinic has a patient with an e-mail and birth date');
    const booked = await bookOnline({
      name: 'Whatever They Type',
      phone: known.phone,
      email: known.email.toUpperCase(),
      date_of_birth: known.dateOfBirth,
    });
    expect(booked.statusCode).toBe(201);
    const visit = (await send(admin, 'GET', `/api/appointments/${booked.json().appointment.id}`)).json();
    expect(visit.patient_id).toBe(known.id);
    const [after] = await db()
      .select()
      .from(patients)
      .where(and(eq(patients.clinicId, clinicId), eq(patients.id, known.id)));
    expect(after).toEqual(known);
    expect(await db().$count(bookingRequests, eq(bookingRequests.appointmentId, visit.id))).toBe(0);
  });

  it('books a partial match for a new record and sends the desk an unmatched request, the old record untouched', async () => {
    const [known] = await db()
      .select()
      .from(patients)
      .where(and(eq(patients.clinicId, clinicId), sql`${patients.email} is not null`))
      .limit(1);
    if (!known?.email) throw new Error('the demo clinic has a patient with an e-mail');
    const contact = {
      name: 'Someone Else',
      phone: '555 731 0001',
      email: known.email,
      date_of_birth: '1971-01-01',
    };
    const booked = await bookOnline(contact);
    expect(booked.statusCode).toBe(201);
    const visit = (await send(admin, 'GET', `/api/appointments/${booked.json().appointment.id}`)).json();
    expect(visit.patient_id).not.toBe(known.id);
    const [request] = await db()
      .select()
      .from(bookingRequests)
      .where(eq(bookingRequests.appointmentId, visit.id));
    expect(request).toMatchObject({ kind: 'unmatched', state: 'open', patientId: visit.patient_id, contact });
    const [after] = await db()
      .select()
      .from(patients)
      .where(and(eq(patients.clinicId, clinicId), eq(patients.id, known.id)));
    expect(after).toEqual(known);
  });

  it('lets a hold go after five wrong codes, and refuses an expired code, a code never asked and an unknown hold', async () => {
    const contact = newcomer();
    const { holdId } = await holdATime();
    expect((await confirm(holdId, '123456')).json().message).toBe(CODE_NOT_ASKED);
    await askCode(holdId, contact);
    const code = await codeSentTo(contact.email);
    const wrongCode = code === '999999' ? '999998' : '999999';
    for (const left of [4, 3, 2, 1]) {
      expect(fieldErrorsOf(await confirm(holdId, wrongCode))).toEqual([
        { field: 'code', message: codeWrongMessage(left) },
      ]);
    }
    const fifth = await confirm(holdId, wrongCode);
    expect(fifth.statusCode).toBe(410);
    expect(fifth.json().message).toBe(CODE_TRIES_USED);
    expect((await confirm(holdId, code)).statusCode).toBe(404);

    const second = await holdATime();
    const other = newcomer();
    await askCode(second.holdId, other);
    await db().execute(
      sql`update booking_holds set code_expires_at = now() - interval '1 second' where token_hash = ${hashSecretToken(second.holdId)}`,
    );
    const late = await confirm(second.holdId, await codeSentTo(other.email));
    expect(late.statusCode).toBe(410);
    expect(late.json().message).toBe(CODE_EXPIRED);
    await db().execute(
      sql`update booking_holds set expires_at = now() - interval '1 second' where token_hash = ${hashSecretToken(second.holdId)}`,
    );
    const gone = await askCode(second.holdId, other);
    expect(gone.statusCode).toBe(410);
    expect(gone.json().message).toBe(HOLD_EXPIRED);
    expect((await askCode('not-a-hold-id-at-all', other)).statusCode).toBe(404);
  });

  it('checks who books like the desk does, and quietly sends nothing when the hidden field is filled', async () => {
    const { holdId } = await holdATime();
    const future = await askCode(holdId, { ...newcomer(), date_of_birth: addDays(today, 1) });
    expect(future.statusCode).toBe(400);
    expect(fieldErrorsOf(future)).toEqual([{ field: 'date_of_birth', message: BIRTH_DATE_FUTURE }]);
    const badMail = await askCode(holdId, { ...newcomer(), email: 'not-an-email' });
    expect(badMail.statusCode).toBe(400);
    expect(fieldErrorsOf(badMail).map((error) => error.field)).toEqual(['email']);
    const bot = newcomer();
    const quiet = await askCode(holdId, { ...bot, website: 'http://spam.example' });
    expect(quiet.statusCode).toBe(202);
    expect(await db().$count(outbox, eq(outbox.recipient, bot.email))).toBe(0);
    const [hold] = await db()
      .select({ codeHash: bookingHolds.codeHash })
      .from(bookingHolds)
      .where(eq(bookingHolds.tokenHash, hashSecretToken(holdId)));
    expect(hold?.codeHash).toBeNull();
  });

  it("holds one contact to the clinic's cap of visits to come booked online", async () => {
    const contact = newcomer();
    expect((await bookOnline(contact)).statusCode).toBe(201);
    expect((await bookOnline({ ...contact, email: `other.${contact.email}` })).statusCode).toBe(201);
    const third = await bookOnline(contact);
    expect(third.statusCode).toBe(409);
    const settings = (await send(admin, 'GET', '/api/settings')).json();
    expect(third.json().message).toBe(openOnlineCapMessage(2, settings.phone));
  });

  it('books a hold once when 20 confirms with the right code race, in one process and across two', async () => {
    for (const across of [false, true]) {
      const second = across ? await createSecondApp(app) : null;
      if (across && !second) continue; // PGlite: one process owns the database.
      try {
        const contact = newcomer();
        const { holdId, date } = await holdATime();
        await askCode(holdId, contact);
        const code = await codeSentTo(contact.email);
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, index) =>
            (index % 2 && second ? second : app).inject({
              method: 'POST',
              url: `/public/holds/${holdId}/confirm`,
              payload: { code },
              remoteAddress: `203.0.113.${100 + index}`,
            }),
          ),
        );
        const codes = answers.map((answer) => answer.statusCode);
        expect(codes.filter((status) => status === 201)).toHaveLength(1);
        expect(codes.filter((status) => status !== 201).every((status) => status === 404)).toBe(true);
        expect(
          await db().$count(
            appointments,
            and(eq(appointments.date, date), eq(appointments.source, 'online')),
          ),
        ).toBe(1);
      } finally {
        await second?.close();
      }
    }
  });

  it('limits code requests and manage calls per address, with Retry-After', async () => {
    const limited = await createTestApp({ publicRateLimit: 2 });
    try {
      for (const url of ['/public/holds/unknown-hold/code', '/public/manage/unknown-link/cancel']) {
        const call = () =>
          limited.inject({ method: 'POST', url, payload: newcomer(), remoteAddress: '198.51.100.40' });
        expect((await call()).statusCode).not.toBe(429);
        expect((await call()).statusCode).not.toBe(429);
        const refused = await call();
        expect(refused.statusCode).toBe(429);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      }
    } finally {
      await limited.close();
    }
  });

  describe('the manage link', () => {
    const manage = (token: string, action = '', payload?: unknown) =>
      action
        ? post(`/public/manage/${token}/${action}`, payload ?? {})
        : app.inject({ method: 'GET', url: `/public/manage/${token}` });
    const tokenOf = (booked: { json: () => unknown }) =>
      /\/book\/manage\/([A-Za-z0-9_-]+)$/.exec((booked.json() as PublicBooked).manage_url)?.[1] as string;

    it('shows only the first name, the visit and the clinic, and lets the patient confirm it', async () => {
      const contact = newcomer();
      const booked = await bookOnline(contact);
      const token = tokenOf(booked);
      const page = await manage(token);
      expect(page.statusCode).toBe(200);
      const settings = (await send(admin, 'GET', '/api/settings')).json();
      expect(page.json()).toEqual({
        first_name: 'Online',
        clinic: {
          name: settings.practiceName,
          address: settings.address,
          phone: settings.phone,
          slug: settings.slug,
          timeZone: settings.timeZone,
        },
        appointment: {
          ...(booked.json() as PublicBooked).appointment,
          id: undefined,
          visit_type_id: 'dental-checkup',
          dentist_id: expect.any(Number),
        },
        cutoff_hours: 24,
        can_confirm: true,
        can_change: true,
      });
      expect(page.body).not.toContain(contact.email);
      expect(page.body).not.toContain(contact.phone);
      expect(page.body).not.toContain('Newcomer');

      const confirmed = await manage(token, 'confirm');
      expect(confirmed.statusCode).toBe(200);
      expect(confirmed.json()).toMatchObject({ appointment: { status: 'confirmed' }, can_confirm: false });
      const id = (booked.json() as PublicBooked).appointment.id;
      expect((await send(admin, 'GET', `/api/appointments/${id}`)).json()).toMatchObject({
        status: 'confirmed',
        confirmed_by: 'patient',
      });
      expect((await manage(token, 'confirm')).statusCode).toBe(200);
      const unknown = await manage('no-such-link', 'confirm');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe(MANAGE_LINK_UNKNOWN);
    });

    it('moves the visit to another free time of its dentist, pending again, and cancels it, freeing the time', async () => {
      const booked = await bookOnline(newcomer());
      const token = tokenOf(booked);
      const visit = (booked.json() as PublicBooked).appointment;
      await manage(token, 'confirm');
      const dentistId = (await manage(token)).json().appointment.dentist_id as number;
      const free = (
        await app.inject({
          method: 'GET',
          url: `${PAGE}/free-times?visit_type=dental-checkup&date=${visit.date}&dentist_id=${dentistId}`,
        })
      ).json() as PublicFreeTimes;
      const later = free.times.find((slot) => slot.time > visit.end_time) as PublicFreeTimes['times'][number];
      const taken = await manage(token, 'move', { date: visit.date, time: '03:00' });
      expect(taken.statusCode).toBe(400);
      const moved = await manage(token, 'move', { date: visit.date, time: later.time });
      expect(moved.statusCode).toBe(200);
      expect(moved.json().appointment).toMatchObject({ time: later.time, status: 'pending' });
      expect((await send(admin, 'GET', `/api/appointments/${visit.id}`)).json()).toMatchObject({
        time: later.time,
        status: 'pending',
        confirmed_by: null,
      });

      const cancelled = await manage(token, 'cancel');
      expect(cancelled.statusCode).toBe(200);
      expect(cancelled.json()).toMatchObject({ appointment: { status: 'cancelled' }, can_change: false });
      const after = (
        await app.inject({
          method: 'GET',
          url: `${PAGE}/free-times?visit_type=dental-checkup&date=${visit.date}&dentist_id=${dentistId}`,
        })
      ).json() as PublicFreeTimes;
      expect(after.times.map((slot) => slot.time)).toContain(later.time);
      expect((await manage(token, 'cancel')).json().message).toBe('This visit is cancelled');

      // The desk is given each freed time to offer to the waitlist: the one the move left, then the
      // one the cancellation left, once each, and closes them when done.
      const open = (await send(admin, 'GET', '/api/booking-requests?limit=100')).json()
        .data as BookingRequest[];
      const freed = open.filter(
        (request) => request.kind === 'freed' && request.appointment?.id === visit.id,
      );
      const cancelledVisit = {
        id: visit.id,
        date: visit.date,
        time: later.time,
        treatment: 'Dental Checkup',
        dentist_id: dentistId,
        dentist_name: visit.dentist_name,
        duration: 30,
        status: 'cancelled',
      };
      // Newest first.
      expect(freed).toEqual([
        expect.objectContaining({
          state: 'open',
          contact: expect.objectContaining({ wanted: 'cancel' }),
          appointment: cancelledVisit,
          freed: {
            dentist_id: dentistId,
            dentist_name: visit.dentist_name,
            date: visit.date,
            time: later.time,
            duration: 30,
          },
        }),
        expect.objectContaining({
          state: 'open',
          contact: expect.objectContaining({ wanted: `move to ${visit.date} ${later.time}` }),
          appointment: cancelledVisit,
          freed: {
            dentist_id: dentistId,
            dentist_name: visit.dentist_name,
            date: visit.date,
            time: visit.time,
            duration: 30,
          },
        }),
      ]);
      // The waitlist is asked about the time the move left, which is free.
      const left = freed[1]?.freed as NonNullable<BookingRequest['freed']>;
      const matches = await send(
        admin,
        'GET',
        `/api/waitlist/matches?dentist_id=${left.dentist_id}&date=${left.date}&time=${left.time}&duration=${left.duration}`,
      );
      expect(matches.statusCode).toBe(200);
      const id = freed[0]?.id as number;
      expect((await send(admin, 'POST', `/api/booking-requests/${id}/called-back`)).statusCode).toBe(409);
      const done = await send(admin, 'POST', `/api/booking-requests/${id}/done`);
      expect(done.statusCode).toBe(200);
      expect(done.json()).toMatchObject({ kind: 'freed', state: 'closed', closed_how: 'done' });
      expect((await send(admin, 'POST', `/api/booking-requests/${id}/done`)).statusCode).toBe(409);
    });

    it('inside the cut-off refuses to move or cancel, names the phone and asks the desk to call, once', async () => {
      const booked = await bookOnline(newcomer());
      const token = tokenOf(booked);
      const visit = (booked.json() as PublicBooked).appointment;
      // A cut-off longer than the time to the visit: it is inside.
      await db().execute(
        sql`update clinic_settings set online_booking = online_booking || '{"cutoffHours": 168}'::jsonb where clinic_id = ${clinicId}`,
      );
      await db().execute(sql`update appointments set date = ${addDays(today, 3)} where id = ${visit.id}`);
      try {
        const settings = (await send(admin, 'GET', '/api/settings')).json();
        expect((await manage(token)).json()).toMatchObject({ can_change: false, cutoff_hours: 168 });
        for (const attempt of [
          () => manage(token, 'cancel'),
          () => manage(token, 'move', { date: visit.date, time: visit.time }),
        ]) {
          const refused = await attempt();
          expect(refused.statusCode).toBe(409);
          expect(refused.json().message).toBe(cutoffMessage(168, settings.phone));
        }
        expect((await send(admin, 'GET', `/api/appointments/${visit.id}`)).json()).toMatchObject({
          status: 'pending',
        });
        const requests = await db()
          .select({ kind: bookingRequests.kind, state: bookingRequests.state })
          .from(bookingRequests)
          .where(eq(bookingRequests.appointmentId, visit.id));
        expect(requests).toEqual([{ kind: 'call_back', state: 'open' }]);
      } finally {
        await db().execute(
          sql`update clinic_settings set online_booking = online_booking || '{"cutoffHours": 24}'::jsonb where clinic_id = ${clinicId}`,
        );
      }
    });
  });

  describe("the desk's requests", () => {
    const partialMatch = async () => {
      const [known] = await db()
        .select()
        .from(patients)
        .where(and(eq(patients.clinicId, clinicId), sql`${patients.email} is not null`))
        .orderBy(patients.id)
        .limit(1);
      if (!known?.email) throw new Error('the demo clinic has a patient with an e-mail');
      contacts += 1;
      const booked = await bookOnline({
        name: `Maybe Known ${contacts}`,
        phone: `555 732 ${String(contacts).padStart(4, '0')}`,
        email: known.email,
        date_of_birth: '1965-06-06',
      });
      expect(booked.statusCode).toBe(201);
      const list = (await send(admin, 'GET', '/api/booking-requests')).json() as BookingRequestsPage;
      const request = list.data.find(
        (one) => one.appointment?.id === booked.json().appointment.id,
      ) as BookingRequest;
      return { known, request };
    };

    it('lists an unmatched booking with the records to link it to, and links it: the visit is theirs, the new record gone', async () => {
      const { known, request } = await partialMatch();
      expect(request).toMatchObject({ kind: 'unmatched', state: 'open', closed_how: null });
      expect(request.candidates.map((candidate) => candidate.id)).toContain(known.id);
      const made = request.patient_id as number;
      const stranger = await send(admin, 'POST', `/api/booking-requests/${request.id}/link`, {
        patient_id: made,
      });
      expect(stranger.statusCode).toBe(400);
      expect(fieldErrorsOf(stranger)).toEqual([{ field: 'patient_id', message: NOT_A_CANDIDATE }]);

      const linked = await send(admin, 'POST', `/api/booking-requests/${request.id}/link`, {
        patient_id: known.id,
      });
      expect(linked.statusCode).toBe(200);
      expect(linked.json()).toMatchObject({ state: 'closed', closed_how: 'linked', patient_id: known.id });
      const visit = (await send(admin, 'GET', `/api/appointments/${request.appointment?.id}`)).json();
      expect(visit.patient_id).toBe(known.id);
      expect(await db().$count(patients, eq(patients.id, made))).toBe(0);
      expect((await send(admin, 'POST', `/api/booking-requests/${request.id}/new-patient`)).statusCode).toBe(
        409,
      );
      const closed = (
        await send(admin, 'GET', '/api/booking-requests?state=closed')
      ).json() as BookingRequestsPage;
      expect(closed.data.map((one) => one.id)).toContain(request.id);
    });

    it('keeps an unmatched booking as a new patient, and closes a call-back once called', async () => {
      const { request } = await partialMatch();
      expect((await send(admin, 'POST', `/api/booking-requests/${request.id}/called-back`)).statusCode).toBe(
        409,
      );
      const kept = await send(admin, 'POST', `/api/booking-requests/${request.id}/new-patient`);
      expect(kept.json()).toMatchObject({ state: 'closed', closed_how: 'new_patient', candidates: [] });
      expect(await db().$count(patients, eq(patients.id, request.patient_id as number))).toBe(1);

      const [callBack] = await db()
        .insert(bookingRequests)
        .values({
          clinicId,
          kind: 'call_back',
          contact: { name: 'Ring Me', phone: '555 733 0001', email: null, wanted: 'cancel' },
        })
        .returning({ id: bookingRequests.id });
      const receptionist = (await login(app, 'receptionist', 'receptionist123')).token;
      const called = await send(receptionist, 'POST', `/api/booking-requests/${callBack?.id}/called-back`);
      expect(called.statusCode).toBe(200);
      expect(called.json()).toMatchObject({ kind: 'call_back', state: 'closed', closed_how: 'called_back' });
      expect((await send(admin, 'GET', '/api/booking-requests/999999')).statusCode).toBe(404);
      expect((await send(null, 'GET', '/api/booking-requests')).statusCode).toBe(401);
    });
  });
});
