import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { addDays, clinicNow, clinicToday } from '../../db/clinicTime';
import { appointments, auditLog, dentists, patients } from '../../db/schema';
import {
  APPOINTMENT_WIRE_KEYS,
  authHeader,
  createTestApp,
  expectSeekingAsNumbered,
  login,
} from '../../test/testApp';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

describe('patients API', () => {
  let app: FastifyInstance;
  let adminToken: string;
  let receptionistToken: string;
  let dentistToken: string;
  let harborToken: string;
  let clinicId: number;
  let today: string;
  let counter = 0;

  const db = () => app.database.db;
  const send = (token: string | null, method: Method, url: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: token ? authHeader(token) : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const newPatient = (overrides: Record<string, unknown> = {}) => {
    counter += 1;
    return {
      name: `Quinn Testpatient${counter}`,
      email: `quinn${counter}@example.com`,
      phone: `+1 (555) 010-${String(1000 + counter).slice(-4)}`,
      dateOfBirth: '1985-04-12',
      address: '12 Oak Avenue',
      emergencyContact: 'Sam Testpatient, +1 555 0100',
      medicalHistory: 'Penicillin allergy',
      ...overrides,
    };
  };
  const createPatient = async (overrides: Record<string, unknown> = {}, token = adminToken) => {
    const response = await send(token, 'POST', '/api/patients', newPatient(overrides));
    expect(response.statusCode).toBe(201);
    return response.json() as { id: number; name: string; status: string } & Record<string, unknown>;
  };
  const patientRow = async (id: number) => {
    const [row] = await db().select().from(patients).where(eq(patients.id, id));
    return row;
  };
  const firstDentistId = async () => {
    const [row] = await db()
      .select({ id: dentists.id })
      .from(dentists)
      .where(eq(dentists.clinicId, clinicId));
    if (!row) throw new Error('demo clinic has no dentist');
    return row.id;
  };

  beforeAll(async () => {
    app = await createTestApp();
    const admin = await login(app, 'admin', 'admin123');
    adminToken = admin.token;
    clinicId = admin.user.clinic_id;
    receptionistToken = (await login(app, 'receptionist', 'receptionist123')).token;
    dentistToken = (await login(app, 'dentist', 'dentist123')).token;
    harborToken = (await login(app, 'harbor.admin', 'harbor123')).token;
    today = await clinicToday(db(), clinicId);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  }, 60_000);

  describe('create and read', () => {
    it('adds an active patient and answers it with every field of docs/product.md, Records and their fields', async () => {
      const body = newPatient({ status: 'inactive', id: 999999, clinic_id: 2 });
      const response = await send(receptionistToken, 'POST', '/api/patients', body);
      expect(response.statusCode).toBe(201);
      const created = response.json();
      expect(created).toMatchObject({
        name: body.name,
        email: body.email,
        phone: body.phone,
        dateOfBirth: '1985-04-12',
        address: '12 Oak Avenue',
        emergencyContact: 'Sam Testpatient, +1 555 0100',
        medicalHistory: 'Penicillin allergy',
        lastVisit: null,
        nextAppointment: null,
        status: 'active',
      });
      expect(created.id).not.toBe(999999);
      expect(created.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect((await patientRow(created.id))?.clinicId).toBe(clinicId);

      const read = await send(dentistToken, 'GET', `/api/patients/${created.id}`);
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual(created);
    });

    it('writes an audit record', async () => {
      const created = await createPatient();
      const rows = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'patient'), eq(auditLog.entityId, String(created.id))));
      expect(rows.map((row) => row.action)).toEqual(['create']);
      expect(rows[0]?.details).toMatchObject({ name: created.name });
    });

    it('answers 404 for a missing patient', async () => {
      const response = await send(adminToken, 'GET', '/api/patients/999999');
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Patient not found' });
    });
  });

  describe('validation', () => {
    it.each([
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ email: 'not-an-email' }, 'email'],
      [{ email: undefined }, 'email'],
      [{ phone: 'call me' }, 'phone'],
      [{ phone: '12' }, 'phone'],
      [{ dateOfBirth: '1990-02-30' }, 'dateOfBirth'],
      [{ dateOfBirth: '12/04/1985' }, 'dateOfBirth'],
      [{ dateOfBirth: undefined }, 'dateOfBirth'],
      [{ medicalHistory: 'x'.repeat(2001) }, 'medicalHistory'],
      [{ emergencyContact: 'x'.repeat(201) }, 'emergencyContact'],
      [{ address: 'x'.repeat(301) }, 'address'],
      [{ name: undefined }, 'name'],
      [{ phone: undefined }, 'phone'],
      [{ status: 'archived' }, 'status'],
      [{ favouriteColour: 'blue' }, 'favouriteColour'],
    ])('refuses %j with 400 naming %s, and stores nothing', async (overrides, field) => {
      const before = await db().select({ id: patients.id }).from(patients);
      const response = await send(adminToken, 'POST', '/api/patients', newPatient(overrides));
      expect(response.statusCode).toBe(400);
      expect(response.json().errors.map((error: { field: string }) => error.field)).toContain(field);
      expect(await db().select({ id: patients.id }).from(patients)).toHaveLength(before.length);
    });

    it('refuses a date of birth in the future', async () => {
      const response = await send(
        adminToken,
        'POST',
        '/api/patients',
        newPatient({ dateOfBirth: addDays(today, 1) }),
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([
        { field: 'dateOfBirth', message: 'The date of birth cannot be in the future' },
      ]);
    });
  });

  describe('update and delete', () => {
    it('refuses a future date of birth on update and changes nothing', async () => {
      const created = await createPatient();
      const response = await send(
        adminToken,
        'PUT',
        `/api/patients/${created.id}`,
        newPatient({ name: 'Not Saved', dateOfBirth: addDays(today, 1) }),
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0].field).toBe('dateOfBirth');
      expect(await patientRow(created.id)).toMatchObject({ name: created.name, dateOfBirth: '1985-04-12' });
      // Born today is allowed.
      const bornToday = await send(
        adminToken,
        'PUT',
        `/api/patients/${created.id}`,
        newPatient({ dateOfBirth: today }),
      );
      expect(bornToday.statusCode).toBe(200);
      expect(bornToday.json().dateOfBirth).toBe(today);
    });

    it('audits updates and deletes with the name', async () => {
      const created = await createPatient();
      await send(
        dentistToken,
        'PUT',
        `/api/patients/${created.id}`,
        newPatient({ name: 'Audited Name', status: 'inactive' }),
      );
      expect((await send(dentistToken, 'DELETE', `/api/patients/${created.id}`)).statusCode).toBe(200);
      const rows = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'patient'), eq(auditLog.entityId, String(created.id))))
        .orderBy(auditLog.id);
      expect(rows.map((row) => row.action)).toEqual(['create', 'update', 'delete']);
      expect(rows[1]?.details).toMatchObject({ name: 'Audited Name', status: 'inactive' });
      expect(rows[2]?.details).toMatchObject({ name: 'Audited Name' });
      expect(rows.every((row) => row.clinicId === clinicId)).toBe(true);
    });

    it('updates a patient, and a PUT of what GET answered succeeds', async () => {
      const created = await createPatient();
      const changed = await send(adminToken, 'PUT', `/api/patients/${created.id}`, {
        ...newPatient({ name: 'Renamed Patient', status: 'inactive' }),
      });
      expect(changed.statusCode).toBe(200);
      expect(changed.json()).toMatchObject({ id: created.id, name: 'Renamed Patient', status: 'inactive' });

      const fetched = (await send(adminToken, 'GET', `/api/patients/${created.id}`)).json();
      const again = await send(adminToken, 'PUT', `/api/patients/${created.id}`, fetched);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ name: 'Renamed Patient', status: 'inactive' });
    });

    it('keeps the status when a PUT leaves it out', async () => {
      const created = await createPatient();
      await send(adminToken, 'PUT', `/api/patients/${created.id}`, newPatient({ status: 'inactive' }));
      const response = await send(adminToken, 'PUT', `/api/patients/${created.id}`, newPatient());
      expect(response.json().status).toBe('inactive');
    });

    it('refuses a bad update and changes nothing', async () => {
      const created = await createPatient();
      const response = await send(
        adminToken,
        'PUT',
        `/api/patients/${created.id}`,
        newPatient({ email: 'x' }),
      );
      expect(response.statusCode).toBe(400);
      expect((await patientRow(created.id))?.email).toBe(created.email);
    });

    it('deletes a patient without appointments', async () => {
      const created = await createPatient();
      const response = await send(receptionistToken, 'DELETE', `/api/patients/${created.id}`);
      expect(response.statusCode).toBe(200);
      expect(await patientRow(created.id)).toBeUndefined();
      expect((await send(adminToken, 'GET', `/api/patients/${created.id}`)).statusCode).toBe(404);
      expect((await send(adminToken, 'DELETE', `/api/patients/${created.id}`)).statusCode).toBe(404);
    });

    it('refuses to delete a patient with appointments (409) and keeps them', async () => {
      const created = await createPatient();
      await db()
        .insert(appointments)
        .values({
          clinicId,
          patientId: created.id,
          dentistId: await firstDentistId(),
          date: addDays(today, -30),
          time: '07:10',
          treatment: 'Dental Checkup',
          status: 'completed',
        });
      const response = await send(adminToken, 'DELETE', `/api/patients/${created.id}`);
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toMatch(/has appointments/);
      expect(await patientRow(created.id)).toBeDefined();
    });
  });

  describe('visits and appointments', () => {
    it('derives lastVisit and nextAppointment; a cancelled appointment is never next', async () => {
      const created = await createPatient();
      const dentistId = await firstDentistId();
      const book = (date: string, time: string, status: string) =>
        db()
          .insert(appointments)
          .values({ clinicId, patientId: created.id, dentistId, date, time, treatment: 'Root Canal', status })
          .returning({ id: appointments.id });
      // Early, and over by 09:00 (a Root Canal takes 90 minutes): clear of the demo visits.
      await book(addDays(today, -60), '07:20', 'completed');
      await book(addDays(today, -10), '07:20', 'cancelled');
      await book(addDays(today, 3), '07:20', 'cancelled');
      const [pending] = await book(addDays(today, 9), '07:30', 'pending');
      await book(addDays(today, 20), '07:30', 'confirmed');

      const patient = (await send(adminToken, 'GET', `/api/patients/${created.id}`)).json();
      expect(patient.lastVisit).toBe(addDays(today, -60));
      expect(patient.nextAppointment).toEqual({ id: pending?.id, date: addDays(today, 9), time: '07:30' });

      const listed = (
        await send(adminToken, 'GET', `/api/patients?search=${encodeURIComponent(created.name)}`)
      ).json();
      expect(listed.data).toHaveLength(1);
      expect(listed.data[0]).toMatchObject({
        id: created.id,
        lastVisit: addDays(today, -60),
        nextAppointment: { id: pending?.id, date: addDays(today, 9), time: '07:30' },
      });

      const history = await send(dentistToken, 'GET', `/api/patients/${created.id}/appointments`);
      expect(history.statusCode).toBe(200);
      const body = history.json();
      expect(body).toMatchObject({ total: 5, page: 1, limit: 20 });
      expect(body.data.map((row: { date: string }) => row.date)).toEqual([
        addDays(today, 20),
        addDays(today, 9),
        addDays(today, 3),
        addDays(today, -10),
        addDays(today, -60),
      ]);
      expect(Object.keys(body.data[0]).sort()).toEqual(APPOINTMENT_WIRE_KEYS);
      const [dentist] = await db().select().from(dentists).where(eq(dentists.id, dentistId));
      expect(body.data[0]).toMatchObject({
        patient: created.name,
        patient_id: created.id,
        phone: created.phone,
        dentist_id: dentistId,
        dentist_name: dentist?.name,
        time: '07:30',
        treatment: 'Root Canal',
        status: 'confirmed',
        notes: null,
      });
      expect(body.data.map((row: { status: string }) => row.status)).toEqual([
        'confirmed',
        'pending',
        'cancelled',
        'cancelled',
        'completed',
      ]);
      const paged = (
        await send(adminToken, 'GET', `/api/patients/${created.id}/appointments?limit=2&page=3`)
      ).json();
      expect(paged).toMatchObject({ total: 5, page: 3, limit: 2 });
      expect(paged.data.map((row: { date: string }) => row.date)).toEqual([addDays(today, -60)]);
      const past = (await send(adminToken, 'GET', `/api/patients/${created.id}/appointments?page=50`)).json();
      expect(past).toMatchObject({ data: [], total: 5, page: 50 });
    });

    it('orders the same day by time, newest first, and counts a past pending visit', async () => {
      const created = await createPatient();
      const dentistId = await firstDentistId();
      const day = addDays(today, -5);
      for (const [time, status] of [
        ['07:05', 'completed'],
        ['18:55', 'pending'],
        ['12:35', 'cancelled'],
      ] as const) {
        await db().insert(appointments).values({
          clinicId,
          patientId: created.id,
          dentistId,
          date: day,
          time,
          treatment: 'Dental Checkup',
          status,
        });
      }
      const body = (await send(adminToken, 'GET', `/api/patients/${created.id}/appointments`)).json();
      expect(body.data.map((row: { time: string }) => row.time)).toEqual(['18:55', '12:35', '07:05']);
      const patient = (await send(adminToken, 'GET', `/api/patients/${created.id}`)).json();
      expect(patient).toMatchObject({ lastVisit: day, nextAppointment: null });
    });

    it("goes by the clinic's clock: an appointment earlier today is the last visit, one later today is next", async () => {
      const created = await createPatient();
      const dentistId = await firstDentistId();
      const now = await clinicNow(db(), clinicId);
      // 00:00 has always passed and 23:59 is always to come, but in those very minutes.
      if (now.time === '00:00' || now.time === '23:59') return;
      const [earlier, later] = await db()
        .insert(appointments)
        .values(
          ['00:00', '23:59'].map((time) => ({
            clinicId,
            patientId: created.id,
            dentistId,
            date: now.date,
            time,
            treatment: 'Dental Checkup',
            status: 'confirmed',
          })),
        )
        .returning({ id: appointments.id });
      const patient = (await send(adminToken, 'GET', `/api/patients/${created.id}`)).json();
      expect(patient.lastVisit).toBe(now.date);
      expect(patient.nextAppointment).toEqual({ id: later?.id, date: now.date, time: '23:59' });
      expect(patient.nextAppointment.id).not.toBe(earlier?.id);
    });

    it('has no lastVisit from cancelled or future appointments only', async () => {
      const created = await createPatient();
      const dentistId = await firstDentistId();
      await db()
        .insert(appointments)
        .values([
          {
            clinicId,
            patientId: created.id,
            dentistId,
            date: addDays(today, -3),
            time: '06:15',
            treatment: 'Cavity Filling',
            status: 'cancelled',
          },
          {
            clinicId,
            patientId: created.id,
            dentistId,
            date: addDays(today, 4),
            time: '06:15',
            treatment: 'Cavity Filling',
            status: 'confirmed',
          },
        ]);
      const patient = (await send(adminToken, 'GET', `/api/patients/${created.id}`)).json();
      expect(patient.lastVisit).toBeNull();
      expect(patient.nextAppointment).toMatchObject({ date: addDays(today, 4), time: '06:15' });
    });

    it('answers 404 for the appointments of a missing patient, 400 for a bad page', async () => {
      const missing = await send(adminToken, 'GET', '/api/patients/999999/appointments');
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ message: 'Patient not found' });
      const created = await createPatient();
      const tooMany = await send(adminToken, 'GET', `/api/patients/${created.id}/appointments?limit=101`);
      expect(tooMany.statusCode).toBe(400);
      expect(tooMany.json().errors[0].field).toBe('limit');
    });
  });

  describe('list', () => {
    it("answers the clinic's patients as a page sorted by name", async () => {
      const response = await send(adminToken, 'GET', '/api/patients?limit=100');
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({ page: 1, limit: 100 });
      expect(body.total).toBeGreaterThan(10);
      const names = body.data.map((patient: { name: string }) => patient.name);
      expect(names).toEqual([...names].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));
      const harborNames = (await send(harborToken, 'GET', '/api/patients?limit=100'))
        .json()
        .data.map((patient: { id: number }) => patient.id);
      const ids = body.data.map((patient: { id: number }) => patient.id);
      expect(ids.filter((id: number) => harborNames.includes(id))).toEqual([]);
    });

    it('finds by the start of words of the name, the e-mail and the phone, in any case', async () => {
      const created = await createPatient({
        name: 'Xanthe Vandermolen',
        email: 'xv_unique@example.org',
        phone: '+1 555 987 6543',
      });
      const idsFor = async (term: string, token = adminToken) =>
        (await send(token, 'GET', `/api/patients?search=${encodeURIComponent(term)}`))
          .json()
          .data.map((patient: { id: number }) => patient.id);
      const found = ['vandermol', 'XANTHE', 'van xan', 'xv unique', 'xv.uniq', 'XV_Unique@Example'];
      const phone = ['1 555 987', '555 98', '987 65', '987-654', '6543', '(555) 987-6543'];
      for (const term of [...found, ...phone])
        expect([term, await idsFor(term)]).toEqual([term, [created.id]]);
      // Starts of words only; the e-mail's domain is not a word of its own; punctuation is no wildcard.
      for (const term of ['anthe', 'molen', 'example', '%', '_', 'xv%unique@', '876', 'van zed']) {
        expect([term, await idsFor(term)]).toEqual([term, []]);
      }
      expect(await idsFor('vandermol', harborToken)).toEqual([]);
    });

    it('keeps its search words when a patient is renamed, and forgets them when deleted', async () => {
      const created = await createPatient({ name: 'Quillon Ashgrove', phone: '555 101 2020' });
      const idsFor = async (term: string) =>
        (await send(adminToken, 'GET', `/api/patients?search=${encodeURIComponent(term)}`))
          .json()
          .data.map((patient: { id: number }) => patient.id);
      expect(await idsFor('ashg')).toEqual([created.id]);
      const renamed = await send(
        adminToken,
        'PUT',
        `/api/patients/${created.id}`,
        newPatient({ name: 'Quillon Birchwood', phone: '555 303 4040' }),
      );
      expect(renamed.statusCode).toBe(200);
      expect(await idsFor('ashg')).toEqual([]);
      expect(await idsFor('101 20')).toEqual([]);
      expect(await idsFor('birchw')).toEqual([created.id]);
      expect(await idsFor('303 40')).toEqual([created.id]);
      expect((await send(adminToken, 'DELETE', `/api/patients/${created.id}`)).statusCode).toBe(200);
      expect(await idsFor('birchw')).toEqual([]);
    });

    it('finds two words together in either order, by the name and the e-mail, as the patient is now', async () => {
      const both = await createPatient({ name: 'Xenia Yvolder', email: 'xy1@example.org' });
      const reversed = await createPatient({ name: 'Yvette Xenakis', email: 'yx2@example.org' });
      const byEmail = await createPatient({ name: 'Xenia Plover', email: 'yvonne.p@example.org' });
      const neither = await createPatient({ name: 'Xenia Lorrimer', email: 'xl3@example.org' });
      const namesFor = async (term: string, query = '') =>
        (await send(adminToken, 'GET', `/api/patients?search=${encodeURIComponent(term)}${query}`))
          .json()
          .data.map((patient: { name: string }) => patient.name);
      expect(await namesFor('xe yv')).toEqual(['Xenia Plover', 'Xenia Yvolder', 'Yvette Xenakis']);
      expect(await namesFor('yv xe', '&sort=-name')).toEqual([
        'Yvette Xenakis',
        'Xenia Yvolder',
        'Xenia Plover',
      ]);
      expect(await namesFor('yvo xen')).toEqual(['Xenia Plover', 'Xenia Yvolder']);
      expect(await namesFor('xen yvo xy1')).toEqual(['Xenia Yvolder']);
      // Two words of the same start may be the start of one word.
      expect(await namesFor('xen xenak')).toEqual(['Yvette Xenakis']);
      expect(await namesFor('xe yv', '&limit=1&page=3')).toEqual(['Yvette Xenakis']);
      const inactive = newPatient({ name: 'Yvette Xenakis', email: 'yx2@example.org', status: 'inactive' });
      expect((await send(adminToken, 'PUT', `/api/patients/${reversed.id}`, inactive)).statusCode).toBe(200);
      expect(await namesFor('xe yv', '&status=inactive')).toEqual(['Yvette Xenakis']);
      const renamed = await send(
        adminToken,
        'PUT',
        `/api/patients/${both.id}`,
        newPatient({ name: 'Xenia Quarrington', email: 'xq@example.org' }),
      );
      expect(renamed.statusCode).toBe(200);
      expect(await namesFor('xe yv')).toEqual(['Xenia Plover', 'Yvette Xenakis']);
      expect(await namesFor('quar xe')).toEqual(['Xenia Quarrington']);
      for (const patient of [both, reversed, byEmail, neither]) {
        expect((await send(adminToken, 'DELETE', `/api/patients/${patient.id}`)).statusCode).toBe(200);
      }
      expect(await namesFor('xe yv')).toEqual([]);
    });

    it('pages a search in name order, with status, either way; counts stop at the cap', async () => {
      await db()
        .insert(patients)
        .values(
          Array.from({ length: 1005 }, (_, index) => ({
            clinicId,
            name: `Pagewell ${String(index).padStart(4, '0')}`,
            phone: `555 7${String(index).padStart(4, '0')}`,
            status: index % 2 === 0 ? 'active' : 'inactive',
          })),
        );
      const page = async (query: string) => (await send(adminToken, 'GET', `/api/patients?${query}`)).json();
      const first = await page('search=pagew&limit=3');
      // Counted up to ten pages of 3.
      expect(first).toMatchObject({ total: 30, total_capped: true });
      expect(first.data.map((patient: { name: string }) => patient.name)).toEqual([
        'Pagewell 0000',
        'Pagewell 0001',
        'Pagewell 0002',
      ]);
      const deep = await page('search=pagewell&limit=2&page=6');
      expect(deep.data.map((patient: { name: string }) => patient.name)).toEqual([
        'Pagewell 0010',
        'Pagewell 0011',
      ]);
      // Each page further on counts further: page 30 of 2 counts up to 78, a page of 100 up to 1000.
      expect(await page('search=pagewell&limit=2&page=30')).toMatchObject({ total: 78, total_capped: true });
      const inactive = await page('search=pagewell&status=inactive&sort=-name&limit=100');
      expect(inactive).toMatchObject({ total: 502, total_capped: false });
      expect(inactive.data.slice(0, 2).map((patient: { name: string }) => patient.name)).toEqual([
        'Pagewell 1003',
        'Pagewell 1001',
      ]);
      const byBirth = await page('search=pagewell 1004&sort=date_of_birth');
      expect(byBirth).toMatchObject({ total: 1, total_capped: false });
      // The other lists of this file count on the clinic they had.
      await db()
        .delete(patients)
        .where(and(eq(patients.clinicId, clinicId), sql`${patients.name} like 'Pagewell %'`));
    });

    it('filters by status and sorts descending', async () => {
      const inactive = await createPatient({ name: 'Zz Inactive Patient', status: undefined });
      await send(
        adminToken,
        'PUT',
        `/api/patients/${inactive.id}`,
        newPatient({ name: 'Zz Inactive Patient', status: 'inactive' }),
      );
      const inactiveOnly = (await send(adminToken, 'GET', '/api/patients?status=inactive&limit=100')).json();
      expect(inactiveOnly.data.map((patient: { id: number }) => patient.id)).toContain(inactive.id);
      expect(inactiveOnly.data.every((patient: { status: string }) => patient.status === 'inactive')).toBe(
        true,
      );
      const activeOnly = (await send(adminToken, 'GET', '/api/patients?status=active&limit=100')).json();
      expect(activeOnly.data.map((patient: { id: number }) => patient.id)).not.toContain(inactive.id);
      const descending = (await send(adminToken, 'GET', '/api/patients?sort=-name&limit=1')).json();
      expect(descending.data[0].name).toBe('Zz Inactive Patient');
    });

    it('sorts by date of birth and by creation, either way', async () => {
      const oldest = await createPatient({ name: 'Sort Oldest', dateOfBirth: '1900-01-02' });
      const newest = await createPatient({ name: 'Sort Newest', dateOfBirth: addDays(today, 0) });
      const first = async (sort: string) => {
        const response = await send(adminToken, 'GET', `/api/patients?sort=${sort}&limit=1`);
        expect(response.statusCode).toBe(200);
        return response.json().data[0].id;
      };
      expect(await first('date_of_birth')).toBe(oldest.id);
      const byBirth = (await send(adminToken, 'GET', '/api/patients?sort=-date_of_birth&limit=100')).json();
      const births = byBirth.data
        .map((patient: { dateOfBirth: string | null }) => patient.dateOfBirth)
        .filter((date: string | null) => date !== null);
      expect(births[0]).toBe(today);
      expect(births).toEqual([...births].sort().reverse());
      expect(byBirth.data.map((patient: { id: number }) => patient.id)).toContain(newest.id);
      expect(await first('-created_at')).toBe(newest.id);
      const byCreation = (await send(adminToken, 'GET', '/api/patients?sort=created_at&limit=100')).json();
      const stamps = byCreation.data.map((patient: { created_at: string }) => patient.created_at);
      expect(stamps).toEqual([...stamps].sort());
    });

    it.each([
      ['name', 'a search', '&search=seekwell'],
      ['-name', 'a search', '&search=seekwell'],
      ['name', 'the whole list', ''],
      ['-name', 'the whole list with a status', '&status=active'],
    ])(
      'answers the pages in %s order of %s after each next_cursor as by their numbers',
      async (sort, _what, query) => {
        // Namesakes (the id decides between them) and a comma in a name, which the cursor also holds.
        const names = [
          'Seekwell, Ann',
          'Seekwell, Ann',
          'Seekwell, Ann',
          'Seekwell Bo',
          'Seekwell Bo',
          'Seekwell Cy',
        ];
        const added = await db()
          .insert(patients)
          .values(names.map((name, index) => ({ clinicId, name, phone: `555 61${index}`, status: 'active' })))
          .returning({ id: patients.id });
        try {
          const pageOf = async (page: number, after?: string) =>
            (
              await send(
                adminToken,
                'GET',
                `/api/patients?sort=${sort}${query}&limit=2&page=${page}${after ? `&after=${encodeURIComponent(after)}` : ''}`,
              )
            ).json();
          const pages = await expectSeekingAsNumbered(
            pageOf,
            2,
            (row: { id: number; name: string }) => `${row.id},${row.name}`,
          );
          expect(pages).toBeGreaterThan(2);
        } finally {
          await db()
            .delete(patients)
            .where(
              and(
                eq(patients.clinicId, clinicId),
                inArray(
                  patients.id,
                  added.map((row) => row.id),
                ),
              ),
            );
        }
      },
    );

    it('answers no next_cursor in an order that cannot seek', async () => {
      const page = (await send(adminToken, 'GET', '/api/patients?sort=created_at&limit=2')).json();
      expect(page.data).toHaveLength(2);
      expect(page).not.toHaveProperty('next_cursor');
    });

    it('pages, and a page past the end is empty with the total', async () => {
      const first = (await send(adminToken, 'GET', '/api/patients?limit=5')).json();
      const second = (await send(adminToken, 'GET', '/api/patients?limit=5&page=2')).json();
      expect(first.data).toHaveLength(5);
      expect(second.data[0].id).not.toBe(first.data[0].id);
      const all = (await send(adminToken, 'GET', '/api/patients?limit=100')).json();
      const past = (await send(adminToken, 'GET', '/api/patients?page=9999')).json();
      // The first page of 5 counts ten pages (50); past the end, the whole list is counted.
      expect(first).toMatchObject({ total: 50, total_capped: true });
      expect(past).toMatchObject({ data: [], page: 9999, total: all.total, total_capped: false });
      expect(all.total).toBeGreaterThan(50);
    });

    it.each([
      ['limit=101', 'limit'],
      ['page=0', 'page'],
      ['status=gone', 'status'],
      ['sort=phone', 'sort'],
      ['after=Ann', 'after'],
      ['after=0,Ann', 'after'],
      ['sort=created_at&after=12,Ann', 'after'],
    ])('refuses %s with 400 naming %s', async (query, field) => {
      const response = await send(adminToken, 'GET', `/api/patients?${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0].field).toBe(field);
    });
  });

  describe('roles and clinics', () => {
    it('answers 401 without a token, whatever the body', async () => {
      expect((await send(null, 'GET', '/api/patients')).statusCode).toBe(401);
      expect((await send(null, 'POST', '/api/patients', { name: 1 })).statusCode).toBe(401);
      expect((await send('garbage', 'GET', '/api/patients/1')).statusCode).toBe(401);
    });

    it('lets all three roles read and write', async () => {
      for (const token of [adminToken, receptionistToken, dentistToken]) {
        expect((await send(token, 'GET', '/api/patients')).statusCode).toBe(200);
        const created = await createPatient({}, token);
        expect((await send(token, 'GET', `/api/patients/${created.id}`)).statusCode).toBe(200);
        expect((await send(token, 'GET', `/api/patients/${created.id}/appointments`)).statusCode).toBe(200);
        const updated = await send(
          token,
          'PUT',
          `/api/patients/${created.id}`,
          newPatient({ name: 'Role Edit' }),
        );
        expect(updated.statusCode).toBe(200);
        expect(updated.json().name).toBe('Role Edit');
        expect((await send(token, 'DELETE', `/api/patients/${created.id}`)).statusCode).toBe(200);
        expect(await patientRow(created.id)).toBeUndefined();
      }
    });

    it('answers 401 for every endpoint without a token', async () => {
      const created = await createPatient();
      for (const [method, url] of [
        ['GET', `/api/patients/${created.id}`],
        ['GET', `/api/patients/${created.id}/appointments`],
        ['PUT', `/api/patients/${created.id}`],
        ['DELETE', `/api/patients/${created.id}`],
      ] as const) {
        const response = await send(null, method, url, method === 'PUT' ? { bad: true } : undefined);
        expect(response.statusCode).toBe(401);
      }
      expect(await patientRow(created.id)).toBeDefined();
    });

    it("never shows, changes or deletes another clinic's patient", async () => {
      const created = await createPatient();
      const before = await patientRow(created.id);
      const foreign = [
        await send(harborToken, 'GET', `/api/patients/${created.id}`),
        await send(harborToken, 'GET', `/api/patients/${created.id}/appointments`),
        await send(harborToken, 'PUT', `/api/patients/${created.id}`, newPatient({ name: 'Hijacked' })),
        await send(harborToken, 'DELETE', `/api/patients/${created.id}`),
      ];
      for (const response of foreign) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ message: 'Patient not found' });
      }
      expect(await patientRow(created.id)).toEqual(before);
      const audits = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'patient'), eq(auditLog.entityId, String(created.id))));
      expect(audits.map((row) => row.action)).toEqual(['create']);
    });

    it("lists and searches only the clinic's own patients", async () => {
      const created = await createPatient({ name: 'Bright Only Patient' });
      const harbor = (await send(harborToken, 'GET', '/api/patients?search=bright%20only')).json();
      expect(harbor.total).toBe(0);
      const own = (await send(adminToken, 'GET', '/api/patients?search=bright%20only')).json();
      expect(own.data.map((patient: { id: number }) => patient.id)).toEqual([created.id]);
    });
  });
});
