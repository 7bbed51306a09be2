import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { writesJsonForTheApi } from '../../db/client';
import { appointments, availability, dentists, patients } from '../../db/schema';
import { authHeader, createTestApp, login } from '../../test/testApp';

interface CalendarAppointment {
  id: number;
  patient: string;
  patient_id: number;
  phone: string;
  dentist_id: number;
  dentist_name: string;
  date: string;
  time: string;
  treatment: string;
  status: string;
  notes: string | null;
  created_at: string;
  updated_at: string;
}

interface CalendarDay {
  id: number;
  dentist_id: number;
  dentist_name: string;
  date: string;
  time_slots: Array<{ start: string; end: string; available: boolean }>;
}

describe('calendar API', () => {
  let app: FastifyInstance;
  let adminToken: string;
  let receptionistToken: string;
  let dentistToken: string;
  let harborAdminToken: string;
  let clinicId: number;
  let sarahId: number;
  let michaelId: number;
  let harborDentistId: number;
  let patientId: number;
  let harborPatientId: number;

  const db = () => app.database.db;
  const get = (token: string | null, url: string) =>
    app.inject({ method: 'GET', url, headers: token ? authHeader(token) : {} });
  const fieldsOf = (body: { errors?: Array<{ field: string }> }) => (body.errors ?? []).map((e) => e.field);
  const monthData = (response: { json: () => { data: CalendarAppointment[] } }) => response.json().data;

  /** Appointments around March 2031 (and the turn of 2031/2032), far from the seeded months. */
  const booked: Array<{ date: string; time: string; dentist: 'sarah' | 'michael' | 'harbor' }> = [
    { date: '2031-02-28', time: '16:00', dentist: 'sarah' },
    { date: '2031-03-01', time: '10:00', dentist: 'sarah' },
    { date: '2031-03-01', time: '09:00', dentist: 'michael' },
    { date: '2031-03-15', time: '11:00', dentist: 'michael' },
    { date: '2031-03-31', time: '16:00', dentist: 'sarah' },
    { date: '2031-04-01', time: '09:00', dentist: 'sarah' },
    { date: '2031-03-10', time: '09:00', dentist: 'harbor' },
    { date: '2031-11-30', time: '09:00', dentist: 'sarah' },
    { date: '2031-12-31', time: '09:00', dentist: 'sarah' },
    { date: '2032-01-01', time: '09:00', dentist: 'sarah' },
  ];

  beforeAll(async () => {
    app = await createTestApp();
    const admin = await login(app, 'admin', 'admin123');
    adminToken = admin.token;
    clinicId = admin.user.clinic_id;
    receptionistToken = (await login(app, 'receptionist', 'receptionist123')).token;
    dentistToken = (await login(app, 'dentist', 'dentist123')).token;
    const harbor = await login(app, 'harbor.admin', 'harbor123');
    harborAdminToken = harbor.token;
    const rows = await db().select().from(dentists);
    const byName = (name: string) => rows.find((row) => row.name === name)?.id ?? 0;
    sarahId = byName('Dr. Sarah Johnson');
    michaelId = byName('Dr. Michael Chen');
    harborDentistId = byName('Dr. Olivia Bennett');
    const [patient] = await db().select().from(patients).where(eq(patients.clinicId, clinicId)).limit(1);
    const [harborPatient] = await db()
      .select()
      .from(patients)
      .where(eq(patients.clinicId, harbor.user.clinic_id))
      .limit(1);
    patientId = patient?.id ?? 0;
    harborPatientId = harborPatient?.id ?? 0;
    const dentistIds = { sarah: sarahId, michael: michaelId, harbor: harborDentistId };
    await db()
      .insert(appointments)
      .values(
        booked.map((entry) => ({
          clinicId: entry.dentist === 'harbor' ? harbor.user.clinic_id : clinicId,
          patientId: entry.dentist === 'harbor' ? harborPatientId : patientId,
          dentistId: dentistIds[entry.dentist],
          date: entry.date,
          time: entry.time,
          treatment: 'Dental Checkup',
          status: 'confirmed',
        })),
      );
    await db()
      .insert(availability)
      .values(
        ['2031-02-28', '2031-03-01', '2031-03-31', '2031-04-01'].map((date) => ({
          clinicId,
          dentistId: sarahId,
          date,
          timeSlots: [{ start: '09:00', end: '10:00', available: true }],
        })),
      );
    await db()
      .insert(availability)
      .values({
        clinicId,
        dentistId: michaelId,
        date: '2031-03-01',
        timeSlots: [{ start: '09:00', end: '10:00', available: false }],
      });
    await db()
      .insert(availability)
      .values({
        clinicId: harbor.user.clinic_id,
        dentistId: harborDentistId,
        date: '2031-03-02',
        timeSlots: [{ start: '09:00', end: '10:00', available: true }],
      });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  }, 60_000);

  describe('appointments', () => {
    it("answers only the month's appointments, by date then time, in the appointment shape", async () => {
      const response = await get(receptionistToken, '/api/calendar/appointments?month=3&year=2031');
      expect(response.statusCode).toBe(200);
      const body = response.json() as { data: CalendarAppointment[] };
      expect(body).toMatchObject({ page: 1, limit: 5000, total: body.data.length });
      expect(body.data.map((item) => `${item.date} ${item.time} ${item.dentist_name}`)).toEqual([
        '2031-03-01 09:00 Dr. Michael Chen',
        '2031-03-01 10:00 Dr. Sarah Johnson',
        '2031-03-15 11:00 Dr. Michael Chen',
        '2031-03-31 16:00 Dr. Sarah Johnson',
      ]);
      const [patient] = await db().select().from(patients).where(eq(patients.id, patientId));
      expect(body.data[0]).toEqual({
        id: expect.any(Number),
        patient: patient?.name,
        patient_id: patientId,
        phone: patient?.phone,
        dentist_id: michaelId,
        dentist_name: 'Dr. Michael Chen',
        date: '2031-03-01',
        time: '09:00',
        duration: 30,
        end_time: '09:30',
        treatment: 'Dental Checkup',
        status: 'confirmed',
        notes: null,
        outside_hours: false,
        outside_hours_reason: null,
        overlapping: false,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        updated_at: expect.stringMatching(/Z$/),
        version: 1,
        series: null,
        chair_id: expect.any(Number),
        chair_name: expect.stringMatching(/^Chair \d+$/),
        turnover: 0,
        dentist_from: null,
        dentist_to: null,
        source: 'desk',
        confirmed_by: null,
      });
    });

    it('filters by dentist, and handles the turn of the year', async () => {
      const sarah = (
        await get(dentistToken, `/api/calendar/appointments?month=3&year=2031&dentist_id=${sarahId}`)
      ).json() as {
        data: CalendarAppointment[];
      };
      expect(sarah.data.map((item) => item.date)).toEqual(['2031-03-01', '2031-03-31']);
      const december = (await get(adminToken, '/api/calendar/appointments?month=12&year=2031')).json() as {
        data: CalendarAppointment[];
      };
      expect(december.data.map((item) => item.date)).toEqual(['2031-12-31']);
      const january = (await get(adminToken, '/api/calendar/appointments?month=1&year=2032')).json() as {
        data: CalendarAppointment[];
      };
      expect(january.data.map((item) => item.date)).toEqual(['2032-01-01']);
      const empty = (await get(adminToken, '/api/calendar/appointments?month=6&year=1990')).json();
      expect(empty).toEqual({ data: [], total: 0, page: 1, limit: 5000 });
    });

    it("never shows another clinic's appointments", async () => {
      const harbor = (await get(harborAdminToken, '/api/calendar/appointments?month=3&year=2031')).json() as {
        data: CalendarAppointment[];
      };
      expect(harbor.data.map((item) => [item.date, item.dentist_id])).toEqual([
        ['2031-03-10', harborDentistId],
      ]);
      const probing = (
        await get(harborAdminToken, `/api/calendar/appointments?month=3&year=2031&dentist_id=${sarahId}`)
      ).json();
      expect(probing).toEqual({ data: [], total: 0, page: 1, limit: 5000 });
    });

    it('writes each visit of a month exactly as the appointments list does, whatever its notes hold', async () => {
      // A PostgreSQL server writes the month's JSON itself; PGlite's rows are written by the API.
      expect(writesJsonForTheApi(db())).toBe(app.database.kind === 'postgres');
      await db().transaction(async (tx) => expect(writesJsonForTheApi(tx)).toBe(false));
      const notes = [
        'Say "hi" \\ then leave',
        'Line one\nline two\ttabbed',
        'Zoë 🦷 Ünïcode',
        '\u0001control\u001f',
        null,
        '</script><b>bold</b>',
        '',
      ];
      // More than one piece of the answer (64 rows), on two dentists.
      const visits = Array.from({ length: 75 }, (_, index) => ({
        clinicId,
        patientId,
        dentistId: index % 2 ? sarahId : michaelId,
        date: `2033-05-${String(1 + Math.floor(index / 5)).padStart(2, '0')}`,
        time: `${10 + (index % 5)}:00`,
        treatment: 'Dental Checkup',
        status: 'pending',
        notes: notes[index % notes.length] ?? null,
      }));
      const inserted = await db().insert(appointments).values(visits).returning({ id: appointments.id });
      const [first] = inserted;
      // Microseconds: a JavaScript Date keeps the milliseconds, truncated.
      await db()
        .update(appointments)
        .set({
          createdAt: sql`'2033-04-01 10:11:12.345678+00'`,
          updatedAt: sql`'2033-04-02 23:59:59.999999+00'`,
        })
        .where(eq(appointments.id, first?.id ?? 0));
      try {
        const listed = (
          await get(adminToken, '/api/appointments?from=2033-05-01&to=2033-05-31&limit=100')
        ).json().data as CalendarAppointment[];
        expect(listed).toHaveLength(75);
        const byId = new Map(listed.map((visit) => [visit.id, visit]));
        for (const query of ['', `&dentist_id=${sarahId}`]) {
          const month = await get(adminToken, `/api/calendar/appointments?month=5&year=2033${query}`);
          expect(month.headers['content-type']).toBe('application/json; charset=utf-8');
          const data = monthData(month);
          expect(data).toHaveLength(query ? 37 : 75);
          expect(data.map((visit) => `${visit.date} ${visit.time}`)).toEqual(
            data.map((visit) => `${visit.date} ${visit.time}`).sort(),
          );
          for (const visit of data) expect(visit).toEqual(byId.get(visit.id));
        }
        const changed = monthData(await get(adminToken, '/api/calendar/appointments?month=5&year=2033')).find(
          (visit) => visit.id === first?.id,
        );
        expect(changed).toMatchObject({
          notes: 'Say "hi" \\ then leave',
          created_at: '2033-04-01T10:11:12.345Z',
          updated_at: '2033-04-02T23:59:59.999Z',
        });
      } finally {
        await db()
          .delete(appointments)
          .where(
            inArray(
              appointments.id,
              inserted.map((row) => row.id),
            ),
          );
      }
    });

    it('pages a busy month with the total, and refuses a limit above 5000', async () => {
      const all = (await get(adminToken, '/api/calendar/appointments?month=3&year=2031')).json();
      expect(all.total).toBeGreaterThan(2);
      const second = (
        await get(adminToken, '/api/calendar/appointments?month=3&year=2031&limit=2&page=2')
      ).json();
      expect(second).toMatchObject({ total: all.total, page: 2, limit: 2 });
      expect(second.data.map((item: CalendarAppointment) => item.id)).toEqual(
        all.data.slice(2, 4).map((item: CalendarAppointment) => item.id),
      );
      const tooMany = await get(adminToken, '/api/calendar/appointments?month=3&year=2031&limit=5001');
      expect(tooMany.statusCode).toBe(400);
      expect(tooMany.json().errors[0].field).toBe('limit');
    });
  });

  describe('availability', () => {
    it("answers only the month's days, by date then dentist name", async () => {
      const response = await get(dentistToken, '/api/calendar/availability?month=3&year=2031');
      expect(response.statusCode).toBe(200);
      const body = response.json() as { data: CalendarDay[] };
      expect(body.data.map((day) => `${day.date} ${day.dentist_name}`)).toEqual([
        '2031-03-01 Dr. Michael Chen',
        '2031-03-01 Dr. Sarah Johnson',
        '2031-03-31 Dr. Sarah Johnson',
      ]);
      expect(body.data[0]?.time_slots).toEqual([{ start: '09:00', end: '10:00', available: false }]);
      const sarah = (
        await get(adminToken, `/api/calendar/availability?month=3&year=2031&dentist_id=${sarahId}`)
      ).json() as {
        data: CalendarDay[];
      };
      expect(sarah.data.map((day) => day.date)).toEqual(['2031-03-01', '2031-03-31']);
      const harbor = (await get(harborAdminToken, '/api/calendar/availability?month=3&year=2031')).json() as {
        data: CalendarDay[];
      };
      expect(harbor.data.map((day) => day.date)).toEqual(['2031-03-02']);
    });
  });

  describe('queries and roles', () => {
    it('refuses a bad month or year naming it', async () => {
      const cases: Array<[string, string]> = [
        ['month=13&year=2031', 'month'],
        ['month=0&year=2031', 'month'],
        ['month=1.5&year=2031', 'month'],
        ['month=march&year=2031', 'month'],
        ['year=2031', 'month'],
        ['month=3', 'year'],
        ['month=3&year=1899', 'year'],
        ['month=3&year=2201', 'year'],
        ['month=3&year=2031&dentist_id=x', 'dentist_id'],
      ];
      for (const path of ['appointments', 'availability']) {
        for (const [query, field] of cases) {
          const response = await get(adminToken, `/api/calendar/${path}?${query}`);
          expect([path, query, response.statusCode]).toEqual([path, query, 400]);
          expect(fieldsOf(response.json())).toContain(field);
        }
      }
    });

    it('answers 401 without a token, and serves every role', async () => {
      for (const path of ['appointments', 'availability']) {
        expect((await get(null, `/api/calendar/${path}?month=3&year=2031`)).statusCode).toBe(401);
        for (const token of [adminToken, receptionistToken, dentistToken]) {
          expect((await get(token, `/api/calendar/${path}?month=3&year=2031`)).statusCode).toBe(200);
        }
      }
      const seeded = await db()
        .select({ id: appointments.id })
        .from(appointments)
        .where(inArray(appointments.date, ['2031-03-01']));
      expect(seeded.length).toBe(2);
    });
  });
});
