import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { appointments, auditLog, availability, dentists, users } from '../../db/schema';
import { APPOINTMENT_WIRE_KEYS, addPatient, authHeader, createTestApp, login } from '../../test/testApp';

interface WireDentist {
  id: number;
  name: string;
  email: string;
  phone: string;
  specialty: string;
  license: string;
  years_of_experience: number;
  working_days: string;
  status: string;
  working_hours: Record<string, { start: string; end: string; off: boolean }>;
  days_per_week: number;
  created_at: string;
  updated_at: string;
}

interface WireAppointment {
  id: number;
  dentist_id: number;
  date: string;
  time: string;
  status: string;
  patient: string;
}

describe('dentists API', () => {
  let app: FastifyInstance;
  let adminToken: string;
  let receptionistToken: string;
  let dentistToken: string;
  let harborAdminToken: string;
  let clinicId: number;
  let sarahId: number;
  let michaelId: number;
  let harborDentistId: number;
  let counter = 0;

  const db = () => app.database.db;
  const send = (
    token: string | null,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
  ) =>
    app.inject({
      method,
      url,
      headers: token ? authHeader(token) : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const fieldsOf = (body: { errors?: Array<{ field: string }> }) => (body.errors ?? []).map((e) => e.field);
  const newDentist = (overrides: Record<string, unknown> = {}) => {
    counter += 1;
    return {
      name: `Dr. Test ${counter}`,
      email: `dr.test${counter}@example.com`,
      phone: '+1 (555) 010-9999',
      specialty: 'Endodontics',
      license: `TST-${counter}`,
      years_of_experience: 3,
      working_days: '12345',
      ...overrides,
    };
  };
  const createDentist = async (overrides: Record<string, unknown> = {}, token = adminToken) => {
    const response = await send(token, 'POST', '/api/dentists', newDentist(overrides));
    expect(response.statusCode).toBe(201);
    return response.json() as WireDentist;
  };
  const rowOf = async (id: number) => {
    const [row] = await db().select().from(dentists).where(eq(dentists.id, id));
    return row;
  };
  const lastAudit = async () => {
    const [row] = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.entity, 'dentist'))
      .orderBy(desc(auditLog.id))
      .limit(1);
    return row;
  };

  beforeAll(async () => {
    app = await createTestApp();
    const admin = await login(app, 'admin', 'admin123');
    adminToken = admin.token;
    clinicId = admin.user.clinic_id;
    receptionistToken = (await login(app, 'receptionist', 'receptionist123')).token;
    dentistToken = (await login(app, 'dentist', 'dentist123')).token;
    harborAdminToken = (await login(app, 'harbor.admin', 'harbor123')).token;
    const rows = await db().select().from(dentists);
    const byName = (name: string) => rows.find((row) => row.name === name)?.id ?? 0;
    sarahId = byName('Dr. Sarah Johnson');
    michaelId = byName('Dr. Michael Chen');
    harborDentistId = byName('Dr. Olivia Bennett');
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  }, 60_000);

  describe('list', () => {
    it("answers the clinic's dentists by name, with derived hours, to every role", async () => {
      for (const token of [adminToken, receptionistToken, dentistToken]) {
        const response = await send(token, 'GET', '/api/dentists');
        expect(response.statusCode).toBe(200);
        const body = response.json() as { data: WireDentist[]; total: number; page: number; limit: number };
        expect(body.total).toBe(4);
        expect([body.page, body.limit]).toEqual([1, 20]);
        expect(body.data.map((dentist) => dentist.name)).toEqual([
          'Dr. Emily Rodriguez',
          'Dr. James Wilson',
          'Dr. Michael Chen',
          'Dr. Sarah Johnson',
        ]);
      }
      const body = (await send(adminToken, 'GET', '/api/dentists')).json() as { data: WireDentist[] };
      const chen = body.data.find((dentist) => dentist.id === michaelId);
      expect(chen).toEqual({
        id: michaelId,
        name: 'Dr. Michael Chen',
        email: 'michael.chen@brightsmile.example',
        phone: '(555) 010-2102',
        specialty: 'Orthodontics',
        license: 'DDS-10488',
        years_of_experience: 8,
        working_days: '123456',
        status: 'active',
        working_hours: {
          monday: { start: '09:00', end: '17:00', off: false },
          tuesday: { start: '09:00', end: '17:00', off: false },
          wednesday: { start: '09:00', end: '17:00', off: false },
          thursday: { start: '09:00', end: '17:00', off: false },
          friday: { start: '09:00', end: '17:00', off: false },
          saturday: { start: '09:00', end: '13:00', off: false },
          sunday: { start: '00:00', end: '00:00', off: true },
        },
        days_per_week: 6,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        updated_at: expect.stringMatching(/Z$/),
        version: expect.any(Number),
      });
    });

    it('searches name, e-mail and license case-insensitively, % and _ literally', async () => {
      const search = async (term: string) =>
        (
          (await send(adminToken, 'GET', `/api/dentists?search=${encodeURIComponent(term)}`)).json() as {
            data: WireDentist[];
          }
        ).data.map((dentist) => dentist.name);
      expect(await search('WILSON')).toEqual(['Dr. James Wilson']);
      expect(await search('emily.rodriguez@')).toEqual(['Dr. Emily Rodriguez']);
      expect(await search('dds-10231')).toEqual(['Dr. Sarah Johnson']);
      expect(await search('%')).toEqual([]);
      expect(await search('_')).toEqual([]);
      // Harbor's dentists are not found from Bright Smile.
      expect(await search('Bennett')).toEqual([]);
    });

    it('filters by status and specialty, sorts, and pages', async () => {
      const inactive = await createDentist({
        status: 'inactive',
        specialty: 'Oral Pathology',
        years_of_experience: 70,
      });
      const byStatus = (await send(adminToken, 'GET', '/api/dentists?status=inactive')).json() as {
        data: WireDentist[];
      };
      expect(byStatus.data.map((dentist) => dentist.id)).toEqual([inactive.id]);
      const bySpecialty = (
        await send(adminToken, 'GET', `/api/dentists?specialty=${encodeURIComponent('Pediatric Dentistry')}`)
      ).json() as { data: WireDentist[] };
      expect(bySpecialty.data.map((dentist) => dentist.name)).toEqual(['Dr. Emily Rodriguez']);
      const senior = (
        await send(adminToken, 'GET', '/api/dentists?sort=-years_of_experience&limit=3')
      ).json() as {
        data: WireDentist[];
        total: number;
      };
      expect(senior.data.map((dentist) => dentist.years_of_experience)).toEqual([70, 15, 12]);
      expect(senior.total).toBe(5);
      const junior = (
        await send(adminToken, 'GET', '/api/dentists?sort=years_of_experience&limit=2&page=2')
      ).json() as {
        data: WireDentist[];
      };
      expect(junior.data.map((dentist) => dentist.years_of_experience)).toEqual([12, 15]);
      const reversed = (await send(adminToken, 'GET', '/api/dentists?sort=-name&limit=1')).json() as {
        data: WireDentist[];
      };
      expect(reversed.data[0]?.name).toBe(
        inactive.name.startsWith('Dr. T') ? inactive.name : 'Dr. Sarah Johnson',
      );
      const beyond = (await send(adminToken, 'GET', '/api/dentists?page=50')).json() as {
        data: unknown[];
        total: number;
      };
      expect(beyond).toMatchObject({ data: [], total: 5, page: 50 });
      await db().delete(dentists).where(eq(dentists.id, inactive.id));
    });

    it('refuses bad queries naming the parameter, and 401 without a token', async () => {
      const cases: Array<[string, string]> = [
        ['limit=101', 'limit'],
        ['page=0', 'page'],
        ['sort=email', 'sort'],
        ['status=retired', 'status'],
        ['specialty=Magic', 'specialty'],
      ];
      for (const [query, field] of cases) {
        const response = await send(adminToken, 'GET', `/api/dentists?${query}`);
        expect(response.statusCode).toBe(400);
        expect(fieldsOf(response.json())).toContain(field);
      }
      expect((await send(null, 'GET', '/api/dentists')).statusCode).toBe(401);
      expect((await send(null, 'GET', `/api/dentists/${sarahId}`)).statusCode).toBe(401);
    });
  });

  describe('read one', () => {
    it('answers a dentist of the clinic, and 404 for another clinic’s or none', async () => {
      const response = await send(dentistToken, 'GET', `/api/dentists/${sarahId}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id: sarahId, name: 'Dr. Sarah Johnson', days_per_week: 5 });
      for (const id of [harborDentistId, 999999]) {
        const missing = await send(adminToken, 'GET', `/api/dentists/${id}`);
        expect(missing.statusCode).toBe(404);
        expect(missing.json()).toEqual({ message: 'Dentist not found' });
      }
    });
  });

  describe("a dentist's appointments", () => {
    it('answers them by date and time as a page, in the appointment shape', async () => {
      const response = await send(
        receptionistToken,
        'GET',
        `/api/dentists/${sarahId}/appointments?limit=100`,
      );
      expect(response.statusCode).toBe(200);
      const body = response.json() as { data: WireAppointment[]; total: number; page: number; limit: number };
      const [counted] = await db()
        .select({ id: appointments.id })
        .from(appointments)
        .where(and(eq(appointments.clinicId, clinicId), eq(appointments.dentistId, sarahId)))
        .then((rows) => [rows.length]);
      expect(body.total).toBe(counted);
      expect(body.total).toBeGreaterThan(5);
      expect(body.data.every((item) => item.dentist_id === sarahId)).toBe(true);
      const keys = body.data.map((item) => `${item.date} ${item.time}`);
      expect([...keys].sort()).toEqual(keys);
      expect(Object.keys(body.data[0] ?? {}).sort()).toEqual(APPOINTMENT_WIRE_KEYS);

      const second = (
        await send(adminToken, 'GET', `/api/dentists/${sarahId}/appointments?limit=2&page=2`)
      ).json() as {
        data: WireAppointment[];
        total: number;
      };
      expect(second.data.map((item) => item.id)).toEqual(body.data.slice(2, 4).map((item) => item.id));
      expect(second.total).toBe(body.total);

      const someDate = body.data[3]?.date ?? '';
      const onDate = (
        await send(adminToken, 'GET', `/api/dentists/${sarahId}/appointments?date=${someDate}`)
      ).json() as {
        data: WireAppointment[];
      };
      expect(onDate.data.length).toBeGreaterThan(0);
      expect(onDate.data.every((item) => item.date === someDate)).toBe(true);

      const from = body.data[2]?.date ?? '';
      const to = body.data[6]?.date ?? '';
      const ranged = (
        await send(adminToken, 'GET', `/api/dentists/${sarahId}/appointments?from=${from}&to=${to}&limit=100`)
      ).json() as { data: WireAppointment[] };
      expect(ranged.data.map((item) => item.id)).toEqual(
        body.data.filter((item) => item.date >= from && item.date <= to).map((item) => item.id),
      );

      const statuses = new Set(body.data.map((item) => item.status));
      const status = [...statuses][0] ?? 'pending';
      const byStatus = (
        await send(adminToken, 'GET', `/api/dentists/${sarahId}/appointments?status=${status}&limit=100`)
      ).json() as { data: WireAppointment[] };
      expect(byStatus.data.map((item) => item.id)).toEqual(
        body.data.filter((item) => item.status === status).map((item) => item.id),
      );
    });

    it('answers 404 for a dentist of another clinic, 400 for bad queries', async () => {
      const foreign = await send(adminToken, 'GET', `/api/dentists/${harborDentistId}/appointments`);
      expect(foreign.statusCode).toBe(404);
      for (const [query, field] of [
        ['limit=101', 'limit'],
        ['status=done', 'status'],
        ['date=2030-02-30', 'date'],
        ['from=2030-02-10&to=2030-02-01', 'to'],
      ] as const) {
        const response = await send(adminToken, 'GET', `/api/dentists/${sarahId}/appointments?${query}`);
        expect(response.statusCode).toBe(400);
        expect(fieldsOf(response.json())).toContain(field);
      }
    });
  });

  describe('create', () => {
    it('creates a dentist with sorted working days and an audit record', async () => {
      const body = newDentist({ working_days: '761', years_of_experience: 0 });
      const response = await send(adminToken, 'POST', '/api/dentists', body);
      expect(response.statusCode).toBe(201);
      const created = response.json() as WireDentist;
      expect(created).toMatchObject({
        name: body.name,
        email: body.email,
        phone: body.phone,
        specialty: 'Endodontics',
        license: body.license,
        years_of_experience: 0,
        working_days: '167',
        status: 'active',
        days_per_week: 3,
      });
      expect(created.working_hours.monday).toEqual({ start: '09:00', end: '17:00', off: false });
      expect(created.working_hours.tuesday).toEqual({ start: '00:00', end: '00:00', off: true });
      expect(created.working_hours.sunday).toEqual({ start: '09:00', end: '13:00', off: false });
      const row = await rowOf(created.id);
      expect([row?.clinicId, row?.workingDays]).toEqual([clinicId, '167']);
      const audit = await lastAudit();
      expect([audit?.action, audit?.entityId, audit?.clinicId]).toEqual([
        'create',
        String(created.id),
        clinicId,
      ]);
      expect(audit?.details).toMatchObject({ name: body.name });
      expect((await send(adminToken, 'GET', `/api/dentists/${created.id}`)).json()).toEqual(created);
    });

    it('defaults experience, working days and status when left out', async () => {
      const { years_of_experience: _y, working_days: _w, ...body } = newDentist();
      const response = await send(adminToken, 'POST', '/api/dentists', body);
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({
        years_of_experience: 0,
        working_days: '12345',
        status: 'active',
        days_per_week: 5,
      });
    });

    it('validates every field, naming it, and creates nothing', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ name: '' }, 'name'],
        [{ name: '   ' }, 'name'],
        [{ name: 'x'.repeat(101) }, 'name'],
        [{ name: undefined }, 'name'],
        [{ email: 'not-an-email' }, 'email'],
        [{ email: undefined }, 'email'],
        [{ phone: 'call me' }, 'phone'],
        [{ phone: '123' }, 'phone'],
        [{ phone: undefined }, 'phone'],
        [{ specialty: 'Magic' }, 'specialty'],
        [{ specialty: undefined }, 'specialty'],
        [{ license: '' }, 'license'],
        [{ license: 'L'.repeat(51) }, 'license'],
        [{ years_of_experience: -1 }, 'years_of_experience'],
        [{ years_of_experience: 71 }, 'years_of_experience'],
        [{ years_of_experience: 2.5 }, 'years_of_experience'],
        [{ years_of_experience: 'ten' }, 'years_of_experience'],
        [{ working_days: '' }, 'working_days'],
        [{ working_days: '1123' }, 'working_days'],
        [{ working_days: '08' }, 'working_days'],
        [{ working_days: 'mon' }, 'working_days'],
        [{ status: 'retired' }, 'status'],
        [{ nickname: 'Doc' }, 'nickname'],
      ];
      const before = (await db().select().from(dentists)).length;
      for (const [change, field] of cases) {
        const response = await send(adminToken, 'POST', '/api/dentists', newDentist(change));
        expect([field, response.statusCode]).toEqual([field, 400]);
        expect(fieldsOf(response.json())).toContain(field);
      }
      expect((await db().select().from(dentists)).length).toBe(before);
    });

    it('ignores server-owned and derived fields sent back', async () => {
      const response = await send(
        adminToken,
        'POST',
        '/api/dentists',
        newDentist({ id: 1, clinic_id: 999, created_at: 'x', working_hours: {}, days_per_week: 9 }),
      );
      expect(response.statusCode).toBe(201);
      const created = response.json() as WireDentist;
      expect(created.id).not.toBe(1);
      expect(created.days_per_week).toBe(5);
      expect((await rowOf(created.id))?.clinicId).toBe(clinicId);
    });

    it('answers 409 for an e-mail or license the clinic has, in any case; another clinic may use them', async () => {
      const email = await send(
        adminToken,
        'POST',
        '/api/dentists',
        newDentist({ email: 'SARAH.JOHNSON@brightsmile.example' }),
      );
      expect(email.statusCode).toBe(409);
      expect(fieldsOf(email.json())).toEqual(['email']);
      const license = await send(adminToken, 'POST', '/api/dentists', newDentist({ license: 'dds-10231' }));
      expect(license.statusCode).toBe(409);
      expect(fieldsOf(license.json())).toEqual(['license']);
      expect(license.json().message).toBe('Another dentist of the clinic has this license number');
      const harbor = await createDentist(
        { email: 'sarah.johnson@brightsmile.example', license: 'DDS-10231' },
        harborAdminToken,
      );
      expect((await rowOf(harbor.id))?.clinicId).not.toBe(clinicId);
    });
  });

  describe('roles', () => {
    it('answers 401 without a token and 403 to a receptionist or dentist, whatever the body', async () => {
      expect((await send(null, 'POST', '/api/dentists', { nonsense: 1 })).statusCode).toBe(401);
      const before = await rowOf(michaelId);
      for (const token of [receptionistToken, dentistToken]) {
        const refusals = [
          await send(token, 'POST', '/api/dentists', { nonsense: 1 }),
          await send(token, 'PUT', `/api/dentists/${michaelId}`, { nonsense: 1 }),
          await send(token, 'DELETE', `/api/dentists/${michaelId}`),
        ];
        for (const response of refusals) {
          expect(response.statusCode).toBe(403);
          expect(response.json().message).toBe("You don't have permission to manage dentists.");
        }
      }
      expect(await rowOf(michaelId)).toEqual(before);
      const [denied] = await db()
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'access_denied'))
        .orderBy(desc(auditLog.id))
        .limit(1);
      expect(denied?.details).toEqual({ method: 'DELETE', permission: 'dentists' });
    });
  });

  describe('update', () => {
    it('updates fields; a PUT of what GET answered succeeds unchanged', async () => {
      const dentist = await createDentist();
      const same = await send(adminToken, 'PUT', `/api/dentists/${dentist.id}`, dentist);
      expect(same.statusCode).toBe(200);
      expect({ ...same.json(), updated_at: dentist.updated_at }).toEqual(dentist);

      const response = await send(adminToken, 'PUT', `/api/dentists/${dentist.id}`, {
        ...dentist,
        name: 'Dr. Renamed',
        specialty: 'Periodontics',
        working_days: '6',
        years_of_experience: 9,
      });
      expect(response.statusCode).toBe(200);
      const updated = response.json() as WireDentist;
      expect(updated).toMatchObject({
        id: dentist.id,
        name: 'Dr. Renamed',
        specialty: 'Periodontics',
        working_days: '6',
        days_per_week: 1,
        years_of_experience: 9,
        created_at: dentist.created_at,
      });
      expect(updated.working_hours.monday?.off).toBe(true);
      expect((await rowOf(dentist.id))?.name).toBe('Dr. Renamed');
      const audit = await lastAudit();
      expect(audit?.action).toBe('update');
      expect([...((audit?.details as { changed?: string[] } | undefined)?.changed ?? [])].sort()).toEqual(
        ['name', 'specialty', 'working_days', 'years_of_experience'].sort(),
      );
    });

    it('keeps left-out optional fields, and audits a change of status alone as a status change', async () => {
      const dentist = await createDentist({ working_days: '246', years_of_experience: 20 });
      const { working_days: _w, years_of_experience: _y, status: _s, ...rest } = dentist;
      const response = await send(adminToken, 'PUT', `/api/dentists/${dentist.id}`, {
        ...rest,
        status: 'inactive',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        working_days: '246',
        years_of_experience: 20,
        status: 'inactive',
      });
      const audit = await lastAudit();
      expect(audit?.action).toBe('status_change');
      expect(audit?.details).toMatchObject({ status: 'inactive' });
      const kept = await send(adminToken, 'PUT', `/api/dentists/${dentist.id}`, rest);
      expect(kept.json().status).toBe('inactive');
    });

    it('answers 409 for an e-mail or license another dentist has, 400 for bad fields, changing nothing', async () => {
      const dentist = await createDentist();
      const before = await rowOf(dentist.id);
      const email = await send(adminToken, 'PUT', `/api/dentists/${dentist.id}`, {
        ...dentist,
        email: 'Michael.Chen@brightsmile.example',
      });
      expect(email.statusCode).toBe(409);
      const license = await send(adminToken, 'PUT', `/api/dentists/${dentist.id}`, {
        ...dentist,
        license: 'DDS-10488',
      });
      expect(license.statusCode).toBe(409);
      const bad = await send(adminToken, 'PUT', `/api/dentists/${dentist.id}`, {
        ...dentist,
        working_days: '99',
      });
      expect(bad.statusCode).toBe(400);
      expect(fieldsOf(bad.json())).toEqual(['working_days']);
      expect(await rowOf(dentist.id)).toEqual(before);
      // Its own e-mail and license in another case are fine.
      const own = await send(adminToken, 'PUT', `/api/dentists/${dentist.id}`, {
        ...dentist,
        email: dentist.email.toUpperCase(),
        license: dentist.license.toLowerCase(),
      });
      expect(own.statusCode).toBe(200);
    });

    it("answers 404 for another clinic's dentist, changing nothing", async () => {
      const before = await rowOf(sarahId);
      const response = await send(harborAdminToken, 'PUT', `/api/dentists/${sarahId}`, newDentist());
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('Dentist not found');
      expect(await rowOf(sarahId)).toEqual(before);
      expect((await send(adminToken, 'PUT', '/api/dentists/999999', newDentist())).statusCode).toBe(404);
    });
  });

  describe('delete', () => {
    /** A visit of a patient of its own (one patient is never in two places at once). */
    const bookFor = async (dentistId: number, date: string, status: string) => {
      const patientId = await addPatient(app, clinicId, 'Delete Case');
      await db().insert(appointments).values({
        clinicId,
        patientId,
        dentistId,
        date,
        time: '09:00',
        treatment: 'Root Canal',
        status,
      });
    };

    const giveDay = (dentistId: number) =>
      db()
        .insert(availability)
        .values({
          clinicId,
          dentistId,
          date: '2031-05-05',
          timeSlots: [{ start: '09:00', end: '10:00', available: true }],
        });

    it('refuses a dentist with appointments to come (409), naming them, and keeps the dentist', async () => {
      const dentist = await createDentist();
      await bookFor(dentist.id, '2031-05-05', 'confirmed');
      await bookFor(dentist.id, '2031-05-06', 'pending');
      await bookFor(dentist.id, '2020-01-06', 'completed');
      const response = await send(adminToken, 'DELETE', `/api/dentists/${dentist.id}`);
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(
        'This dentist has 2 appointments to come and cannot be deleted; move or cancel them, or set the dentist to inactive',
      );
      expect(await rowOf(dentist.id)).toBeDefined();
      const seeded = await send(adminToken, 'DELETE', `/api/dentists/${michaelId}`);
      expect(seeded.statusCode).toBe(409);
      expect(await rowOf(michaelId)).toBeDefined();
    });

    it("deletes a dentist whose appointments are all past, keeping those records with the dentist's name", async () => {
      const dentist = await createDentist({ name: 'Dr. Retiring Soon' });
      await bookFor(dentist.id, '2020-01-06', 'completed');
      await giveDay(dentist.id);
      const feed = await send(adminToken, 'POST', `/api/calendar/feeds/${dentist.id}`);
      expect(feed.statusCode).toBe(201);
      const feedPath = new URL(feed.json().url as string).pathname;
      expect((await send(null, 'GET', feedPath)).statusCode).toBe(200);
      const activeDentists = async () =>
        (
          (await send(adminToken, 'GET', '/api/dashboard/stats')).json().data as Array<{
            name: string;
            value: number;
          }>
        ).find((card) => card.name === 'Active Dentists')?.value;
      const activeBefore = await activeDentists();

      const response = await send(adminToken, 'DELETE', `/api/dentists/${dentist.id}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: 'Dentist deleted' });

      // Gone from the dentist's own calls, every list and filter, and the feed.
      expect((await send(adminToken, 'GET', `/api/dentists/${dentist.id}`)).statusCode).toBe(404);
      expect((await send(adminToken, 'PUT', `/api/dentists/${dentist.id}`, newDentist())).statusCode).toBe(
        404,
      );
      expect((await send(adminToken, 'DELETE', `/api/dentists/${dentist.id}`)).statusCode).toBe(404);
      for (const query of ['', '?status=inactive', '?search=Retiring']) {
        const names = (
          (await send(adminToken, 'GET', `/api/dentists${query}`)).json().data as WireDentist[]
        ).map((each) => each.name);
        expect(names).not.toContain('Dr. Retiring Soon');
      }
      expect(await db().select().from(availability).where(eq(availability.dentistId, dentist.id))).toEqual(
        [],
      );
      expect((await send(null, 'GET', feedPath)).statusCode).toBe(404);
      expect((await send(adminToken, 'POST', `/api/calendar/feeds/${dentist.id}`)).statusCode).toBe(404);
      expect(await activeDentists()).toBe((activeBefore ?? 0) - 1);

      // The past visit keeps its dentist.
      const history = await send(adminToken, 'GET', `/api/appointments?dentist_id=${dentist.id}`);
      expect(history.statusCode).toBe(200);
      expect(
        history
          .json()
          .data.map((visit: { dentist_name: string; date: string }) => [visit.dentist_name, visit.date]),
      ).toEqual([['Dr. Retiring Soon', '2020-01-06']]);

      // No new booking, availability or account link for them.
      const booking = await send(adminToken, 'POST', '/api/appointments', {
        patient: 'New Patient',
        phone: '+1 555 010 7777',
        dentist_id: dentist.id,
        date: '2031-05-05',
        time: '09:00',
        treatment: 'Regular Cleaning',
      });
      expect(booking.statusCode).toBe(400);
      expect(fieldsOf(booking.json())).toEqual(['dentist_id']);
      const day = await send(adminToken, 'POST', '/api/availability', {
        dentist_id: dentist.id,
        date: '2031-05-06',
        time_slots: [{ start: '09:00', end: '10:00', available: true }],
      });
      expect(day.statusCode).toBe(400);
      expect(fieldsOf(day.json())).toEqual(['dentist_id']);

      // Their e-mail and license are free for a new record.
      const successor = await send(
        adminToken,
        'POST',
        '/api/dentists',
        newDentist({ email: dentist.email.toUpperCase(), license: dentist.license }),
      );
      expect(successor.statusCode).toBe(201);

      const row = await rowOf(dentist.id);
      expect([row?.name, row?.status, row?.deletedAt instanceof Date]).toEqual([
        'Dr. Retiring Soon',
        'inactive',
        true,
      ]);
      const audit = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'dentist'), eq(auditLog.entityId, String(dentist.id))))
        .orderBy(desc(auditLog.id))
        .limit(1);
      expect([audit[0]?.action, audit[0]?.details]).toEqual([
        'delete',
        { name: 'Dr. Retiring Soon', specialty: 'Endodontics', appointments_kept: 1 },
      ]);
    });

    it('deletes a dentist with their availability, unlinks their account, and audits it', async () => {
      const dentist = await createDentist();
      await giveDay(dentist.id);
      const account = await send(adminToken, 'POST', '/api/users', {
        name: 'Linked Dentist',
        username: `linked.dentist${counter}`,
        email: `linked.dentist${counter}@example.com`,
        password: 'correct-horse-1',
        role: 'dentist',
        dentist_id: dentist.id,
      });
      expect(account.statusCode).toBe(201);
      const userId = account.json().id as number;

      const response = await send(adminToken, 'DELETE', `/api/dentists/${dentist.id}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: 'Dentist deleted' });
      expect(await rowOf(dentist.id)).toBeUndefined();
      expect(await db().select().from(availability).where(eq(availability.dentistId, dentist.id))).toEqual(
        [],
      );
      const [user] = await db().select().from(users).where(eq(users.id, userId));
      expect(user?.dentistId).toBeNull();
      const audit = await lastAudit();
      expect([audit?.action, audit?.entityId]).toEqual(['delete', String(dentist.id)]);
      expect((await send(adminToken, 'GET', `/api/dentists/${dentist.id}`)).statusCode).toBe(404);
      expect((await send(adminToken, 'DELETE', `/api/dentists/${dentist.id}`)).statusCode).toBe(404);
    });

    it("answers 404 for another clinic's dentist, deleting nothing", async () => {
      const dentist = await createDentist();
      const response = await send(harborAdminToken, 'DELETE', `/api/dentists/${dentist.id}`);
      expect(response.statusCode).toBe(404);
      expect(await rowOf(dentist.id)).toBeDefined();
    });

    it('deletes a dentist whose only appointment is cancelled, keeping that record', async () => {
      const dentist = await createDentist();
      await bookFor(dentist.id, '2031-05-05', 'cancelled');
      const response = await send(adminToken, 'DELETE', `/api/dentists/${dentist.id}`);
      expect(response.statusCode).toBe(200);
      expect((await send(adminToken, 'GET', `/api/dentists/${dentist.id}`)).statusCode).toBe(404);
      expect((await rowOf(dentist.id))?.deletedAt).toBeInstanceOf(Date);
      const kept = await db().select().from(appointments).where(eq(appointments.dentistId, dentist.id));
      expect(kept.map((visit) => [visit.date, visit.status])).toEqual([['2031-05-05', 'cancelled']]);
    });
  });
});
