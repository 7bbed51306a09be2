import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { addDays, clinicToday, isoWeekday } from '../../db/clinicTime';
import { appointments, chairs, dentists } from '../../db/schema';
import { apiSender, createSecondApp, createTestApp, login } from '../../test/testApp';
import { freeTimesOf, freeTimesOfDentists } from '../availability/openHours';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface Visit {
  id: number;
  patient_id: number;
  dentist_id: number;
  date: string;
  time: string;
  end_time: string;
  chair_id: number;
  chair_name: string;
  turnover: number;
  dentist_from: number | null;
  dentist_to: number | null;
  version: number;
}

/** Chairs, turnover and the dentist's part of a visit (docs/product.md, Chairs), through the API. */
describe('a visit holds a chair', () => {
  let app: FastifyInstance;
  let adminToken: string;
  let clinicId: number;
  let today: string;
  let sarahId: number;
  let michaelId: number;
  /** The demo clinic's chairs in order: Chair 1 is Sarah's, Chair 2 Michael's. */
  let chairOne: number;
  let chairTwo: number;
  let dayOffset = 700;
  /** A Tuesday of its own for each test, far past the demo data. */
  const nextTuesday = () => {
    do dayOffset += 1;
    while (isoWeekday(addDays(today, dayOffset)) !== 2);
    return addDays(today, dayOffset);
  };

  const db = () => app.database.db;
  /** The admin's request, to this API process or another one (`on`). */
  const send = (method: Method, url: string, payload?: unknown, on = app) =>
    apiSender(() => on)(adminToken, method, url, payload);
  let patientCount = 0;
  const booking = (overrides: Record<string, unknown> = {}) => {
    patientCount += 1;
    return {
      patient: `Chair Tester ${patientCount}`,
      phone: `555 710 ${String(patientCount).padStart(4, '0')}`,
      time: '09:00',
      dentist_id: sarahId,
      treatment: 'Cavity Filling',
      notes: null,
      ...overrides,
    };
  };
  const post = (overrides: Record<string, unknown>, on = app) =>
    send('POST', '/api/appointments', booking(overrides), on);
  const book = async (overrides: Record<string, unknown>): Promise<Visit> => {
    const response = await post(overrides);
    expect(response.json()).toMatchObject({ date: overrides.date });
    expect(response.statusCode).toBe(201);
    return response.json() as Visit;
  };
  const setClinic = (turnover: number | null, parts: Record<string, { from: number; to: number }> | null) =>
    db().execute(sql`update clinic_settings set turnover_minutes = ${turnover},
      dentist_parts = ${parts === null ? null : JSON.stringify(parts)}::jsonb where clinic_id = ${clinicId}`);
  const freeTimes = async (dentistId: number, query: string) => {
    const response = await send('GET', `/api/dentists/${dentistId}/free-times?${query}`);
    expect(response.statusCode).toBe(200);
    return response.json() as { times: string[]; slots: Array<{ time: string; chair_id: number }> };
  };

  beforeAll(async () => {
    app = await createTestApp();
    const admin = await login(app, 'admin', 'admin123');
    adminToken = admin.token;
    clinicId = admin.user.clinic_id;
    today = await clinicToday(db(), clinicId);
    const own = await db()
      .select({ id: chairs.id, dentistId: chairs.defaultDentistId, workingDays: dentists.workingDays })
      .from(chairs)
      .innerJoin(
        dentists,
        and(eq(dentists.clinicId, chairs.clinicId), eq(dentists.id, chairs.defaultDentistId)),
      )
      .where(eq(chairs.clinicId, clinicId))
      .orderBy(chairs.position);
    const tuesday = own.filter((chair) => chair.workingDays.includes('2'));
    const [first, second] = tuesday;
    if (!first?.dentistId || !second?.dentistId) throw new Error('two chairs of dentists working Tuesdays');
    chairOne = first.id;
    chairTwo = second.id;
    sarahId = first.dentistId;
    michaelId = second.dentistId;
    // Only these two chairs are in service, so "the next free chair" is always the other one.
    await db().execute(sql`update chairs set in_service = (id in (${chairOne}, ${chairTwo}))
      where clinic_id = ${clinicId}`);
  }, 60_000);

  afterEach(async () => {
    await setClinic(null, null);
  });

  afterAll(async () => {
    await app?.close();
  }, 60_000);

  it("puts a visit in its dentist's chair, refuses a second in that chair, and gives another chair when none is asked", async () => {
    const date = nextTuesday();
    const first = await book({ date, chair_id: chairOne });
    expect(first).toMatchObject({ chair_id: chairOne, time: '09:00', end_time: '10:00', turnover: 0 });

    const refused = await post({ date, time: '09:30', dentist_id: michaelId, chair_id: chairOne });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(`${first.chair_name} is taken 09:00–10:00`);

    const given = await book({ date, time: '09:30', dentist_id: michaelId });
    expect(given.chair_id).toBe(chairTwo);

    const none = await post({ date, time: '09:45', dentist_id: michaelId, patient: 'Third Chair' });
    expect(none.statusCode).toBe(409);
  });

  it('holds a chair for the turnover after a visit: chair 1 free again at 10:10, chair 2 at 10:00', async () => {
    await setClinic(10, null);
    const date = nextTuesday();
    const first = await book({ date, chair_id: chairOne });
    expect(first.turnover).toBe(10);
    const early = await post({ date, time: '10:00', dentist_id: michaelId, chair_id: chairOne });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(`${first.chair_name} is taken 09:00–10:10`);
    expect((await book({ date, time: '10:00', dentist_id: michaelId, chair_id: chairTwo })).chair_id).toBe(
      chairTwo,
    );
    const later = await book({
      date,
      time: '10:10',
      treatment: 'Dental Checkup',
      chair_id: chairOne,
    });
    expect(later.chair_id).toBe(chairOne);
  });

  it('lets one dentist run two chairs when their parts do not meet, and refuses when they do', async () => {
    await setClinic(0, { 'Cavity Filling': { from: 10, to: 50 } });
    const date = nextTuesday();
    const first = await book({ date, chair_id: chairOne });
    expect(first).toMatchObject({ dentist_from: 10, dentist_to: 50 });
    // 09:45-10:45 in chair 2: the dentist is needed 09:55-10:35, after 09:10-09:50.
    const second = await book({ date, time: '09:45', chair_id: chairTwo });
    expect(second.chair_id).toBe(chairTwo);
    // 09:30 would need the dentist 09:40-10:20.
    await db().execute(sql`delete from appointments where id = ${second.id}`);
    const refused = await post({ date, time: '09:30', chair_id: chairTwo });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(
      /^Dr\. .+ is with another patient 09:10–09:50 \(Chair Tester \d+\)$/,
    );
    // The free times answer the same.
    const free = await freeTimes(sarahId, `date=${date}&treatment=Cavity%20Filling`);
    expect(free.times).toContain('09:45');
    expect(free.times).not.toContain('09:30');
    expect(free.slots.find((slot) => slot.time === '09:45')?.chair_id).toBe(chairTwo);
  });

  it("names the visit whose dentist part meets the new visit's, not one the new visit only overlaps", async () => {
    await setClinic(0, { 'Cavity Filling': { from: 10, to: 50 } });
    const date = nextTuesday();
    await book({ date, chair_id: chairOne });
    await book({ date, time: '09:45', chair_id: chairTwo });
    const [spare] = await db()
      .insert(chairs)
      .values({ clinicId, name: `Spare ${date}`, position: 99 })
      .returning({ id: chairs.id });
    try {
      // 09:45-10:45 needs the dentist 09:55-10:35: the second visit's part, not the first's (09:10-09:50).
      const refused = await post({ date, time: '09:45', chair_id: spare?.id });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toMatch(/is with another patient 09:55–10:35 \(Chair Tester \d+\)$/);
    } finally {
      await db().execute(sql`update chairs set retired_at = now() where id = ${spare?.id ?? 0}`);
    }
  });

  it('refuses to retire a chair with visits to come, and retires it once they are moved', async () => {
    const date = nextTuesday();
    const [spare] = await db()
      .insert(chairs)
      .values({ clinicId, name: `Retiring ${date}`, position: 98 })
      .returning({ id: chairs.id, version: chairs.version });
    const visit = await book({ date, chair_id: spare?.id });
    const refused = await send('DELETE', `/api/chairs/${spare?.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'This chair holds 1 appointment to come: move it to another chair first, or take the chair out of service',
    );
    const moved = await send(
      'PUT',
      `/api/appointments/${visit.id}`,
      booking({ date, chair_id: chairOne, patient_id: visit.patient_id }),
    );
    expect(moved.statusCode).toBe(200);
    expect((await send('DELETE', `/api/chairs/${spare?.id}`)).statusCode).toBe(200);
  });

  it('keeps the patient in the whole visit, whatever the chairs', async () => {
    const date = nextTuesday();
    const first = await book({ date, chair_id: chairOne });
    const refused = await post({
      date,
      time: '09:30',
      dentist_id: michaelId,
      chair_id: chairTwo,
      patient_id: first.patient_id,
    });
    expect(refused.statusCode).toBe(409);
  });

  it('refuses a chair out of service, retired or of no clinic, naming the field, and offers no time in it', async () => {
    const date = nextTuesday();
    const [outOfService] = await db()
      .select({ id: chairs.id, name: chairs.name })
      .from(chairs)
      .where(and(eq(chairs.clinicId, clinicId), eq(chairs.inService, false)));
    if (!outOfService) throw new Error('a chair out of service');
    const refused = await post({ date, chair_id: outOfService.id });
    expect(refused.statusCode).toBe(400);
    expect(JSON.stringify(refused.json())).toContain('chair_id');
    expect(JSON.stringify(refused.json())).toContain(`${outOfService.name} is out of service`);
    expect((await post({ date, chair_id: 999999 })).statusCode).toBe(400);
    const free = await freeTimes(sarahId, `date=${date}&chair_id=${outOfService.id}`);
    expect(free.times).toEqual([]);
    expect(
      await db().$count(appointments, and(eq(appointments.clinicId, clinicId), eq(appointments.date, date))),
    ).toBe(0);
  });

  it('moves a visit to another chair, and a moved visit without one keeps its chair when free', async () => {
    const date = nextTuesday();
    const visit = await book({ date, chair_id: chairOne });
    const moved = await send(
      'PUT',
      `/api/appointments/${visit.id}`,
      { ...booking({ date, chair_id: chairTwo, patient: 'Mover', phone: '555 999 0001' }) },
      app,
    );
    expect(moved.statusCode).toBe(200);
    expect(moved.json().chair_id).toBe(chairTwo);
    const later = await send(
      'PUT',
      `/api/appointments/${visit.id}`,
      { ...booking({ date, time: '11:00', patient: 'Mover', phone: '555 999 0001' }) },
      app,
    );
    expect(later.statusCode).toBe(200);
    expect(later.json()).toMatchObject({ time: '11:00', chair_id: chairTwo });
  });

  it("reads several dentists' free times at once as it reads each alone, each dentist's own chair first", async () => {
    await setClinic(10, { 'Cavity Filling': { from: 10, to: 50 } });
    const date = nextTuesday();
    await book({ date, chair_id: chairOne });
    await book({ date, time: '11:00', dentist_id: michaelId, chair_id: chairTwo });
    const both = await db()
      .select({ id: dentists.id, name: dentists.name, workingDays: dentists.workingDays })
      .from(dentists)
      .where(and(eq(dentists.clinicId, clinicId), inArray(dentists.id, [sarahId, michaelId])));
    const query = { date, treatment: 'Cavity Filling' as const };
    const together = await freeTimesOfDentists(db(), clinicId, both, query);
    const alone = await Promise.all(both.map((dentist) => freeTimesOf(db(), clinicId, dentist, query)));
    expect(together).toEqual(alone);
    const sarah = together[both.findIndex((dentist) => dentist.id === sarahId)];
    const michael = together[both.findIndex((dentist) => dentist.id === michaelId)];
    // Sarah's 09:00 holds chair 1 to 10:10 and her minutes 09:10-09:50; Michael's 11:00 chair 2 to 12:10.
    expect(sarah?.times).not.toContain('09:30');
    expect(sarah?.slots?.find((slot) => slot.time === '09:45')?.chair_id).toBe(chairTwo);
    expect(michael?.times).not.toContain('11:30');
    // Sarah's minutes are hers: Michael may start at 09:00 in his chair.
    expect(michael?.slots?.find((slot) => slot.time === '09:00')?.chair_id).toBe(chairTwo);
    // Free in both chairs: each dentist is given their own.
    expect(sarah?.slots?.find((slot) => slot.time === '15:00')?.chair_id).toBe(chairOne);
    expect(michael?.slots?.find((slot) => slot.time === '15:00')?.chair_id).toBe(chairTwo);
  });

  describe('races', () => {
    /** 20 bookings into one chair, each of another dentist and patient, all overlapping. */
    const racers = async (date: string) => {
      const made = await db()
        .insert(dentists)
        .values(
          Array.from({ length: 20 }, (_, index) => ({
            clinicId,
            name: `Dr. Racer ${date} ${index}`,
            email: `racer.${date}.${index}@example.test`,
            phone: '555 000 0000',
            specialty: 'General Dentistry',
            license: `RACE-${date}-${index}`,
            yearsOfExperience: 1,
            workingDays: '12345',
            status: 'active',
          })),
        )
        .returning({ id: dentists.id });
      return made.map((dentist, index) =>
        booking({
          date,
          time: `${String(9 + Math.floor((index * 5) / 60)).padStart(2, '0')}:${String((index * 5) % 60).padStart(2, '0')}`,
          duration: 120,
          dentist_id: dentist.id,
          chair_id: chairOne,
        }),
      );
    };

    it('lets exactly one of 20 bookings into one chair win, with different dentists', async () => {
      const date = nextTuesday();
      const answers = await Promise.all(
        (await racers(date)).map((body) => send('POST', '/api/appointments', body)),
      );
      const codes = answers.map((answer) => answer.statusCode);
      expect(codes.filter((code) => code === 201)).toHaveLength(1);
      expect(codes.filter((code) => code === 409)).toHaveLength(19);
      expect(
        await db().$count(appointments, and(eq(appointments.chairId, chairOne), eq(appointments.date, date))),
      ).toBe(1);
    });

    it('lets exactly one win across two API processes on one PostgreSQL database', async () => {
      const second = await createSecondApp(app);
      if (!second) return; // PGlite: one process owns the database.
      try {
        const date = nextTuesday();
        const answers = await Promise.all(
          (await racers(date)).map((body, index) =>
            send('POST', '/api/appointments', body, index % 2 ? second : app),
          ),
        );
        expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(1);
        expect(
          await db().$count(
            appointments,
            and(eq(appointments.chairId, chairOne), eq(appointments.date, date)),
          ),
        ).toBe(1);
      } finally {
        await second.close();
      }
    });

    it('gives racing bookings that ask for no chair the free chairs, and refuses the rest', async () => {
      const date = nextTuesday();
      const bodies = (await racers(date)).map(
        ({ chair_id: _chair, ...body }: Record<string, unknown>) => body,
      );
      const answers = await Promise.all(bodies.map((body) => send('POST', '/api/appointments', body)));
      const won = answers
        .filter((answer) => answer.statusCode === 201)
        .map((answer) => answer.json() as Visit);
      expect(won.map((visit) => visit.chair_id).sort()).toEqual([chairOne, chairTwo].sort());
      expect(answers.filter((answer) => answer.statusCode === 409)).toHaveLength(18);
    });
  });
});
