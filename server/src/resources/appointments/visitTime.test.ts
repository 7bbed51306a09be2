import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { addDays, clinicToday, isoWeekday } from '../../db/clinicTime';
import { appointments, auditLog, availability, dentists, patients } from '../../db/schema';
import { authHeader, createSecondApp, createTestApp, login } from '../../test/testApp';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface Visit {
  id: number;
  patient_id: number;
  dentist_id: number;
  date: string;
  time: string;
  duration: number;
  end_time: string;
  status: string;
  outside_hours: boolean;
  outside_hours_reason: string | null;
  overlapping: boolean;
}

/** Visit lengths, no overlaps and open hours (issue: a visit holds its time), through the API. */
describe('a visit holds its time', () => {
  let app: FastifyInstance;
  let adminToken: string;
  let receptionistToken: string;
  let dentistToken: string;
  let clinicId: number;
  let sarah: { id: number; name: string };
  let michael: { id: number; name: string };
  let today: string;
  /** Days far past the demo data, so each test has its dentists' days to itself. */
  let dayOffset = 500;
  /** The next future day with this ISO weekday (1 Monday … 7 Sunday). */
  const nextOn = (weekday: number) => {
    do dayOffset += 1;
    while (isoWeekday(addDays(today, dayOffset)) !== weekday);
    return addDays(today, dayOffset);
  };
  const nextTuesday = () => nextOn(2);

  const db = () => app.database.db;
  const send = (token: string, method: Method, url: string, payload?: unknown, on = app) =>
    on.inject({
      method,
      url,
      headers: authHeader(token),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  let patientCount = 0;
  /** A booking for a new patient of its own unless one is named. */
  const booking = (overrides: Record<string, unknown> = {}) => {
    patientCount += 1;
    return {
      patient: `Length Tester ${patientCount}`,
      phone: `555 700 ${String(patientCount).padStart(4, '0')}`,
      date: nextTuesday(),
      time: '10:00',
      dentist_id: sarah.id,
      treatment: 'Dental Checkup',
      notes: null,
      ...overrides,
    };
  };
  const post = (overrides: Record<string, unknown> = {}, token = adminToken) =>
    send(token, 'POST', '/api/appointments', booking(overrides));
  const book = async (overrides: Record<string, unknown> = {}, token = adminToken): Promise<Visit> => {
    const response = await post(overrides, token);
    expect(response.statusCode).toBe(201);
    return response.json() as Visit;
  };
  /** What the database holds of a dentist's live visits on a day, as `start-length`. */
  const liveOf = async (dentistId: number, date: string) =>
    (
      await db()
        .select({ time: appointments.time, duration: appointments.duration, status: appointments.status })
        .from(appointments)
        .where(and(eq(appointments.dentistId, dentistId), eq(appointments.date, date)))
        .orderBy(appointments.time)
    )
      .filter((row) => row.status !== 'cancelled')
      .map((row) => `${row.time}-${row.duration}`);
  const freeTimes = async (dentistId: number, query: string, token = receptionistToken) => {
    const response = await send(token, 'GET', `/api/dentists/${dentistId}/free-times?${query}`);
    expect(response.statusCode).toBe(200);
    return response.json() as {
      times: string[];
      open: Array<{ start: string; end: string }>;
      reason: string | null;
      message: string | null;
      duration: number;
    };
  };
  const addDay = async (
    date: string,
    slots: Array<{ start: string; end: string; closed?: boolean }>,
    status: 'active' | 'inactive' = 'active',
    dentistId = sarah.id,
  ) => {
    const [row] = await db()
      .insert(availability)
      .values({
        clinicId,
        dentistId,
        date,
        status,
        timeSlots: slots.map((slot) => ({ ...slot, available: slot.closed !== true })),
      })
      .returning({ id: availability.id });
    return row?.id ?? 0;
  };

  beforeAll(async () => {
    app = await createTestApp();
    const admin = await login(app, 'admin', 'admin123');
    adminToken = admin.token;
    clinicId = admin.user.clinic_id;
    receptionistToken = (await login(app, 'receptionist', 'receptionist123')).token;
    dentistToken = (await login(app, 'dentist', 'dentist123')).token;
    const own = await db()
      .select({ id: dentists.id, name: dentists.name, workingDays: dentists.workingDays })
      .from(dentists)
      .where(and(eq(dentists.clinicId, clinicId), eq(dentists.status, 'active')))
      .orderBy(dentists.id);
    const [first, second] = own.filter((dentist) => dentist.workingDays.includes('2'));
    if (!first || !second) throw new Error('the demo clinic has two dentists working Tuesdays');
    sarah = first;
    michael = second;
    today = await clinicToday(db(), clinicId);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  }, 60_000);

  describe('lengths', () => {
    it("gives a visit its treatment's length unless the booking says, and answers its end", async () => {
      const rootCanal = await book({ treatment: 'Root Canal' });
      expect(rootCanal).toMatchObject({ time: '10:00', duration: 90, end_time: '11:30' });
      const checkup = await book({ time: '14:00', duration: 45 });
      expect(checkup).toMatchObject({ duration: 45, end_time: '14:45' });
      const read = (await send(receptionistToken, 'GET', `/api/appointments/${rootCanal.id}`)).json();
      expect(read).toMatchObject({
        duration: 90,
        end_time: '11:30',
        outside_hours: false,
        overlapping: false,
      });
    });

    it('takes the lengths an admin sets in Settings for new bookings', async () => {
      const saved = await send(adminToken, 'PUT', '/api/settings', {
        treatmentMinutes: { 'Tooth Extraction': 40 },
      });
      expect(saved.statusCode).toBe(200);
      expect(saved.json().treatmentMinutes).toMatchObject({ 'Tooth Extraction': 40, 'Root Canal': 90 });
      try {
        expect(await book({ treatment: 'Tooth Extraction' })).toMatchObject({
          duration: 40,
          end_time: '10:40',
        });
      } finally {
        await send(adminToken, 'PUT', '/api/settings', { treatmentMinutes: { 'Tooth Extraction': 60 } });
      }
      const refused = await send(adminToken, 'PUT', '/api/settings', {
        treatmentMinutes: { 'Root Canal': 7 },
      });
      expect(refused.statusCode).toBe(400);
    });

    it.each([7, 0, 485, 30.5, '30', -5])(
      'refuses a duration of %p with 400 naming it, storing nothing',
      async (duration) => {
        const date = nextTuesday();
        const response = await post({ date, duration });
        expect(response.statusCode).toBe(400);
        expect(response.json().errors).toEqual(
          expect.arrayContaining([expect.objectContaining({ field: 'duration' })]),
        );
        expect(await liveOf(sarah.id, date)).toEqual([]);
      },
    );
  });

  describe('no overlaps', () => {
    it("keeps a dentist's visits apart, touching allowed, naming the visit in the way", async () => {
      const date = nextTuesday();
      await book({ date, time: '10:00', treatment: 'Root Canal', patient: 'Rita Canal' });
      for (const time of ['10:01', '10:15', '10:30', '11:25', '09:45']) {
        const refused = await post({ date, time, treatment: 'Dental Checkup' });
        expect(refused.statusCode).toBe(409);
        expect(refused.json().message).toBe(
          `${sarah.name} already has an appointment on ${date} at 10:00–11:30 (Rita Canal)`,
        );
      }
      await book({ date, time: '11:30' });
      await book({ date, time: '09:30' });
      expect(await liveOf(sarah.id, date)).toEqual(['09:30-30', '10:00-90', '11:30-30']);
    });

    it("keeps one patient's visits apart across dentists; cancelling frees the time", async () => {
      const date = nextTuesday();
      const first = await book({ date, time: '10:00', treatment: 'Regular Cleaning', patient: 'Pat Twice' });
      const clash = await post({ date, time: '10:30', dentist_id: michael.id, patient_id: first.patient_id });
      expect(clash.statusCode).toBe(409);
      expect(clash.json().message).toBe(
        `Pat Twice already has an appointment on ${date} at 10:00–11:00 with ${sarah.name}`,
      );
      expect(await liveOf(michael.id, date)).toEqual([]);
      await send(adminToken, 'PATCH', `/api/appointments/${first.id}/status`, { status: 'cancelled' });
      await book({ date, time: '10:30', dentist_id: michael.id, patient_id: first.patient_id });
      // Back from cancelled over the patient's other visit: refused, and it stays cancelled.
      const back = await send(adminToken, 'PATCH', `/api/appointments/${first.id}/status`, {
        status: 'pending',
      });
      expect(back.statusCode).toBe(409);
      expect((await send(adminToken, 'GET', `/api/appointments/${first.id}`)).json().status).toBe(
        'cancelled',
      );
    });

    it('refuses an edit or a longer length over another visit, and changes nothing', async () => {
      const date = nextTuesday();
      await book({ date, time: '11:00', patient: 'Fixed Point' });
      const moving = await book({ date, time: '09:00' });
      const body = booking({ date, time: '09:00', patient: 'Mover', phone: '555 000 1234' });
      const onto = await send(adminToken, 'PUT', `/api/appointments/${moving.id}`, {
        ...body,
        time: '10:45',
      });
      expect(onto.statusCode).toBe(409);
      const longer = await send(adminToken, 'PUT', `/api/appointments/${moving.id}`, {
        ...body,
        time: '10:00',
        duration: 90,
      });
      expect(longer.statusCode).toBe(409);
      expect(longer.json().message).toContain('at 11:00–11:30 (Fixed Point)');
      expect(await liveOf(sarah.id, date)).toEqual(['09:00-30', '11:00-30']);
      const fits = await send(adminToken, 'PUT', `/api/appointments/${moving.id}`, {
        ...body,
        time: '10:00',
        duration: 60,
      });
      expect(fits.statusCode).toBe(200);
      expect(fits.json()).toMatchObject({ time: '10:00', end_time: '11:00' });
    });
  });

  describe('open hours', () => {
    it("refuses a day the dentist does not work, and times outside their hours, naming the day's hours", async () => {
      const sunday = nextOn(7);
      const closed = await post({ date: sunday });
      expect(closed.statusCode).toBe(409);
      expect(closed.json().message).toBe(
        `${sarah.name} does not work on Sunday, ${sunday}, so 10:00–10:30 cannot be booked`,
      );
      const date = nextTuesday();
      for (const [time, treatment, range] of [
        ['03:00', 'Dental Checkup', '03:00–03:30'],
        ['23:59', 'Dental Checkup', '23:59–00:29'],
        ['16:30', 'Root Canal', '16:30–18:00'],
        ['08:45', 'Dental Checkup', '08:45–09:15'],
      ]) {
        const refused = await post({ date, time, treatment });
        expect(refused.statusCode).toBe(409);
        expect(refused.json().message).toBe(
          `${range} is outside ${sarah.name}'s open hours on ${date} (09:00–17:00)`,
        );
      }
      expect(await liveOf(sarah.id, date)).toEqual([]);
      await book({ date, time: '16:30' });
    });

    it("follows the day's open slots, joined where they touch; none on an inactive day", async () => {
      const date = nextTuesday();
      await addDay(date, [
        { start: '09:00', end: '10:00' },
        { start: '10:00', end: '11:00' },
        { start: '14:00', end: '15:00', closed: true },
      ]);
      await book({ date, time: '09:00', treatment: 'Root Canal' });
      const closedSlot = await post({ date, time: '14:00' });
      expect(closedSlot.statusCode).toBe(409);
      expect(closedSlot.json().message).toBe(
        `14:00–14:30 is outside ${sarah.name}'s open hours on ${date} (09:00–11:00)`,
      );
      const inactive = nextTuesday();
      await addDay(inactive, [{ start: '09:00', end: '17:00' }], 'inactive');
      const refused = await post({ date: inactive });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(
        `${sarah.name} is not available on ${inactive}: the day is marked inactive`,
      );
    });

    it("keeps to the practice's hours from Settings", async () => {
      const wednesday = nextOn(3);
      await send(adminToken, 'PUT', '/api/settings', {
        workingHours: { wednesday: { start: '12:00', end: '16:00', closed: false } },
      });
      try {
        const early = await post({ date: wednesday, time: '10:00' });
        expect(early.statusCode).toBe(409);
        expect(early.json().message).toContain('(12:00–16:00)');
        await book({ date: wednesday, time: '12:00' });
        await send(adminToken, 'PUT', '/api/settings', {
          workingHours: { wednesday: { start: '09:00', end: '17:00', closed: true } },
        });
        const closed = await post({ date: nextOn(3), time: '12:00' });
        expect(closed.json().message).toMatch(/^The practice is closed on Wednesday/);
      } finally {
        await send(adminToken, 'PUT', '/api/settings', {
          workingHours: { wednesday: { start: '09:00', end: '17:00', closed: false } },
        });
      }
    });

    it('lets an admin or receptionist book outside hours with a reason, audited; never over a visit', async () => {
      const date = nextTuesday();
      const emergency = await book(
        {
          date,
          time: '18:00',
          outside_hours: true,
          outside_hours_reason: 'Broken tooth, patient in pain',
        },
        receptionistToken,
      );
      expect(emergency).toMatchObject({
        outside_hours: true,
        outside_hours_reason: 'Broken tooth, patient in pain',
        end_time: '18:30',
      });
      const [audit] = await db()
        .select({ details: auditLog.details })
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'appointment'), eq(auditLog.entityId, String(emergency.id))));
      expect(audit?.details).toMatchObject({ outside_hours: true, reason: 'Broken tooth, patient in pain' });
      const noReason = await post({ date, time: '19:00', outside_hours: true });
      expect(noReason.statusCode).toBe(400);
      expect(noReason.json().errors).toEqual([expect.objectContaining({ field: 'outside_hours_reason' })]);
      const byDentist = await post(
        { date, time: '19:00', outside_hours: true, outside_hours_reason: 'Late' },
        dentistToken,
      );
      expect(byDentist.statusCode).toBe(403);
      const over = await post({ date, time: '18:15', outside_hours: true, outside_hours_reason: 'Another' });
      expect(over.statusCode).toBe(409);
      // Asked inside the hours, the override changes nothing: the visit is an ordinary one.
      const inside = await book({
        date,
        time: '10:00',
        outside_hours: true,
        outside_hours_reason: 'Not needed',
      });
      expect(inside).toMatchObject({ outside_hours: false, outside_hours_reason: null });
      expect(await liveOf(sarah.id, date)).toEqual(['10:00-30', '18:00-30']);
    });
  });

  describe('free times', () => {
    it('offers every start on the grid where the length fits, around the visits', async () => {
      const date = nextTuesday();
      await book({ date, time: '10:00', treatment: 'Root Canal' });
      const free = await freeTimes(sarah.id, `date=${date}&duration=30`);
      expect(free.open).toEqual([{ start: '09:00', end: '17:00' }]);
      expect(free.times.slice(0, 4)).toEqual(['09:00', '09:15', '09:30', '11:30']);
      expect(free.times.at(-1)).toBe('16:30');
      expect(free.times).toHaveLength(4 + (16 * 60 + 30 - (11 * 60 + 30)) / 15);
      // The Root Canal's length by its treatment; a full day's length fits only from the start.
      expect((await freeTimes(sarah.id, `date=${date}&treatment=Root%20Canal`)).duration).toBe(90);
      const whole = nextTuesday();
      expect((await freeTimes(sarah.id, `date=${whole}&duration=480`)).times).toEqual(['09:00']);
      // Each booked start on offer is accepted.
      const next = nextTuesday();
      for (const time of (await freeTimes(sarah.id, `date=${next}&duration=120`)).times.slice(0, 3)) {
        const response = await post({ date: next, time, duration: 120 });
        expect(response.statusCode).toBe(time === '09:00' ? 201 : 409);
      }
    });

    it("follows the clinic's booking grid, and leaves out the patient's own visits", async () => {
      const date = nextTuesday();
      const visit = await book({ date, time: '09:00', dentist_id: michael.id });
      await send(adminToken, 'PUT', '/api/settings', { bookingGridMinutes: 30 });
      try {
        const free = await freeTimes(sarah.id, `date=${date}&duration=60&patient_id=${visit.patient_id}`);
        expect(free.times.slice(0, 3)).toEqual(['09:30', '10:00', '10:30']);
      } finally {
        await send(adminToken, 'PUT', '/api/settings', { bookingGridMinutes: 15 });
      }
      const moving = await freeTimes(michael.id, `date=${date}&duration=30&except_id=${visit.id}`);
      expect(moving.times[0]).toBe('09:00');
    });

    it('says why a day offers no time', async () => {
      const sunday = nextOn(7);
      expect(await freeTimes(sarah.id, `date=${sunday}&duration=30`)).toMatchObject({
        times: [],
        reason: 'not_working_day',
        message: `${sarah.name} does not work on Sunday, ${sunday}`,
      });
      const inactive = nextTuesday();
      await addDay(inactive, [{ start: '09:00', end: '10:00' }], 'inactive');
      expect((await freeTimes(sarah.id, `date=${inactive}&duration=30`)).reason).toBe('day_inactive');
      const full = nextTuesday();
      await addDay(full, [{ start: '09:00', end: '10:00' }]);
      await book({ date: full, time: '09:00', treatment: 'Regular Cleaning' });
      expect((await freeTimes(sarah.id, `date=${full}&duration=30`)).reason).toBe('fully_booked');
      // The last of her working days before today (a day she does not work says so first).
      let passed = addDays(today, -1);
      while (isoWeekday(passed) > 5) passed = addDays(passed, -1);
      expect((await freeTimes(sarah.id, `date=${passed}&duration=30`)).reason).toBe('day_passed');
      const bad = await send(
        receptionistToken,
        'GET',
        `/api/dentists/${sarah.id}/free-times?date=${full}&duration=7`,
      );
      expect(bad.statusCode).toBe(400);
    });
  });

  describe('availability follows lengths', () => {
    it('marks every slot a visit overlaps Booked, and keeps a slot under a visit', async () => {
      const date = nextTuesday();
      const dayId = await addDay(date, [
        { start: '09:00', end: '10:00' },
        { start: '10:00', end: '11:00' },
        { start: '11:00', end: '12:00' },
      ]);
      const visit = await book({ date, time: '09:30', treatment: 'Root Canal' });
      const day = (await send(receptionistToken, 'GET', `/api/availability/${dayId}`)).json();
      expect(day.time_slots.map((slot: { available: boolean }) => slot.available)).toEqual([
        false,
        false,
        true,
      ]);
      const shrink = await send(adminToken, 'PUT', `/api/availability/${dayId}`, {
        dentist_id: sarah.id,
        date,
        time_slots: [{ start: '09:00', end: '10:00', available: false }],
      });
      expect(shrink.statusCode).toBe(409);
      await send(adminToken, 'PATCH', `/api/appointments/${visit.id}/status`, { status: 'cancelled' });
      const freed = (await send(receptionistToken, 'GET', `/api/availability/${dayId}`)).json();
      expect(freed.time_slots.map((slot: { available: boolean }) => slot.available)).toEqual([
        true,
        true,
        true,
      ]);
    });
  });

  describe('races', () => {
    /** 20 bookings at 10:00, 10:05 … 11:35, two hours each: every pair overlaps. */
    const racers = (date: string, each: (index: number) => Record<string, unknown>) =>
      Array.from({ length: 20 }, (_, index) =>
        booking({
          date,
          time: `${String(10 + Math.floor((index * 5) / 60)).padStart(2, '0')}:${String((index * 5) % 60).padStart(2, '0')}`,
          duration: 120,
          ...each(index),
        }),
      );

    it('lets exactly one of 20 overlapping bookings for one dentist win', async () => {
      const date = nextTuesday();
      const answers = await Promise.all(
        racers(date, () => ({})).map((body, index) =>
          send(index % 2 ? receptionistToken : adminToken, 'POST', '/api/appointments', body),
        ),
      );
      const codes = answers.map((answer) => answer.statusCode);
      expect(codes.filter((code) => code === 201)).toHaveLength(1);
      expect(codes.filter((code) => code === 409)).toHaveLength(19);
      expect(await liveOf(sarah.id, date)).toHaveLength(1);
    });

    it('lets exactly one of 20 overlapping bookings for one patient across two dentists win', async () => {
      const date = nextTuesday();
      const [patient] = await db()
        .insert(patients)
        .values({ clinicId, name: 'Racing Patient', phone: '555 777 0000', status: 'active' })
        .returning({ id: patients.id });
      const answers = await Promise.all(
        racers(date, (index) => ({
          patient_id: patient?.id,
          dentist_id: index % 2 ? michael.id : sarah.id,
        })).map((body) => send(adminToken, 'POST', '/api/appointments', body)),
      );
      expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(1);
      const held = [...(await liveOf(sarah.id, date)), ...(await liveOf(michael.id, date))];
      expect(held).toHaveLength(1);
    });

    it('lets exactly one win across two API processes on one PostgreSQL database', async () => {
      const second = await createSecondApp(app);
      if (!second) return; // PGlite: one process owns the database.
      try {
        const date = nextTuesday();
        const answers = await Promise.all(
          racers(date, () => ({})).map((body, index) =>
            send(adminToken, 'POST', '/api/appointments', body, index % 2 ? second : app),
          ),
        );
        expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(1);
        expect(await liveOf(sarah.id, date)).toHaveLength(1);
      } finally {
        await second.close();
      }
    });
  });

  describe('visits that overlapped before the rule', () => {
    it('keeps and lists them; they can be moved apart or cancelled, and no new overlap is made', async () => {
      const date = nextTuesday();
      const [patient] = await db()
        .insert(patients)
        .values({ clinicId, name: 'Legacy Double', phone: '555 888 0000', status: 'active' })
        .returning({ id: patients.id });
      const old = (time: string) => ({
        clinicId,
        patientId: patient?.id ?? 0,
        dentistId: sarah.id,
        date,
        time,
        treatment: 'Root Canal',
        status: 'pending',
        overlapGroup: 0,
      });
      // As an import of an older export does it.
      const [first, second] = await db().transaction(async (tx) => {
        await tx.execute(sql`select set_config('dental.keeping_overlaps', 'on', true)`);
        const rows = await tx
          .insert(appointments)
          .values([old('10:00'), old('10:30')])
          .returning({ id: appointments.id });
        await tx.execute(sql`select settle_overlap_groups(${clinicId})`);
        return rows;
      });
      if (!first || !second) throw new Error('legacy visits not inserted');
      const listed = (await send(receptionistToken, 'GET', '/api/appointments/overlapping')).json();
      expect(listed.data.map((visit: Visit) => visit.id)).toEqual([first.id, second.id]);
      expect(listed.total).toBe(2);
      expect(listed.data[0]).toMatchObject({ overlapping: true, duration: 90 });
      // Without the import's say-so, a visit cannot join a group.
      const sneaked = await db()
        .insert(appointments)
        .values({ ...old('10:15'), patientId: patient?.id ?? 0 })
        .then(
          () => 'stored',
          () => 'refused',
        );
      expect(sneaked).toBe('refused');
      // Moving one of them onto the other is refused; moving it clear ends the overlap for both.
      const body = {
        patient_id: patient?.id,
        patient: 'Legacy Double',
        phone: '555 888 0000',
        date,
        dentist_id: sarah.id,
        treatment: 'Root Canal',
      };
      const stillOver = await send(adminToken, 'PUT', `/api/appointments/${second.id}`, {
        ...body,
        time: '10:45',
      });
      expect(stillOver.statusCode).toBe(409);
      const apart = await send(adminToken, 'PUT', `/api/appointments/${second.id}`, {
        ...body,
        time: '13:00',
      });
      expect(apart.statusCode).toBe(200);
      expect(apart.json().overlapping).toBe(false);
      expect((await send(receptionistToken, 'GET', '/api/appointments/overlapping')).json().data).toEqual([]);
    });
  });
});
