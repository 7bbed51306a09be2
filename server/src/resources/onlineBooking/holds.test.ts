import {
  addMinutesToClinicTime,
  type ClinicEvent,
  noticeMessage,
  ONLINE_BOOKING_NOT_HERE,
  ONLINE_TIME_TAKEN,
  type PublicClinic,
  type PublicFreeTimes,
  VISIT_TYPE_NOT_ONLINE,
} from '@dental/shared/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { hashSecretToken } from '../../auth/secretTokens';
import { addDays, clinicNow, clinicToday, isoWeekday } from '../../db/clinicTime';
import { appointments, bookingHolds } from '../../db/schema';
import { openEventStream } from '../../test/eventStream';
import { apiSender, createSecondApp, createTestApp, fieldErrorsOf, login } from '../../test/testApp';

const PAGE = '/public/clinics/bright-smile-dental';

/** A time picked online is held for the patient, for the desk as well, until it expires. */
describe('online booking: holds', () => {
  let app: FastifyInstance;
  let admin: string;
  let clinicId: number;
  let today: string;
  let dentist: { id: number; name: string };
  let patients = 0;
  let dayOffset = 200;
  /** A Tuesday of its own for each test, past the demo data and inside the horizon. */
  const nextTuesday = () => {
    do dayOffset += 1;
    while (isoWeekday(addDays(today, dayOffset)) !== 2);
    return addDays(today, dayOffset);
  };
  const send = apiSender(() => app);
  const visitor = (on: FastifyInstance = app) => ({
    get: (url: string) => on.inject({ method: 'GET', url, remoteAddress: '203.0.113.20' }),
    post: (url: string, payload: unknown) =>
      on.inject({ method: 'POST', url, payload: payload as object, remoteAddress: '203.0.113.20' }),
  });
  const freeTimes = async (date: string, dentistId = dentist.id) => {
    const answer = await visitor().get(
      `${PAGE}/free-times?visit_type=dental-checkup&date=${date}&dentist_id=${dentistId}`,
    );
    expect(answer.statusCode).toBe(200);
    return (answer.json() as PublicFreeTimes).times.map((slot) => slot.time);
  };
  const hold = (date: string, time: string, dentistId: number | null = dentist.id, on = app) =>
    visitor(on).post(`${PAGE}/holds`, { visit_type_id: 'dental-checkup', dentist_id: dentistId, date, time });
  const deskBooking = (
    date: string,
    time: string,
    dentistId: number,
    extra: Record<string, unknown> = {},
  ) => {
    patients += 1;
    return send(admin, 'POST', '/api/appointments', {
      patient: `Hold Tester ${patients}`,
      phone: `555 720 ${String(patients).padStart(4, '0')}`,
      date,
      time,
      dentist_id: dentistId,
      treatment: 'Dental Checkup',
      notes: null,
      ...extra,
    });
  };

  beforeAll(async () => {
    app = await createTestApp();
    const signedIn = await login(app, 'admin', 'admin123');
    admin = signedIn.token;
    clinicId = signedIn.user.clinic_id;
    today = await clinicToday(app.database.db, clinicId);
    const saved = await send(admin, 'PUT', '/api/settings', {
      onlineBooking: {
        enabled: true,
        horizonDays: 365,
        visitTypes: [{ treatment: 'Dental Checkup', newPatients: true, returningPatients: true }],
      },
    });
    expect(saved.statusCode).toBe(200);
    const page = (await visitor().get(PAGE)).json() as PublicClinic;
    dentist = page.dentists[0] as { id: number; name: string };
  });
  afterAll(() => app.close());

  it('holds a free time for five minutes under a private id kept only as its hash', async () => {
    const date = nextTuesday();
    const [first] = await freeTimes(date);
    const before = Date.now();
    const held = await hold(date, first as string);
    expect(held.statusCode).toBe(201);
    const { hold_id, expires_at } = held.json() as { hold_id: string; expires_at: string };
    expect(hold_id).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    const minutes = (Date.parse(expires_at) - before) / 60_000;
    expect(minutes).toBeGreaterThan(4.9);
    expect(minutes).toBeLessThan(5.1);
    const [row] = await app.database.db
      .select({
        tokenHash: bookingHolds.tokenHash,
        time: bookingHolds.time,
        dentistId: bookingHolds.dentistId,
      })
      .from(bookingHolds)
      .where(and(eq(bookingHolds.clinicId, clinicId), eq(bookingHolds.date, date)));
    expect(row).toEqual({ tokenHash: hashSecretToken(hold_id), time: first, dentistId: dentist.id });
    expect(JSON.stringify(row)).not.toContain(hold_id);
  });

  it('keeps the held time from other patients and from the desk, and frees it when it expires', async () => {
    const date = nextTuesday();
    const [time] = await freeTimes(date);
    expect((await hold(date, time as string)).statusCode).toBe(201);

    // Another patient: the time is gone from the page, and picking it answers the nearest free times.
    expect(await freeTimes(date)).not.toContain(time);
    const second = await hold(date, time as string);
    expect(second.statusCode).toBe(409);
    const taken = second.json() as { message: string; times: Array<{ time: string; dentist_id: number }> };
    expect(taken.message).toBe(ONLINE_TIME_TAKEN);
    expect(taken.times.length).toBeGreaterThan(0);
    expect(taken.times.map((slot) => slot.time)).not.toContain(time);

    // The desk: not among the dentist's free times, and a booking over it is refused, saying why.
    const staffTimes = await send(
      admin,
      'GET',
      `/api/dentists/${dentist.id}/free-times?date=${date}&treatment=Dental%20Checkup`,
    );
    expect(staffTimes.json().times).not.toContain(time);
    const refused = await deskBooking(date, time as string, dentist.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(
      /^Held online \d\d:\d\d–\d\d:\d\d, [1-5] min left: choose another time$/,
    );
    expect(await app.database.db.$count(appointments, eq(appointments.date, date))).toBe(0);

    // Expired, it holds nothing: the page offers the time again and the desk books it.
    await app.database.db.execute(
      sql`update booking_holds set expires_at = now() - interval '1 second' where clinic_id = ${clinicId} and date = ${date}`,
    );
    expect(await freeTimes(date)).toContain(time);
    expect((await deskBooking(date, time as string, dentist.id)).statusCode).toBe(201);
  });

  it("gives the desk's other dentists another chair than the one held", async () => {
    const date = nextTuesday();
    const [time] = await freeTimes(date);
    expect((await hold(date, time as string)).statusCode).toBe(201);
    const [held] = await app.database.db
      .select({ chairId: bookingHolds.chairId })
      .from(bookingHolds)
      .where(and(eq(bookingHolds.clinicId, clinicId), eq(bookingHolds.date, date)));
    const page = (await visitor().get(PAGE)).json() as PublicClinic;
    // A dentist who works then too (their own default chair may be the one held).
    let other: { id: number } | undefined;
    for (const one of page.dentists) {
      if (one.id !== dentist.id && (await freeTimes(date, one.id)).includes(time as string)) other = one;
    }
    if (!other) throw new Error('no other dentist works then');
    const booked = await deskBooking(date, time as string, other.id);
    expect(booked.json()).toMatchObject({ time });
    expect(booked.statusCode).toBe(201);
    expect(booked.json().chair_id).not.toBe(held?.chairId);
  });

  it('refuses a time inside the notice, a visit type not offered online and a malformed pick', async () => {
    const soon = addMinutesToClinicTime(await clinicNow(app.database.db, clinicId), 60);
    const inside = await hold(soon.date, soon.time);
    expect(inside.statusCode).toBe(400);
    expect(fieldErrorsOf(inside)).toEqual([{ field: 'time', message: noticeMessage(2) }]);
    const rootCanal = await visitor().post(`${PAGE}/holds`, {
      visit_type_id: 'root-canal',
      dentist_id: null,
      date: nextTuesday(),
      time: '09:00',
    });
    expect(rootCanal.statusCode).toBe(400);
    expect(fieldErrorsOf(rootCanal)).toEqual([{ field: 'visit_type_id', message: VISIT_TYPE_NOT_ONLINE }]);
    for (const body of [
      { visit_type_id: 'dental-checkup', dentist_id: null, date: '2027-02-30', time: '09:00' },
      { visit_type_id: 'dental-checkup', dentist_id: null, date: nextTuesday(), time: '9am' },
      { visit_type_id: 'dental-checkup', date: nextTuesday(), time: '09:00' },
      {
        visit_type_id: 'dental-checkup',
        dentist_id: null,
        date: nextTuesday(),
        time: '09:00',
        patient_id: 1,
      },
    ]) {
      expect((await visitor().post(`${PAGE}/holds`, body)).statusCode).toBe(400);
    }
    const elsewhere = await visitor().post('/public/clinics/harbor-dental/holds', {
      visit_type_id: 'dental-checkup',
      dentist_id: null,
      date: nextTuesday(),
      time: '09:00',
    });
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json()).toEqual({ message: ONLINE_BOOKING_NOT_HERE });
  });

  it('lets exactly one of 20 holds of one time win, in one process and across two', async () => {
    for (const across of [false, true]) {
      const second = across ? await createSecondApp(app) : null;
      if (across && !second) continue; // PGlite: one process owns the database.
      try {
        const date = nextTuesday();
        const [time] = await freeTimes(date);
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, index) =>
            hold(date, time as string, dentist.id, index % 2 && second ? second : app),
          ),
        );
        const codes = answers.map((answer) => answer.statusCode);
        expect(codes.filter((code) => code === 201)).toHaveLength(1);
        expect(codes.filter((code) => code === 409)).toHaveLength(19);
        expect(
          await app.database.db.$count(
            bookingHolds,
            and(
              eq(bookingHolds.clinicId, clinicId),
              eq(bookingHolds.date, date),
              eq(bookingHolds.time, time as string),
            ),
          ),
        ).toBe(1);
      } finally {
        await second?.close();
      }
    }
  });

  it('lets a hold and desk bookings race for one dentist and time: exactly one of them wins', async () => {
    const date = nextTuesday();
    const [time] = await freeTimes(date);
    const answers = await Promise.all([
      hold(date, time as string),
      ...Array.from({ length: 9 }, () => deskBooking(date, time as string, dentist.id)),
    ]);
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(1);
    const holds = await app.database.db.$count(
      bookingHolds,
      and(eq(bookingHolds.clinicId, clinicId), eq(bookingHolds.date, date)),
    );
    const visits = await app.database.db.$count(
      appointments,
      and(eq(appointments.date, date), eq(appointments.dentistId, dentist.id)),
    );
    expect(holds + visits).toBe(1);
  });
  it('lets a dentist with a time held online be deleted: the hold goes with them', async () => {
    const made = await send(admin, 'POST', '/api/dentists', {
      name: 'Dr. Held Online',
      email: 'held.online@clinic.example',
      phone: '555-0190',
      specialty: 'General Dentistry',
      license: 'DDS-HELD-1',
      working_days: '12345',
    });
    expect(made.statusCode).toBe(201);
    const date = nextTuesday();
    const [first] = await freeTimes(date, made.json().id);
    const held = await hold(date, first as string, made.json().id);
    expect(held.statusCode).toBe(201);
    const deleted = await send(admin, 'DELETE', `/api/dentists/${made.json().id}`);
    expect(deleted.statusCode).toBe(200);
    expect(
      await app.database.db.$count(
        bookingHolds,
        eq(bookingHolds.tokenHash, hashSecretToken(held.json().hold_id)),
      ),
    ).toBe(0);
  });
  it("shows the desk's calendar the day's held times, live, with dentist, chair and when each lets go", async () => {
    const listening = await openEventStream(app, admin);
    try {
      const date = nextTuesday();
      const [first] = await freeTimes(date);
      const held = await hold(date, first as string);
      expect(held.statusCode).toBe(201);
      const event = await listening.next(
        (streamed) =>
          streamed.event === 'change' && (streamed.data as ClinicEvent).resource === 'booking_hold',
      );
      expect(event.data).toMatchObject({ resource: 'booking_hold', action: 'created', by: null, desk: null });

      const dentistAccount = (await login(app, 'dentist', 'dentist123')).token;
      for (const token of [admin, dentistAccount]) {
        const seen = await send(token, 'GET', `/api/held-times?date=${date}`);
        expect(seen.statusCode).toBe(200);
        expect(seen.json().data).toEqual([
          {
            id: (event.data as ClinicEvent).id,
            date,
            time: first,
            end_time: addMinutesToClinicTime({ date, time: first as string }, 30).time,
            duration: 30,
            treatment: 'Dental Checkup',
            dentist_id: dentist.id,
            dentist_name: dentist.name,
            chair_id: expect.any(Number),
            expires_at: held.json().expires_at,
          },
        ]);
      }
      // Once it has let go, the day shows it no more.
      await app.database.db
        .update(bookingHolds)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(eq(bookingHolds.tokenHash, hashSecretToken(held.json().hold_id)));
      expect((await send(admin, 'GET', `/api/held-times?date=${date}`)).json().data).toEqual([]);
      expect((await send(admin, 'GET', '/api/held-times?date=someday')).statusCode).toBe(400);
      expect((await app.inject({ method: 'GET', url: `/api/held-times?date=${date}` })).statusCode).toBe(401);
    } finally {
      listening.close();
    }
  });
});
