import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { hashPassword } from '../../auth/passwords';
import { recordAudit } from '../../db/auditLog';
import { addDays, localDate } from '../../db/clinicTime';
import { appointments, clinics, dentists, patients, users } from '../../db/schema';
import { authHeader, createTestApp, login } from '../../test/testApp';
import { describeActivity } from './dashboardData';

/** UTC+14 and UTC-11: 25 hours apart, so their dates always differ. */
const EAST_ZONE = 'Pacific/Kiritimati';
const WEST_ZONE = 'Pacific/Pago_Pago';

describe('dashboard API', () => {
  let app: FastifyInstance;
  let clinicId: number;
  let adminId: number;
  let adminToken: string;
  let receptionistToken: string;
  let dentistToken: string;
  let harborAdminToken: string;
  let today: string;
  let dentistIds: number[];
  let patientIds: number[];

  const db = () => app.database.db;
  const get = (token: string | null, url: string) =>
    app.inject({ method: 'GET', url, headers: token ? authHeader(token) : {} });
  const stat = async (token: string, name: string) => {
    const response = await get(token, '/api/dashboard/stats');
    expect(response.statusCode).toBe(200);
    const found = response.json().data.find((card: { name: string }) => card.name === name);
    if (!found) throw new Error(`no stat ${name}`);
    return found as { name: string; value: number; change: string; changeType: string };
  };
  const daysAgo = (days: number) => new Date(Date.now() - days * 86400000);
  /** Rows written behind the API's back still record an audit entry, as every real write does. */
  const audited = async (action: string, entity: string) =>
    recordAudit(db(), { clinicId, userId: adminId, action, entity, entityId: 1 });

  beforeAll(async () => {
    app = await createTestApp();
    // A clinic of its own, so every figure is known.
    const [clinic] = await db()
      .insert(clinics)
      .values({ name: 'Dash Clinic', timeZone: EAST_ZONE })
      .returning({ id: clinics.id });
    if (!clinic) throw new Error('no clinic');
    clinicId = clinic.id;
    today = localDate(EAST_ZONE);

    const dentistRows = await db()
      .insert(dentists)
      .values([
        {
          clinicId,
          name: 'Dr. Ann Alder',
          email: 'ann@dash.example',
          phone: '555-100-0001',
          specialty: 'Orthodontics',
          license: 'D-1',
          createdAt: daysAgo(100),
        },
        {
          clinicId,
          name: 'Dr. Ben Birch',
          email: 'ben@dash.example',
          phone: '555-100-0002',
          specialty: 'Endodontics',
          license: 'D-2',
          createdAt: daysAgo(5),
        },
        {
          clinicId,
          name: 'Dr. Cy Cedar',
          email: 'cy@dash.example',
          phone: '555-100-0003',
          specialty: 'Periodontics',
          license: 'D-3',
          status: 'inactive',
        },
      ])
      .returning({ id: dentists.id });
    // Each its own chair, as a dentist added in Settings gets (docs/product.md, Chairs).
    for (const dentist of dentistRows)
      await db().execute(sql`select chair_for_dentist(${clinicId}, ${dentist.id})`);
    dentistIds = dentistRows.map((row) => row.id);

    // 5 active patients (one joined 40 days ago, two in the last 30 days) and one inactive.
    const patientRows = await db()
      .insert(patients)
      .values([
        { clinicId, name: 'Pat Old', phone: '555-200-0001', createdAt: daysAgo(400) },
        { clinicId, name: 'Pat Older', phone: '555-200-0002', createdAt: daysAgo(300) },
        { clinicId, name: 'Pat Forty', phone: '555-200-0003', createdAt: daysAgo(40) },
        { clinicId, name: 'Pat Ten', phone: '555-200-0004', createdAt: daysAgo(10) },
        { clinicId, name: 'Pat Two', phone: '555-200-0005', createdAt: daysAgo(2) },
        { clinicId, name: 'Pat Gone', phone: '555-200-0006', status: 'inactive', createdAt: daysAgo(20) },
      ])
      .returning({ id: patients.id });
    patientIds = patientRows.map((row) => row.id);

    const [ann, ben] = dentistIds as [number, number];
    const [p1, p2, p3, p4] = patientIds as [number, number, number, number];
    const lastWeek = addDays(today, -7);
    await db()
      .insert(appointments)
      .values([
        // Today: three live (one completed) and one cancelled, out of time order.
        {
          clinicId,
          patientId: p1,
          dentistId: ann,
          date: today,
          time: '15:00',
          treatment: 'Root Canal',
          status: 'confirmed',
          notes: 'Bring X-rays',
        },
        {
          clinicId,
          patientId: p2,
          dentistId: ben,
          date: today,
          time: '09:30',
          treatment: 'Dental Checkup',
          status: 'pending',
        },
        {
          clinicId,
          patientId: p3,
          dentistId: ann,
          date: today,
          time: '08:00',
          treatment: 'Regular Cleaning',
          status: 'completed',
        },
        {
          clinicId,
          patientId: p4,
          dentistId: ben,
          date: today,
          time: '11:00',
          treatment: 'Cavity Filling',
          status: 'cancelled',
        },
        // The same weekday last week: one live, one cancelled.
        {
          clinicId,
          patientId: p1,
          dentistId: ann,
          date: lastWeek,
          time: '10:00',
          treatment: 'Dental Checkup',
          status: 'completed',
        },
        {
          clinicId,
          patientId: p2,
          dentistId: ann,
          date: lastWeek,
          time: '11:00',
          treatment: 'Dental Checkup',
          status: 'cancelled',
        },
        // Pending: in the next week (plus today's one) and beyond it; and two in the week before.
        {
          clinicId,
          patientId: p3,
          dentistId: ann,
          date: addDays(today, 3),
          time: '10:00',
          treatment: 'Dental Checkup',
          status: 'pending',
        },
        {
          clinicId,
          patientId: p4,
          dentistId: ben,
          date: addDays(today, 20),
          time: '10:00',
          treatment: 'Dental Checkup',
          status: 'pending',
        },
        {
          clinicId,
          patientId: p1,
          dentistId: ben,
          date: addDays(today, -2),
          time: '10:00',
          treatment: 'Dental Checkup',
          status: 'pending',
        },
        {
          clinicId,
          patientId: p2,
          dentistId: ben,
          date: addDays(today, -3),
          time: '10:00',
          treatment: 'Dental Checkup',
          status: 'pending',
        },
        {
          clinicId,
          patientId: p3,
          dentistId: ben,
          date: addDays(today, -30),
          time: '10:00',
          treatment: 'Dental Checkup',
          status: 'pending',
        },
      ]);

    const passwordHash = await hashPassword('dash-secret-1');
    const staff = await db()
      .insert(users)
      .values([
        {
          clinicId,
          username: 'dash.admin',
          email: 'admin@dash.example',
          name: 'Dana Admin',
          role: 'admin',
          passwordHash,
        },
        {
          clinicId,
          username: 'dash.reception',
          email: 'reception@dash.example',
          name: 'Rae Desk',
          role: 'receptionist',
          passwordHash,
        },
        {
          clinicId,
          username: 'dash.dentist',
          email: 'dentist@dash.example',
          name: 'Dr. Ann Alder',
          role: 'dentist',
          passwordHash,
          dentistId: ann,
        },
      ])
      .returning({ id: users.id });
    adminId = staff[0]?.id ?? 0;
    adminToken = (await login(app, 'dash.admin', 'dash-secret-1')).token;
    receptionistToken = (await login(app, 'dash.reception', 'dash-secret-1')).token;
    dentistToken = (await login(app, 'dash.dentist', 'dash-secret-1')).token;
    harborAdminToken = (await login(app, 'harbor.admin', 'harbor123')).token;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  }, 60_000);

  describe('stats', () => {
    it('answers the four cards computed from the clinic data', async () => {
      const response = await get(adminToken, '/api/dashboard/stats');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        data: [
          { name: "Today's Appointments", value: 3, change: '+2', changeType: 'positive' },
          // Pending from today on: today's, +3 days, +20 days. Next week 2 vs the week before 2.
          { name: 'Pending Confirmations', value: 3, change: '0', changeType: 'positive' },
          // Active patients 5; joined in the last 30 days: 2 active + 1 inactive = 3, vs 1 before.
          { name: 'Total Patients', value: 5, change: '+3', changeType: 'positive' },
          { name: 'Active Dentists', value: 2, change: '+1', changeType: 'positive' },
        ],
      });
    });

    it.each([
      ['receptionist', () => receptionistToken],
      ['dentist', () => dentistToken],
    ])('answers the %s too', async (_role, token) => {
      expect((await stat(token(), "Today's Appointments")).value).toBe(3);
    });

    it('answers 401 without a token', async () => {
      expect((await get(null, '/api/dashboard/stats')).statusCode).toBe(401);
    });

    it('follows a change made by another API process within a second', async () => {
      const [p5] = patientIds.slice(4) as [number];
      // After the day's Root Canal of 15:00-16:30 (it touches, never overlaps).
      await db()
        .insert(appointments)
        .values([
          {
            clinicId,
            patientId: p5,
            dentistId: dentistIds[0] ?? 0,
            date: today,
            time: '16:30',
            treatment: 'Root Canal',
            status: 'pending',
          },
          {
            clinicId,
            patientId: p5,
            dentistId: dentistIds[0] ?? 0,
            date: addDays(today, 1),
            time: '16:30',
            treatment: 'Root Canal',
            status: 'pending',
          },
        ]);
      await audited('create', 'appointment');
      // Another process's write is announced as it commits (its audit record), and heard here.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(await stat(adminToken, "Today's Appointments")).toEqual({
        name: "Today's Appointments",
        value: 4,
        change: '+3',
        changeType: 'positive',
      });
      // More pending in the coming week than in the last: bad news.
      expect(await stat(adminToken, 'Pending Confirmations')).toEqual({
        name: 'Pending Confirmations',
        value: 5,
        change: '+2',
        changeType: 'negative',
      });
    });

    it('follows a change made through this process at once', async () => {
      const before = await stat(adminToken, 'Pending Confirmations');
      await db()
        .insert(appointments)
        .values({
          clinicId,
          patientId: patientIds[4] ?? 0,
          dentistId: dentistIds[1] ?? 0,
          date: addDays(today, 2),
          time: '16:00',
          treatment: 'Root Canal',
          status: 'pending',
        });
      // Any write through the API recounts the clinic's stats on the next call.
      const write = await app.inject({
        method: 'PUT',
        url: '/api/settings',
        headers: authHeader(adminToken),
        payload: {},
      });
      expect(write.statusCode).toBe(200);
      expect((await stat(adminToken, 'Pending Confirmations')).value).toBe(before.value + 1);
    });

    it("counts only the caller's clinic", async () => {
      const harbor = (await get(harborAdminToken, '/api/dashboard/stats')).json();
      const dash = (await get(adminToken, '/api/dashboard/stats')).json();
      expect(harbor.data.find((card: { name: string }) => card.name === 'Active Dentists').value).toBe(2);
      expect(harbor.data).not.toEqual(dash.data);
    });
  });

  describe("today's appointments", () => {
    it("lists the clinic's appointments of its own today, every status, in time order", async () => {
      const response = await get(receptionistToken, '/api/dashboard/appointments/today');
      expect(response.statusCode).toBe(200);
      const { data } = response.json();
      expect(data.map((row: { time: string }) => row.time)).toEqual([
        '08:00',
        '09:30',
        '11:00',
        '15:00',
        '16:30',
      ]);
      expect(data.map((row: { status: string }) => row.status)).toContain('cancelled');
      expect(data[3]).toEqual({
        id: expect.any(Number),
        patient: 'Pat Old',
        patient_id: patientIds[0],
        phone: '555-200-0001',
        dentist_id: dentistIds[0],
        dentist_name: 'Dr. Ann Alder',
        date: today,
        time: '15:00',
        duration: 90,
        end_time: '16:30',
        treatment: 'Root Canal',
        status: 'confirmed',
        notes: 'Bring X-rays',
        outside_hours: false,
        outside_hours_reason: null,
        overlapping: false,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        updated_at: expect.stringMatching(/Z$/),
        version: 1,
        series: null,
        chair_id: expect.any(Number),
        chair_name: 'Chair 1',
        turnover: 0,
        dentist_from: null,
        dentist_to: null,
        source: 'desk',
        confirmed_by: null,
      });
    });

    it("takes 'today' from the clinic's time zone", async () => {
      const westToday = localDate(WEST_ZONE);
      expect(westToday).not.toBe(today);
      await db()
        .insert(appointments)
        .values({
          clinicId,
          patientId: patientIds[1] ?? 0,
          dentistId: dentistIds[1] ?? 0,
          date: westToday,
          time: '12:00',
          treatment: 'Dental Checkup',
          status: 'confirmed',
        });
      const east = (await get(adminToken, '/api/dashboard/appointments/today')).json();
      expect(east.data.every((row: { date: string }) => row.date === today)).toBe(true);

      const moved = await app.inject({
        method: 'PUT',
        url: '/api/settings',
        headers: authHeader(adminToken),
        payload: { timeZone: WEST_ZONE },
      });
      expect(moved.statusCode).toBe(200);
      const west = (await get(adminToken, '/api/dashboard/appointments/today')).json();
      const westRows = west.data as Array<{ date: string; time: string; status: string }>;
      // From 10:00 to 10:59 UTC the two zones are two days apart, and the visit seeded two days back
      // falls on the west's today as well: only the date and the visit added here are certain.
      expect(westRows.every((row) => row.date === westToday)).toBe(true);
      expect(westRows.map((row) => [row.date, row.time])).toContainEqual([westToday, '12:00']);
      expect(await stat(adminToken, "Today's Appointments")).toMatchObject({
        value: westRows.filter((row) => row.status !== 'cancelled').length,
      });

      await app.inject({
        method: 'PUT',
        url: '/api/settings',
        headers: authHeader(adminToken),
        payload: { timeZone: EAST_ZONE },
      });
    });

    it('takes a limit of 1 to 1000', async () => {
      const limited = (await get(adminToken, '/api/dashboard/appointments/today?limit=2')).json();
      expect(limited.data).toHaveLength(2);
      for (const bad of ['0', '1001', 'ten']) {
        const response = await get(adminToken, `/api/dashboard/appointments/today?limit=${bad}`);
        expect(response.statusCode).toBe(400);
      }
    });

    it("shows no other clinic's appointments", async () => {
      const harbor = (await get(harborAdminToken, '/api/dashboard/appointments/today')).json();
      expect(harbor.data.some((row: { dentist_name: string }) => row.dentist_name === 'Dr. Ann Alder')).toBe(
        false,
      );
    });

    it('answers 401 without a token', async () => {
      expect((await get(null, '/api/dashboard/appointments/today')).statusCode).toBe(401);
    });
  });

  describe('activity', () => {
    it('lists changes newest first with a readable description, leaving sign-ins out', async () => {
      const created = await app.inject({
        method: 'POST',
        url: '/api/users',
        headers: authHeader(adminToken),
        payload: {
          name: 'New Hire',
          username: 'dash.newhire',
          email: 'newhire@dash.example',
          password: 'welcome-123',
          role: 'receptionist',
        },
      });
      expect(created.statusCode).toBe(201);
      const response = await get(dentistToken, '/api/dashboard/activity');
      expect(response.statusCode).toBe(200);
      const { data } = response.json();
      expect(data[0]).toEqual({
        id: expect.any(Number),
        action: 'create',
        entity: 'user',
        entity_id: String(created.json().id),
        user_name: 'Dana Admin',
        description: `Dana Admin created user #${created.json().id} (New Hire)`,
        created_at: expect.stringMatching(/Z$/),
      });
      expect(data.some((row: { action: string }) => row.action === 'login')).toBe(false);
      const times = data.map((row: { created_at: string }) => row.created_at);
      expect(times).toEqual([...times].sort().reverse());
    });

    it('answers 10 by default and at most 50', async () => {
      for (let index = 0; index < 12; index += 1) await audited('update', 'patient');
      expect((await get(adminToken, '/api/dashboard/activity')).json().data).toHaveLength(10);
      expect((await get(adminToken, '/api/dashboard/activity?limit=3')).json().data).toHaveLength(3);
      expect((await get(adminToken, '/api/dashboard/activity?limit=50')).statusCode).toBe(200);
      expect((await get(adminToken, '/api/dashboard/activity?limit=51')).statusCode).toBe(400);
      expect((await get(adminToken, '/api/dashboard/activity?limit=0')).statusCode).toBe(400);
    });

    it("shows no other clinic's activity", async () => {
      const harbor = (await get(harborAdminToken, '/api/dashboard/activity?limit=50')).json();
      expect(harbor.data.some((row: { user_name: string | null }) => row.user_name === 'Dana Admin')).toBe(
        false,
      );
    });

    it('answers 401 without a token', async () => {
      expect((await get(null, '/api/dashboard/activity')).statusCode).toBe(401);
    });
  });

  describe('descriptions', () => {
    const row = {
      id: 1,
      action: 'create',
      entity: 'appointment',
      entity_id: '12',
      details: null,
      created_at: new Date(),
      user_id: 1,
      user_name: 'Alex Morgan',
    };
    it.each([
      [{}, 'Alex Morgan created appointment #12'],
      [
        { action: 'status_change', details: { status: 'confirmed' } },
        'Alex Morgan changed the status of appointment #12 to confirmed',
      ],
      [
        { action: 'delete', entity: 'patient', details: { name: 'Pat Old' } },
        'Alex Morgan deleted patient #12 (Pat Old)',
      ],
      [
        { action: 'module_disabled', entity: 'module', entity_id: 'dentists' },
        'Alex Morgan disabled the dentists module',
      ],
      [{ action: 'update', entity: 'settings' }, 'Alex Morgan updated the practice settings'],
      [{ user_name: null, user_id: 7 }, 'A former user created appointment #12'],
      [
        { user_name: null, user_id: null, action: 'time_slot_booked' },
        'The system time slot booked appointment #12',
      ],
      [
        { user_name: null, user_id: null, details: { patient: 'Tom Newman', by: 'patient online' } },
        'A patient online created appointment #12 (Tom Newman)',
      ],
      [
        {
          user_name: null,
          user_id: null,
          action: 'call_back_requested',
          details: { patient: 'Tom Newman', by: 'patient online' },
        },
        'A patient online asked to be called about appointment #12 (Tom Newman)',
      ],
    ])('describes %j', (overrides, sentence) => {
      expect(describeActivity({ ...row, ...overrides })).toBe(sentence);
    });
  });
});
