import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { addDays, isoWeekday } from '../../db/clinicTime';
import { appointments, auditLog, availability, dentists, patients } from '../../db/schema';
import {
  APPOINTMENT_WIRE_KEYS,
  apiSender,
  authHeader,
  expectSeekingAsNumbered,
  login,
  openDemoClinic,
} from '../../test/testApp';

interface Row {
  patient: string;
  dentist_name: string;
  status: string;
  created_at: string;
}

describe('appointments API', () => {
  let app: FastifyInstance;
  let adminToken: string;
  let receptionistToken: string;
  let dentistToken: string;
  let harborToken: string;
  let clinicId: number;
  let harborClinicId: number;
  let dentistId: number;
  let dentistName: string;
  let otherDentistId: number;
  let harborDentistId: number;
  let today: string;
  /**
   * Each booking gets its own future weekday (the demo dentists' working days), so tests never
   * collide with each other or the demo data.
   */
  let dayOffset = 300;
  const nextDay = () => {
    do dayOffset += 1;
    while (isoWeekday(addDays(today, dayOffset)) > 5);
    return addDays(today, dayOffset);
  };

  const db = () => app.database.db;
  const send = apiSender(() => app);
  /**
   * Tests book early and late times to stay clear of the demo clinic's visits: outside the demo
   * dentists' hours (09:00-17:00), so booked as outside open hours unless the test says otherwise.
   */
  const offHours = (time: unknown) =>
    typeof time === 'string' && (time < '09:00' || time > '16:00')
      ? { outside_hours: true, outside_hours_reason: 'Seen outside open hours' }
      : {};
  const booking = (overrides: Record<string, unknown> = {}) => ({
    ...offHours(overrides.time),
    patient: 'Morgan Bookwell',
    phone: '+1 555 123 4567',
    date: nextDay(),
    time: '10:00',
    dentist_id: dentistId,
    treatment: 'Dental Checkup',
    notes: 'First visit',
    ...overrides,
  });
  const book = async (overrides: Record<string, unknown> = {}, token = adminToken) => {
    const response = await send(token, 'POST', '/api/appointments', booking(overrides));
    expect(response.statusCode).toBe(201);
    return response.json() as {
      id: number;
      patient_id: number;
      date: string;
      time: string;
      status: string;
      dentist_id: number;
    };
  };
  const appointmentRow = async (id: number) => {
    const [row] = await db().select().from(appointments).where(eq(appointments.id, id));
    return row;
  };
  const countRows = async () => (await db().select({ id: appointments.id }).from(appointments)).length;
  const countPatients = async () => (await db().select({ id: patients.id }).from(patients)).length;
  const addAvailability = async (date: string, forDentist = dentistId) => {
    const [row] = await db()
      .insert(availability)
      .values({
        clinicId,
        dentistId: forDentist,
        date,
        timeSlots: [
          { start: '09:00', end: '10:00', available: true },
          { start: '10:00', end: '11:00', available: true },
        ],
      })
      .returning({ id: availability.id });
    if (!row) throw new Error('no availability row');
    return row.id;
  };
  const slotsOf = async (id: number) => {
    const [row] = await db().select().from(availability).where(eq(availability.id, id));
    return row?.timeSlots.map((slot) => `${slot.start} ${slot.available ? 'available' : 'booked'}`);
  };

  beforeAll(async () => {
    const clinic = await openDemoClinic();
    ({ app, adminToken, receptionistToken, clinicId, today } = clinic);
    dentistId = clinic.dentists[0]?.id ?? 0;
    dentistName = clinic.dentists[0]?.name ?? '';
    otherDentistId = clinic.dentists[1]?.id ?? 0;
    dentistToken = (await login(app, 'dentist', 'dentist123')).token;
    const harbor = await login(app, 'harbor.admin', 'harbor123');
    harborToken = harbor.token;
    harborClinicId = harbor.user.clinic_id;
    const [foreign] = await db()
      .select({ id: dentists.id })
      .from(dentists)
      .where(eq(dentists.clinicId, harborClinicId));
    harborDentistId = foreign?.id ?? 0;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  }, 60_000);

  describe('booking', () => {
    it('creates a pending appointment whatever the body says, with the wire fields of docs/product.md, Records and their fields', async () => {
      const body = booking({ status: 'confirmed', id: 424242, dentist_name: 'Someone Else' });
      const response = await send(receptionistToken, 'POST', '/api/appointments', body);
      expect(response.statusCode).toBe(201);
      const created = response.json();
      expect(created).toMatchObject({
        patient: 'Morgan Bookwell',
        phone: '+1 555 123 4567',
        dentist_id: dentistId,
        dentist_name: dentistName,
        date: body.date,
        time: '10:00',
        treatment: 'Dental Checkup',
        status: 'pending',
        notes: 'First visit',
      });
      expect(Object.keys(created).sort()).toEqual(APPOINTMENT_WIRE_KEYS);
      expect(created.id).not.toBe(424242);
      expect(created.created_at).toMatch(/Z$/);
      expect((await send(dentistToken, 'GET', `/api/appointments/${created.id}`)).json()).toEqual(created);
    });

    it('finds the patient by name and phone, or creates one', async () => {
      const first = await book({ patient: 'Harper Lindqvist', phone: '555-777-1212' });
      const again = await book({ patient: 'harper LINDQVIST', phone: '(555) 777 1212' });
      expect(again.patient_id).toBe(first.patient_id);
      const namesake = await book({ patient: 'Harper Lindqvist', phone: '555-777-9999' });
      expect(namesake.patient_id).not.toBe(first.patient_id);
      const [patient] = await db().select().from(patients).where(eq(patients.id, first.patient_id));
      expect(patient).toMatchObject({ clinicId, status: 'active', phone: '555-777-1212' });
    });

    it('books for an existing patient by patient_id', async () => {
      const first = await book({ patient: 'Ira Patientid', phone: '555 100 2000' });
      const linked = await book({
        patient_id: first.patient_id,
        patient: 'Ira Patientid',
        phone: '555 100 2000',
      });
      expect(linked.patient_id).toBe(first.patient_id);
      const missing = await send(adminToken, 'POST', '/api/appointments', booking({ patient_id: 999999 }));
      expect(missing.statusCode).toBe(400);
      expect(missing.json().errors[0].field).toBe('patient_id');
    });

    it('writes an audit record', async () => {
      const created = await book();
      const rows = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'appointment'), eq(auditLog.entityId, String(created.id))));
      expect(rows.map((row) => row.action)).toEqual(['create']);
    });
  });

  describe('validation', () => {
    it.each([
      ['patient', { patient: '' }],
      ['patient', { patient: undefined }],
      ['phone', { phone: 'no phone' }],
      ['date', { date: '2026-02-30' }],
      ['date', { date: '30/01/2027' }],
      ['time', { time: '24:00' }],
      ['time', { time: '9:00' }],
      ['dentist_id', { dentist_id: 'abc' }],
      ['dentist_id', { dentist_id: -4 }],
      ['treatment', { treatment: 'Whitening' }],
      ['notes', { notes: 'x'.repeat(1001) }],
      ['status', { status: 'done' }],
      ['colour', { colour: 'blue' }],
    ])('refuses a bad %s with 400 naming it, and stores nothing', async (field, overrides) => {
      const [rows, people] = [await countRows(), await countPatients()];
      const response = await send(adminToken, 'POST', '/api/appointments', booking(overrides));
      expect(response.statusCode).toBe(400);
      expect(response.json().errors.map((error: { field: string }) => error.field)).toContain(field);
      expect(await countRows()).toBe(rows);
      expect(await countPatients()).toBe(people);
    });

    it('refuses a NUL character naming its field, and a body that is not JSON naming the body', async () => {
      const [rows, people] = [await countRows(), await countPatients()];
      const nul = await send(adminToken, 'POST', '/api/appointments', booking({ notes: 'a\u0000b' }));
      expect(nul.statusCode).toBe(400);
      expect(nul.json().errors).toEqual([{ field: 'notes', message: expect.any(String) }]);
      const search = await send(adminToken, 'GET', '/api/appointments?search=a%00b');
      expect(search.statusCode).toBe(400);
      expect(search.json().errors[0].field).toBe('query.search');
      for (const payload of ['{"patient": ', '']) {
        const broken = await app.inject({
          method: 'POST',
          url: '/api/appointments',
          headers: { ...authHeader(adminToken), 'content-type': 'application/json' },
          payload,
        });
        expect(broken.statusCode).toBe(400);
        expect(broken.json()).toEqual({
          message: expect.any(String),
          errors: [{ field: 'body', message: expect.any(String) }],
        });
      }
      expect(await countRows()).toBe(rows);
      expect(await countPatients()).toBe(people);
    });

    it('refuses a day that has passed', async () => {
      const response = await send(
        adminToken,
        'POST',
        '/api/appointments',
        booking({ date: addDays(today, -1) }),
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0].field).toBe('date');
    });

    it('refuses an inactive dentist and a dentist of another clinic', async () => {
      const [inactive] = await db()
        .insert(dentists)
        .values({
          clinicId,
          name: 'Dr. Ina Active',
          email: 'ina.active@example.com',
          phone: '555 000 1111',
          specialty: 'Orthodontics',
          license: 'INACTIVE-1',
          status: 'inactive',
        })
        .returning({ id: dentists.id });
      for (const id of [inactive?.id, harborDentistId, 999999]) {
        const response = await send(adminToken, 'POST', '/api/appointments', booking({ dentist_id: id }));
        expect(response.statusCode).toBe(400);
        expect(response.json().errors).toEqual([
          { field: 'dentist_id', message: 'No active dentist with this id in your clinic' },
        ]);
      }
    });
  });

  describe('double booking', () => {
    it('refuses a second appointment at the same time (409 naming the clash) and leaves nothing behind', async () => {
      const date = nextDay();
      await book({ date, time: '11:00' });
      const [rows, people] = [await countRows(), await countPatients()];
      const clash = await send(
        adminToken,
        'POST',
        '/api/appointments',
        booking({ date, time: '11:00', patient: 'Brand New Person', phone: '555 404 4040' }),
      );
      expect(clash.statusCode).toBe(409);
      expect(clash.json().message).toBe(
        `${dentistName} already has an appointment on ${date} at 11:00–11:30 (Morgan Bookwell)`,
      );
      expect(await countRows()).toBe(rows);
      expect(await countPatients()).toBe(people);
      // Another dentist at that time is fine, for another patient.
      await book({
        date,
        time: '11:00',
        dentist_id: otherDentistId,
        patient: 'Brand New Person',
        phone: '555 404 4040',
      });
    });

    it('lets exactly one of two racing requests win', async () => {
      const date = nextDay();
      const [one, two] = await Promise.all([
        send(adminToken, 'POST', '/api/appointments', booking({ date, time: '12:00', patient: 'Racer One' })),
        send(
          receptionistToken,
          'POST',
          '/api/appointments',
          booking({ date, time: '12:00', patient: 'Racer Two' }),
        ),
      ]);
      expect([one.statusCode, two.statusCode].sort()).toEqual([201, 409]);
      const rows = await db()
        .select()
        .from(appointments)
        .where(and(eq(appointments.date, date), eq(appointments.dentistId, dentistId)));
      expect(rows).toHaveLength(1);
    });

    it('a cancelled appointment frees the time; leaving cancelled while it is taken is refused', async () => {
      const date = nextDay();
      const first = await book({ date, time: '13:00' });
      const cancelled = await send(adminToken, 'PATCH', `/api/appointments/${first.id}/status`, {
        status: 'cancelled',
      });
      expect(cancelled.statusCode).toBe(200);
      expect(cancelled.json().status).toBe('cancelled');
      await book({ date, time: '13:00', patient: 'Second Patient' });
      const revived = await send(adminToken, 'PATCH', `/api/appointments/${first.id}/status`, {
        status: 'pending',
      });
      expect(revived.statusCode).toBe(409);
      expect((await appointmentRow(first.id))?.status).toBe('cancelled');
    });

    it('refuses moving an appointment onto a taken time', async () => {
      const date = nextDay();
      await book({ date, time: '14:00' });
      const mover = await book({ date, time: '15:00', patient: 'Mover' });
      const moved = await send(
        adminToken,
        'PUT',
        `/api/appointments/${mover.id}`,
        booking({ date, time: '14:00', patient: 'Mover' }),
      );
      expect(moved.statusCode).toBe(409);
      expect((await appointmentRow(mover.id))?.time).toBe('15:00');
    });
  });

  describe('availability slots', () => {
    it('books the slot it falls in, and frees it on cancel and on delete', async () => {
      const date = nextDay();
      const day = await addAvailability(date);
      const created = await book({ date, time: '09:30' });
      expect(await slotsOf(day)).toEqual(['09:00 booked', '10:00 available']);

      await send(adminToken, 'PATCH', `/api/appointments/${created.id}/status`, { status: 'cancelled' });
      expect(await slotsOf(day)).toEqual(['09:00 available', '10:00 available']);
      await send(adminToken, 'PATCH', `/api/appointments/${created.id}/status`, { status: 'confirmed' });
      expect(await slotsOf(day)).toEqual(['09:00 booked', '10:00 available']);

      const deleted = await send(adminToken, 'DELETE', `/api/appointments/${created.id}`);
      expect(deleted.statusCode).toBe(200);
      expect(await slotsOf(day)).toEqual(['09:00 available', '10:00 available']);
    });

    it('moves the booking with the appointment', async () => {
      const date = nextDay();
      const day = await addAvailability(date);
      const created = await book({ date, time: '09:00' });
      const moved = await send(
        adminToken,
        'PUT',
        `/api/appointments/${created.id}`,
        booking({ date, time: '10:15' }),
      );
      expect(moved.statusCode).toBe(200);
      expect(await slotsOf(day)).toEqual(['09:00 available', '10:00 booked']);
    });

    it('books without any availability', async () => {
      const created = await book({ date: nextDay(), time: '16:30' });
      expect(created.status).toBe('pending');
    });
  });

  describe('edit, status and delete', () => {
    it('edits every field, keeps the status when absent, and a PUT of what GET answered succeeds', async () => {
      const created = await book();
      const newDate = nextDay();
      const edited = await send(
        adminToken,
        'PUT',
        `/api/appointments/${created.id}`,
        booking({
          date: newDate,
          time: '16:45',
          treatment: 'Root Canal',
          notes: null,
          dentist_id: otherDentistId,
        }),
      );
      expect(edited.statusCode).toBe(200);
      expect(edited.json()).toMatchObject({
        date: newDate,
        time: '16:45',
        treatment: 'Root Canal',
        notes: null,
        dentist_id: otherDentistId,
        status: 'pending',
      });
      const fetched = (await send(adminToken, 'GET', `/api/appointments/${created.id}`)).json();
      const again = await send(adminToken, 'PUT', `/api/appointments/${created.id}`, fetched);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ date: newDate, time: '16:45' });
    });

    it('keeps a date that has passed on edit, but refuses moving to one', async () => {
      const created = await book({ time: '06:05' });
      const past = addDays(today, -3);
      await db().update(appointments).set({ date: past }).where(eq(appointments.id, created.id));
      const kept = await send(
        adminToken,
        'PUT',
        `/api/appointments/${created.id}`,
        booking({ date: past, time: '06:05', notes: 'Seen' }),
      );
      expect(kept.statusCode).toBe(200);
      expect(kept.json()).toMatchObject({ date: past, notes: 'Seen' });
      const moved = await send(
        adminToken,
        'PUT',
        `/api/appointments/${created.id}`,
        booking({ date: addDays(today, -2), time: '06:05' }),
      );
      expect(moved.statusCode).toBe(400);
      expect(moved.json().errors[0].field).toBe('date');
      expect((await appointmentRow(created.id))?.date).toBe(past);
    });

    it('audits edits, status changes and deletes with patient, status, date and time', async () => {
      const created = await book({ patient: 'Audit Trail', phone: '555 600 7000', time: '11:40' });
      await send(adminToken, 'PUT', `/api/appointments/${created.id}`, {
        ...booking({ patient: 'Audit Trail', phone: '555 600 7000', date: created.date, time: '11:50' }),
      });
      await send(adminToken, 'PATCH', `/api/appointments/${created.id}/status`, { status: 'confirmed' });
      await send(adminToken, 'DELETE', `/api/appointments/${created.id}`);
      const rows = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'appointment'), eq(auditLog.entityId, String(created.id))))
        .orderBy(auditLog.id);
      expect(rows.map((row) => [row.action, row.clinicId])).toEqual([
        ['create', clinicId],
        ['update', clinicId],
        ['status_change', clinicId],
        ['delete', clinicId],
      ]);
      for (const row of rows) {
        expect(row.details).toMatchObject({ patient: 'Audit Trail', date: created.date });
      }
      expect(rows.map((row) => (row.details as { status: string }).status)).toEqual([
        'pending',
        'pending',
        'confirmed',
        'confirmed',
      ]);
      expect(rows.map((row) => (row.details as { time: string }).time)).toEqual([
        '11:40',
        '11:50',
        '11:50',
        '11:50',
      ]);
    });

    it('sets each of the four statuses and refuses any other', async () => {
      // A visit of today: it may be marked completed.
      const created = await book({ date: today, time: '07:10' });
      for (const status of ['confirmed', 'completed', 'cancelled', 'pending']) {
        const response = await send(dentistToken, 'PATCH', `/api/appointments/${created.id}/status`, {
          status,
        });
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({ id: created.id, status });
      }
      const bad = await send(adminToken, 'PATCH', `/api/appointments/${created.id}/status`, {
        status: 'done',
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors[0].field).toBe('status');
      const audit = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'appointment'), eq(auditLog.entityId, String(created.id))));
      expect(audit.filter((row) => row.action === 'status_change')).toHaveLength(4);
    });

    it('marks a visit completed only from its day on, by PATCH or PUT; nothing changes otherwise', async () => {
      const created = await book();
      const early = await send(receptionistToken, 'PATCH', `/api/appointments/${created.id}/status`, {
        status: 'completed',
      });
      expect(early.statusCode).toBe(400);
      expect(early.json().errors).toEqual([
        { field: 'status', message: 'A visit can be marked completed only from its day on' },
      ]);
      const viaPut = await send(receptionistToken, 'PUT', `/api/appointments/${created.id}`, {
        ...booking({ date: created.date, time: created.time }),
        status: 'completed',
      });
      expect(viaPut.statusCode).toBe(400);
      expect((await appointmentRow(created.id))?.status).toBe('pending');
    });

    it('deletes, then answers 404', async () => {
      const created = await book();
      expect((await send(receptionistToken, 'DELETE', `/api/appointments/${created.id}`)).statusCode).toBe(
        200,
      );
      expect(await appointmentRow(created.id)).toBeUndefined();
      expect((await send(adminToken, 'GET', `/api/appointments/${created.id}`)).statusCode).toBe(404);
      expect((await send(adminToken, 'DELETE', `/api/appointments/${created.id}`)).statusCode).toBe(404);
      expect(
        (await send(adminToken, 'PATCH', `/api/appointments/${created.id}/status`, { status: 'confirmed' }))
          .statusCode,
      ).toBe(404);
    });
  });

  describe('list', () => {
    it('answers a page in date and time order with the total', async () => {
      const response = await send(adminToken, 'GET', '/api/appointments?limit=50');
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({ page: 1, limit: 50 });
      expect(body.total).toBeGreaterThan(10);
      const keys = body.data.map((row: { date: string; time: string }) => `${row.date} ${row.time}`);
      expect(keys).toEqual([...keys].sort());
      const newest = (await send(adminToken, 'GET', '/api/appointments?sort=-date&limit=5')).json();
      const newestKeys = newest.data.map((row: { date: string; time: string }) => `${row.date} ${row.time}`);
      expect(newestKeys).toEqual([...newestKeys].sort().reverse());
    });

    it('filters by status, dentist, patient and date', async () => {
      const date = nextDay();
      const mine = await book({ date, time: '08:00', patient: 'Filter Target', phone: '555 808 0808' });
      await send(adminToken, 'PATCH', `/api/appointments/${mine.id}/status`, { status: 'confirmed' });
      const filtered = (
        await send(
          adminToken,
          'GET',
          `/api/appointments?status=confirmed&dentist_id=${dentistId}&date=${date}`,
        )
      ).json();
      expect(filtered.data.map((row: { id: number }) => row.id)).toEqual([mine.id]);
      const byPatient = (
        await send(adminToken, 'GET', `/api/appointments?patient_id=${mine.patient_id}`)
      ).json();
      expect(byPatient.data.map((row: { id: number }) => row.id)).toEqual([mine.id]);
      const range = (
        await send(adminToken, 'GET', `/api/appointments?from=${date}&to=${date}&limit=100`)
      ).json();
      expect(range.data.every((row: { date: string }) => row.date === date)).toBe(true);
      const pending = (await send(adminToken, 'GET', '/api/appointments?status=pending&limit=100')).json();
      expect(pending.data.every((row: { status: string }) => row.status === 'pending')).toBe(true);
    });

    it('searches patient name and phone, dentist name and treatment', async () => {
      const date = nextDay();
      const mine = await book({
        date,
        time: '08:20',
        patient: 'Zebulon Quarternary',
        phone: '555 321 9876',
        treatment: 'Tooth Extraction',
      });
      for (const term of ['quartern', '321 98']) {
        const found = (
          await send(adminToken, 'GET', `/api/appointments?search=${encodeURIComponent(term)}`)
        ).json();
        expect(found.data.map((row: { id: number }) => row.id)).toEqual([mine.id]);
      }
      const byTreatment = (
        await send(adminToken, 'GET', `/api/appointments?search=extraction&date=${date}`)
      ).json();
      expect(byTreatment.data.map((row: { id: number }) => row.id)).toEqual([mine.id]);
      const surname = dentistName.split(' ').pop() ?? '';
      const byDentist = (
        await send(adminToken, 'GET', `/api/appointments?search=${encodeURIComponent(surname)}&date=${date}`)
      ).json();
      expect(byDentist.data.map((row: { id: number }) => row.id)).toEqual([mine.id]);
      expect((await send(harborToken, 'GET', '/api/appointments?search=quartern')).json().total).toBe(0);
    });

    it('searches with short terms, escapes % and _, and with a term naming many patients', async () => {
      const date = nextDay();
      const mine = await book({ date, time: '08:40', patient: 'Quinta Xylander', phone: '555 246 8024' });
      const shortTerm = (await send(adminToken, 'GET', `/api/appointments?search=xy&date=${date}`)).json();
      expect(shortTerm.data.map((row: { id: number }) => row.id)).toEqual([mine.id]);
      // Punctuation separates words, so it is never a wildcard; a word matches from its start only.
      for (const term of ['%', '_', 'X_lander', 'ylander']) {
        const none = await send(adminToken, 'GET', `/api/appointments?search=${encodeURIComponent(term)}`);
        expect(none.statusCode).toBe(200);
        expect(none.json()).toMatchObject({ data: [], total: 0 });
      }
      const punctuated = (
        await send(adminToken, 'GET', `/api/appointments?search=Xyl%25&date=${date}`)
      ).json();
      expect(punctuated.data.map((row: { id: number }) => row.id)).toEqual([mine.id]);
      // A name many patients share.
      await db()
        .insert(patients)
        .values(
          Array.from({ length: 1001 }, (_, index) => ({
            clinicId,
            name: `Crowded Namesake ${index}`,
            phone: `555 ${String(index).padStart(4, '0')}`,
            status: 'active',
          })),
        );
      const crowded = await book({ date, time: '08:10', patient: 'Crowded Namesake 7', phone: '555 0007' });
      const many = (
        await send(adminToken, 'GET', `/api/appointments?search=crowded%20namesake&dentist_id=${dentistId}`)
      ).json();
      expect(many).toMatchObject({ total: 1 });
      expect(many.data.map((row: { id: number; patient_id: number }) => row.id)).toEqual([crowded.id]);
      const wide = (
        await send(adminToken, 'GET', '/api/appointments?search=crowded%20namesake&status=pending')
      ).json();
      expect(wide.data.map((row: { id: number }) => row.id)).toEqual([crowded.id]);
      expect(wide.total).toBe(1);
      const none = (await send(adminToken, 'GET', `/api/appointments?search=crowded%20namesake%209`)).json();
      expect(none.total).toBe(0);
    });

    it("finds an appointment by its patient's words as they are now: renamed, another patient, moved, deleted", async () => {
      const date = nextDay();
      const created = await book({
        date,
        time: '09:20',
        patient: 'Ottoline Wexbridge',
        phone: '555 414 1414',
      });
      const idsFor = async (term: string, filters = '') =>
        (await send(adminToken, 'GET', `/api/appointments?search=${encodeURIComponent(term)}${filters}`))
          .json()
          .data.map((row: { id: number }) => row.id);
      for (const term of ['wex', 'ot wexb', 'wexbridge otto'])
        expect([term, await idsFor(term)]).toEqual([term, [created.id]]);
      expect(await idsFor('we', `&date=${date}`)).toEqual([created.id]);
      const patient = (status: string) => ({
        name: 'Ottoline Yarrowfield',
        email: 'oy@example.org',
        phone: '555 414 1414',
        dateOfBirth: '1980-02-03',
        address: '1 Elm Court',
        emergencyContact: 'Sam Yarrowfield, 555 0101',
        medicalHistory: 'None',
        status,
      });
      const rename = await send(adminToken, 'PUT', `/api/patients/${created.patient_id}`, patient('active'));
      expect(rename.statusCode).toBe(200);
      expect(await idsFor('wex')).toEqual([]);
      expect(await idsFor('yarrowf ot')).toEqual([created.id]);
      // A change of the patient's status leaves their words as they were.
      await send(adminToken, 'PUT', `/api/patients/${created.patient_id}`, patient('inactive'));
      expect(await idsFor('yarrowf')).toEqual([created.id]);
      const other = nextDay();
      const moved = await send(
        adminToken,
        'PUT',
        `/api/appointments/${created.id}`,
        booking({ date: other, time: '09:40', patient: 'Ulrika Vanterpool', phone: '555 515 1515' }),
      );
      expect(moved.statusCode).toBe(200);
      expect(await idsFor('yarrowf')).toEqual([]);
      expect(await idsFor('vanterp')).toEqual([created.id]);
      expect(await idsFor('vanterp', `&date=${date}`)).toEqual([]);
      expect(await idsFor('vanterp', `&date=${other}&status=pending&dentist_id=${dentistId}`)).toEqual([
        created.id,
      ]);
      await send(adminToken, 'PATCH', `/api/appointments/${created.id}/status`, { status: 'confirmed' });
      expect(await idsFor('vanterp', '&status=pending')).toEqual([]);
      expect(await idsFor('vanterp', '&status=confirmed')).toEqual([created.id]);
      expect((await send(adminToken, 'DELETE', `/api/appointments/${created.id}`)).statusCode).toBe(200);
      expect(await idsFor('vanterp')).toEqual([]);
    });

    it("answers the patient's name and phone as they are now, wherever an appointment is answered", async () => {
      const date = nextDay();
      const created = await book({
        date,
        time: '11:20',
        patient: 'Perpetua Quillfeather',
        phone: '555 616 1616',
      });
      const [year, month] = date.split('-').map(Number);
      /** The appointment as GET by id, the list by date and by patient, the month and the patient's history answer it. */
      const answers = async () => {
        const urls = [
          `/api/appointments?date=${date}`,
          `/api/appointments?date=${date}&sort=patient`,
          `/api/calendar/appointments?month=${month}&year=${year}&dentist_id=${dentistId}`,
          `/api/patients/${(await appointmentRow(created.id))?.patientId}/appointments`,
        ];
        const rows: Array<{ id: number; patient: string; phone: string }> = [
          (await send(adminToken, 'GET', `/api/appointments/${created.id}`)).json(),
        ];
        for (const url of urls) rows.push(...(await send(adminToken, 'GET', url)).json().data);
        return rows.filter((row) => row.id === created.id).map((row) => `${row.patient} ${row.phone}`);
      };
      expect(await answers()).toEqual(Array(5).fill('Perpetua Quillfeather 555 616 1616'));
      const renamed = await send(adminToken, 'PUT', `/api/patients/${created.patient_id}`, {
        name: 'Perpetua Rowanmere',
        email: 'pr@example.org',
        phone: '555 717 1717',
        dateOfBirth: '1975-06-07',
        address: '2 Elm Court',
        emergencyContact: 'Sam Rowanmere, 555 0102',
        medicalHistory: 'None',
        status: 'active',
      });
      expect(renamed.statusCode).toBe(200);
      expect(await answers()).toEqual(Array(5).fill('Perpetua Rowanmere 555 717 1717'));
      const given = await send(
        adminToken,
        'PUT',
        `/api/appointments/${created.id}`,
        booking({ date, time: '11:20', patient: 'Thaddeus Umberwell', phone: '555 818 2020' }),
      );
      expect(given.statusCode).toBe(200);
      expect(await answers()).toEqual(Array(5).fill('Thaddeus Umberwell 555 818 2020'));
      // Written beside the API (an import), the copy is still the patient's own.
      const [imported] = await db()
        .insert(appointments)
        .values({
          clinicId,
          patientId: created.patient_id,
          dentistId,
          date: nextDay(),
          time: '07:00',
          treatment: 'Dental Checkup',
          patientName: 'Someone Else',
          patientPhone: '000',
        })
        .returning({ patientName: appointments.patientName, patientPhone: appointments.patientPhone });
      expect(imported).toEqual({ patientName: 'Perpetua Rowanmere', patientPhone: '555 717 1717' });
    });

    it("answers each appointment's dentist by the name the dentist has now, however often it is asked", async () => {
      const date = nextDay();
      const mine = await book({ date, time: '13:00' });
      const theirs = await book({
        date,
        time: '13:20',
        dentist_id: otherDentistId,
        patient: 'Other Chair',
        phone: '555 132 0132',
      });
      const [year, month] = date.split('-').map(Number);
      const other = (await send(adminToken, 'GET', `/api/dentists/${otherDentistId}`)).json();
      /**
       * The day's two visits in the whole month, in the day's list, and (one dentist's, whose name is
       * read once for all their rows) in the other dentist's month and own list, as `time dentist`.
       */
      const names = async () => {
        const urls = [
          `/api/calendar/appointments?month=${month}&year=${year}`,
          `/api/appointments?date=${date}`,
          `/api/calendar/appointments?month=${month}&year=${year}&dentist_id=${otherDentistId}`,
          `/api/dentists/${otherDentistId}/appointments?date=${date}`,
        ];
        const rows: Array<{ id: number; time: string; dentist_name: string }> = [];
        for (const url of urls) rows.push(...(await send(adminToken, 'GET', url)).json().data);
        return rows
          .filter((row) => row.id === mine.id || row.id === theirs.id)
          .map((row) => `${row.time} ${row.dentist_name}`);
      };
      // More often than PostgreSQL plans a prepared statement with its values before it keeps a
      // generic plan.
      for (let asked = 0; asked < 7; asked++)
        expect(await names()).toEqual([
          `13:00 ${dentistName}`,
          `13:20 ${other.name}`,
          `13:00 ${dentistName}`,
          `13:20 ${other.name}`,
          `13:20 ${other.name}`,
          `13:20 ${other.name}`,
        ]);
      const renamed = await send(adminToken, 'PUT', `/api/dentists/${otherDentistId}`, {
        ...other,
        name: 'Dr. Wilhelmina Thistlewood',
      });
      expect(renamed.statusCode).toBe(200);
      try {
        for (let asked = 0; asked < 7; asked++)
          expect(await names()).toEqual([
            `13:00 ${dentistName}`,
            '13:20 Dr. Wilhelmina Thistlewood',
            `13:00 ${dentistName}`,
            '13:20 Dr. Wilhelmina Thistlewood',
            '13:20 Dr. Wilhelmina Thistlewood',
            '13:20 Dr. Wilhelmina Thistlewood',
          ]);
      } finally {
        await send(adminToken, 'PUT', `/api/dentists/${otherDentistId}`, other);
      }
    });

    /**
     * `count` cancelled visits of a patient written straight to the table (as an import would), one a
     * day from `firstDay` days ahead, each with the dentist `dentistOf` gives its position.
     */
    const insertCancelledVisits = async (
      patientId: number,
      firstDay: number,
      count: number,
      dentistOf: (index: number) => number,
    ) =>
      db()
        .insert(appointments)
        .values(
          Array.from({ length: count }, (_, index) => ({
            clinicId,
            patientId,
            dentistId: dentistOf(index),
            date: addDays(today, firstDay + index),
            time: '07:00',
            treatment: 'Dental Checkup',
            status: 'cancelled',
          })),
        );
    /** Those visits gone again, so the tests after see the list as it was. */
    const deleteCancelledVisits = async (patientId: number) =>
      db()
        .delete(appointments)
        .where(and(eq(appointments.patientId, patientId), eq(appointments.status, 'cancelled')));

    it('finds the appointments of a bulk insert (an import) by their patient, and forgets them when deleted', async () => {
      const created = await book({ patient: 'Bulkington Importer', phone: '555 818 1818' });
      const first = 2000;
      await insertCancelledVisits(created.patient_id, first, 1001, () => dentistId);
      const list = async (query: string) =>
        (await send(adminToken, 'GET', `/api/appointments?search=bulkington${query}`)).json();
      // Counted up to ten pages past the page asked for.
      expect(await list('')).toMatchObject({ total: 200, total_capped: true });
      expect(await list('&page=10')).toMatchObject({ total: 380, total_capped: true });
      // The patient's 1,001 imported visits and the one booked above, counted whole.
      expect(await list('&limit=100&page=10')).toMatchObject({ total: 1002, total_capped: false });
      const day = addDays(today, first + 500);
      expect(
        (await list(`&date=${day}&status=cancelled`)).data.map((row: { date: string }) => row.date),
      ).toEqual([day]);
      await deleteCancelledVisits(created.patient_id);
      // Another URL: the read cache does not see writes made beside the API.
      expect((await list('&limit=5')).data.map((row: { id: number }) => row.id)).toEqual([created.id]);
    });

    it('pages a search matching a patient and a dentist past its count in date order', async () => {
      const surname = (dentistName.split(' ').pop() ?? '').toLowerCase();
      const created = await book({ patient: `${surname} Alternate`, phone: '555 818 2828' });
      const first = 3000;
      // Day by day, the patient's visits alternate between the matching dentist and another one: the
      // search reads them from two parts (the dentist's and the patient's), merged in date order.
      await insertCancelledVisits(created.patient_id, first, 120, (index) =>
        index % 2 ? dentistId : otherDentistId,
      );
      const range = `&from=${addDays(today, first)}&to=${addDays(today, first + 119)}`;
      const list = async (query: string) =>
        (
          await send(adminToken, 'GET', `/api/appointments?search=${surname.slice(0, 3)}${range}${query}`)
        ).json();
      const days = (page: { data: Array<{ date: string }> }) => page.data.map((row) => row.date);
      const expected = (from: number) =>
        Array.from({ length: 5 }, (_, index) => addDays(today, first + from + index));
      // Five a page: a page counts ten pages past it, fewer than the 120 matches. Each part alone
      // holds more than that, so the count and the page must take the first matches of both.
      const second = await list('&limit=5&page=2');
      expect(second).toMatchObject({ total: 55, total_capped: true });
      expect(days(second)).toEqual(expected(5));
      const ninth = await list('&limit=5&page=9');
      expect(ninth).toMatchObject({ total: 90, total_capped: true });
      expect(days(ninth)).toEqual(expected(40));
      expect(days(await list('&limit=5&page=9&sort=-date'))).toEqual(expected(75).reverse());
      expect(await list('&limit=20')).toMatchObject({ total: 120, total_capped: false });
      await deleteCancelledVisits(created.patient_id);
    });

    it('lists a search matching patients, a dentist and a treatment in date order, each appointment once', async () => {
      const surname = (dentistName.split(' ').pop() ?? '').toLowerCase();
      const term = surname.slice(0, 3);
      const [first, second, third] = [nextDay(), nextDay(), nextDay()];
      const ofDentist = await book({
        date: first,
        time: '07:00',
        patient: 'Plain Person',
        phone: '555 900 0001',
      });
      const ofPatient = await book({
        date: second,
        time: '07:00',
        dentist_id: otherDentistId,
        patient: `Namesake ${surname}`,
        phone: '555 900 0002',
      });
      const ofBoth = await book({
        date: third,
        time: '07:00',
        patient: `${surname} Twice`,
        phone: '555 900 0003',
      });
      const range = `&from=${first}&to=${third}`;
      const list = async (query: string) =>
        (await send(adminToken, 'GET', `/api/appointments?search=${term}${range}${query}`)).json();
      const ascending = await list('');
      expect(ascending.total).toBe(3);
      expect(ascending.data.map((row: { id: number }) => row.id)).toEqual([
        ofDentist.id,
        ofPatient.id,
        ofBoth.id,
      ]);
      expect((await list('&sort=-date')).data.map((row: { id: number }) => row.id)).toEqual([
        ofBoth.id,
        ofPatient.id,
        ofDentist.id,
      ]);
      expect((await list('&limit=1&page=2')).data.map((row: { id: number }) => row.id)).toEqual([
        ofPatient.id,
      ]);
      expect((await list(`&dentist_id=${otherDentistId}`)).data.map((row: { id: number }) => row.id)).toEqual(
        [ofPatient.id],
      );
      const byTreatment = (
        await send(adminToken, 'GET', `/api/appointments?search=root%20can${range}`)
      ).json();
      expect(byTreatment).toMatchObject({ total: 0 });
      await send(adminToken, 'PUT', `/api/appointments/${ofPatient.id}`, {
        ...booking({
          date: second,
          time: '07:00',
          dentist_id: otherDentistId,
          patient: `Namesake ${surname}`,
          phone: '555 900 0002',
          treatment: 'Root Canal',
        }),
      });
      expect(
        (await send(adminToken, 'GET', `/api/appointments?search=can${range}`))
          .json()
          .data.map((row: { id: number }) => row.id),
      ).toEqual([ofPatient.id]);
    });

    it.each([
      ['patient', (row: Row) => row.patient, 1],
      ['-patient', (row: Row) => row.patient, -1],
      ['dentist', (row: Row) => row.dentist_name, 1],
      ['-dentist', (row: Row) => row.dentist_name, -1],
      ['status', (row: Row) => row.status, 1],
      ['-status', (row: Row) => row.status, -1],
      ['created_at', (row: Row) => row.created_at, 1],
      ['-created_at', (row: Row) => row.created_at, -1],
    ])('sorts by %s', async (sort, key, direction) => {
      const response = await send(adminToken, 'GET', `/api/appointments?sort=${sort}&limit=100`);
      expect(response.statusCode).toBe(200);
      const keys = (response.json().data as Row[]).map(key);
      expect(new Set(keys).size).toBeGreaterThan(1);
      for (let index = 1; index < keys.length; index += 1) {
        const [before, after] = [keys[index - 1] ?? '', keys[index] ?? ''];
        // The test databases compare text byte by byte (collation C), as JavaScript does.
        expect(direction * (before < after ? -1 : before > after ? 1 : 0)).toBeLessThanOrEqual(0);
      }
    });

    it.each(['dentist', '-dentist', 'patient', '-patient', '-created_at', 'status'])(
      'pages the %s order as its whole list runs',
      async (sort) => {
        const ids = async (query: string) =>
          (await send(adminToken, 'GET', `/api/appointments?sort=${sort}&${query}`))
            .json()
            .data.map((row: { id: number }) => row.id);
        const whole = await ids('limit=30');
        expect(whole).toHaveLength(30);
        const paged: number[] = [];
        for (let page = 1; page <= 6; page += 1) paged.push(...(await ids(`limit=5&page=${page}`)));
        expect(paged).toEqual(whole);
      },
    );

    it.each([
      ['date', 'the whole list', ''],
      ['-date', 'the whole list', ''],
      ['date', 'a search', '&search=dental'],
      ['-date', 'a search and a status', '&search=dental&status=pending'],
    ])(
      'answers the pages in %s order of %s after each next_cursor as by their numbers',
      async (sort, _what, query) => {
        const pageOf = async (page: number, after?: string) =>
          (
            await send(
              adminToken,
              'GET',
              `/api/appointments?sort=${sort}${query}&limit=3&page=${page}${after ? `&after=${after}` : ''}`,
            )
          ).json();
        const pages = await expectSeekingAsNumbered(
          pageOf,
          3,
          (row: { date: string; time: string; id: number }) => `${row.date},${row.time},${row.id}`,
        );
        expect(pages).toBeGreaterThan(2);
      },
    );

    it('answers no next_cursor in an order that cannot seek', async () => {
      const page = (await send(adminToken, 'GET', '/api/appointments?sort=patient&limit=3')).json();
      expect(page.data).toHaveLength(3);
      expect(page).not.toHaveProperty('next_cursor');
    });

    it('pages, and a page past the end is empty', async () => {
      const first = (await send(adminToken, 'GET', '/api/appointments?limit=3')).json();
      const second = (await send(adminToken, 'GET', '/api/appointments?limit=3&page=2')).json();
      expect(second.data[0].id).not.toBe(first.data[0].id);
      const past = (await send(adminToken, 'GET', '/api/appointments?page=99999')).json();
      // Past the end the whole list is counted: the first page of 3 counted thirty.
      expect(first).toMatchObject({ total: 30, total_capped: true });
      expect(past).toMatchObject({ data: [], page: 99999, total_capped: false });
      expect(past.total).toBeGreaterThan(30);
    });

    it.each([
      ['limit=101', 'limit'],
      ['status=done', 'status'],
      ['dentist_id=abc', 'dentist_id'],
      ['date=2026-13-01', 'date'],
      ['from=2027-01-02&to=2027-01-01', 'to'],
      ['sort=phone', 'sort'],
      ['after=2026-01-01', 'after'],
      ['after=2026-02-30,09:00,5', 'after'],
      ['sort=patient&after=2026-01-01,09:00,5', 'after'],
    ])('refuses %s with 400 naming %s', async (query, field) => {
      const response = await send(adminToken, 'GET', `/api/appointments?${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0].field).toBe(field);
    });
  });

  describe('roles and clinics', () => {
    it('answers 401 without a token, whatever the body', async () => {
      expect((await send(null, 'GET', '/api/appointments')).statusCode).toBe(401);
      expect((await send(null, 'POST', '/api/appointments', { patient: 5 })).statusCode).toBe(401);
      expect((await send('not-a-token', 'PATCH', '/api/appointments/1/status', {})).statusCode).toBe(401);
    });

    it('lets all three roles book', async () => {
      for (const token of [adminToken, receptionistToken, dentistToken]) {
        await book({}, token);
      }
    });

    it("never shows or changes another clinic's appointment", async () => {
      const created = await book();
      const attempts = [
        await send(harborToken, 'GET', `/api/appointments/${created.id}`),
        await send(
          harborToken,
          'PUT',
          `/api/appointments/${created.id}`,
          booking({ dentist_id: harborDentistId }),
        ),
        await send(harborToken, 'PATCH', `/api/appointments/${created.id}/status`, { status: 'cancelled' }),
        await send(harborToken, 'DELETE', `/api/appointments/${created.id}`),
      ];
      for (const response of attempts) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ message: 'Appointment not found' });
      }
      const row = await appointmentRow(created.id);
      expect(row).toMatchObject({ status: 'pending', dentistId });
      const rows = await countRows();
      const foreignDentist = await send(harborToken, 'POST', '/api/appointments', booking());
      expect(foreignDentist.statusCode).toBe(400);
      expect(foreignDentist.json().errors).toEqual([
        { field: 'dentist_id', message: 'No active dentist with this id in your clinic' },
      ]);
      expect(await countRows()).toBe(rows);
      const listed = (await send(harborToken, 'GET', '/api/appointments?limit=100')).json();
      expect(listed.data.map((row: { id: number }) => row.id)).not.toContain(created.id);
    });
  });
});
