import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { addDays, clinicToday, isoWeekday } from '../../db/clinicTime';
import { appointments, auditLog, availability, dentists, type TimeSlot } from '../../db/schema';
import { addPatient, authHeader, createTestApp, login } from '../../test/testApp';
import { settleDays } from './daySettling';

interface WireAvailability {
  id: number;
  dentist_id: number;
  dentist_name: string;
  date: string;
  time_slots: TimeSlot[];
  status: 'active' | 'inactive';
  created_at: string;
  updated_at: string;
}

describe('availability API', () => {
  let app: FastifyInstance;
  let adminToken: string;
  let receptionistToken: string;
  let dentistToken: string;
  let dentistUserId: number;
  let harborAdminToken: string;
  let clinicId: number;
  let harborClinicId: number;
  let sarahId: number;
  let michaelId: number;
  let harborDentistId: number;
  let today: string;
  /**
   * Every test takes its own day far enough ahead that the seeded fortnight never clashes, and a
   * weekday: the demo dentists' working days, whose hours take a booking on a day with no slots set.
   */
  let dayOffset = 100;
  const nextDay = () => {
    do dayOffset += 1;
    while (isoWeekday(addDays(today, dayOffset)) > 5);
    return addDays(today, dayOffset);
  };

  const db = () => app.database.db;
  const send = (
    token: string | null,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ) =>
    app.inject({
      method,
      url,
      headers: token ? authHeader(token) : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const slots = (...pairs: Array<[string, string]>) => pairs.map(([start, end]) => ({ start, end }));
  const fieldsOf = (body: { errors?: Array<{ field: string }> }) => (body.errors ?? []).map((e) => e.field);
  const rowOf = async (id: number) => {
    const [row] = await db().select().from(availability).where(eq(availability.id, id));
    return row;
  };
  const createDay = async (dentistId: number, date = nextDay(), token = adminToken) => {
    const response = await send(token, 'POST', '/api/availability', {
      dentist_id: dentistId,
      date,
      time_slots: slots(['09:00', '10:00'], ['10:00', '11:00'], ['14:00', '15:00']),
    });
    expect(response.statusCode).toBe(201);
    return response.json() as WireAvailability;
  };
  const lastAudit = async () => {
    const [row] = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.entity, 'availability'))
      .orderBy(desc(auditLog.id))
      .limit(1);
    return row;
  };

  beforeAll(async () => {
    app = await createTestApp();
    adminToken = (await login(app, 'admin', 'admin123')).token;
    receptionistToken = (await login(app, 'receptionist', 'receptionist123')).token;
    const dentist = await login(app, 'dentist', 'dentist123');
    dentistToken = dentist.token;
    clinicId = dentist.user.clinic_id;
    dentistUserId = dentist.user.id;
    const harbor = await login(app, 'harbor.admin', 'harbor123');
    harborAdminToken = harbor.token;
    harborClinicId = harbor.user.clinic_id;
    const rows = await db().select().from(dentists);
    const byName = (name: string) => {
      const found = rows.find((row) => row.name === name);
      if (!found) throw new Error(`No dentist ${name}`);
      return found.id;
    };
    sarahId = byName('Dr. Sarah Johnson');
    michaelId = byName('Dr. Michael Chen');
    harborDentistId = byName('Dr. Olivia Bennett');
    expect(dentist.user.dentist_id).toBe(sarahId);
    today = await clinicToday(db(), clinicId);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  }, 60_000);

  describe('settleDays (for the appointments writes)', () => {
    const insertDay = async (dentistId: number, date: string, timeSlots: TimeSlot[]) => {
      const [row] = await db()
        .insert(availability)
        .values({ clinicId, dentistId, date, timeSlots })
        .returning({ id: availability.id, updatedAt: availability.updatedAt });
      if (!row) throw new Error('no availability row');
      return row;
    };
    const appointmentAt = async (dentistId: number, date: string, time: string, status = 'pending') => ({
      clinicId,
      patientId: await addPatient(app, clinicId, 'Settle Patient'),
      dentistId,
      date,
      time,
      treatment: 'Dental Checkup',
      status,
    });
    const open = (start: string, end: string) => ({ start, end, available: true });

    it('books a slot a live appointment starts in and frees one none is left in', async () => {
      const date = nextDay();
      const row = await insertDay(michaelId, date, [open('09:00', '10:00'), open('10:00', '11:00')]);
      // A slot's start is inside it, its end is not; a cancelled appointment books nothing.
      await db()
        .insert(appointments)
        .values([
          await appointmentAt(michaelId, date, '10:00'),
          await appointmentAt(michaelId, date, '09:30', 'cancelled'),
        ]);
      await db().transaction((tx) => settleDays(tx, clinicId, [{ dentistId: michaelId, date }]));
      expect((await rowOf(row.id))?.timeSlots).toEqual([
        open('09:00', '10:00'),
        { start: '10:00', end: '11:00', available: false },
      ]);
      await db()
        .delete(appointments)
        .where(and(eq(appointments.clinicId, clinicId), eq(appointments.date, date)));
      await db().transaction((tx) => settleDays(tx, clinicId, [{ dentistId: michaelId, date }]));
      expect((await rowOf(row.id))?.timeSlots).toEqual([open('09:00', '10:00'), open('10:00', '11:00')]);
    });

    it('keeps a slot closed by staff closed, and touches no other dentist, day or clinic', async () => {
      const date = nextDay();
      const closed = { start: '09:00', end: '10:00', available: false, closed: true };
      const row = await insertDay(michaelId, date, [closed, open('10:00', '11:00')]);
      const other = await insertDay(sarahId, date, [open('09:00', '10:00')]);
      await db()
        .insert(appointments)
        .values(await appointmentAt(sarahId, addDays(date, 1), '09:00'));
      await db().transaction(async (tx) => {
        await settleDays(tx, clinicId, [{ dentistId: michaelId, date }]);
        await settleDays(tx, harborClinicId, [{ dentistId: sarahId, date }]);
        await settleDays(tx, clinicId, [{ dentistId: sarahId, date: addDays(date, 1) }]);
      });
      expect(await rowOf(row.id)).toMatchObject({
        timeSlots: [closed, open('10:00', '11:00')],
        updatedAt: row.updatedAt,
      });
      expect((await rowOf(other.id))?.timeSlots).toEqual([open('09:00', '10:00')]);
    });

    it('is undone with the transaction that called it', async () => {
      const date = nextDay();
      const row = await insertDay(michaelId, date, [open('09:00', '10:00')]);
      const booking = await appointmentAt(michaelId, date, '09:15');
      await expect(
        db().transaction(async (tx) => {
          await tx.insert(appointments).values(booking);
          await settleDays(tx, clinicId, [{ dentistId: michaelId, date }]);
          throw new Error('booking failed');
        }),
      ).rejects.toThrow('booking failed');
      expect((await rowOf(row.id))?.timeSlots[0]?.available).toBe(true);
    });
  });

  describe('slots and the appointments in them', () => {
    const book = async (dentistId: number, date: string, time: string) => {
      const response = await send(adminToken, 'POST', '/api/appointments', {
        patient: `Slot Patient ${time.replace(':', '')}`,
        phone: '555-0100',
        dentist_id: dentistId,
        date,
        time,
        treatment: 'Dental Checkup',
      });
      expect(response.statusCode).toBe(201);
      return response.json() as { id: number };
    };
    const wireSlots = async (id: number) =>
      ((await send(adminToken, 'GET', `/api/availability/${id}`)).json() as WireAvailability).time_slots.map(
        (slot) => `${slot.start} ${slot.available ? 'available' : 'booked'}`,
      );
    const setStatus = (id: number, status: string) =>
      send(adminToken, 'PATCH', `/api/appointments/${id}/status`, { status });

    it('a slot holding two appointments stays booked until both are cancelled or deleted', async () => {
      const day = await createDay(michaelId);
      const first = await book(michaelId, day.date, '09:00');
      const second = await book(michaelId, day.date, '09:30');
      expect(await wireSlots(day.id)).toEqual(['09:00 booked', '10:00 available', '14:00 available']);
      expect((await setStatus(second.id, 'cancelled')).statusCode).toBe(200);
      expect(await wireSlots(day.id)).toEqual(['09:00 booked', '10:00 available', '14:00 available']);
      expect((await send(adminToken, 'DELETE', `/api/appointments/${first.id}`)).statusCode).toBe(200);
      expect(await wireSlots(day.id)).toEqual(['09:00 available', '10:00 available', '14:00 available']);
    });

    it('a day created or replaced over a booking shows it booked, and frees it when the booking goes', async () => {
      const date = nextDay();
      const booking = await book(michaelId, date, '10:15');
      const day = await createDay(michaelId, date);
      expect(await wireSlots(day.id)).toEqual(['09:00 available', '10:00 booked', '14:00 available']);
      // The edit form sends the booked slot back as not available: it stays a booking, not a closure.
      const fetched = (await send(adminToken, 'GET', `/api/availability/${day.id}`)).json();
      expect((await send(adminToken, 'PUT', `/api/availability/${day.id}`, fetched)).statusCode).toBe(200);
      expect((await setStatus(booking.id, 'cancelled')).statusCode).toBe(200);
      expect(await wireSlots(day.id)).toEqual(['09:00 available', '10:00 available', '14:00 available']);
    });

    it('a slot staff closed stays closed when a booking in it is cancelled', async () => {
      const day = await createDay(michaelId);
      // Booked while open, then closed by staff (a closed slot is no open time: nothing lands in it).
      const booking = await book(michaelId, day.date, '14:00');
      const closed = await send(adminToken, 'PATCH', `/api/availability/${day.id}/slot`, {
        start: '14:00',
        end: '15:00',
        available: false,
      });
      expect(closed.statusCode).toBe(200);
      expect((await setStatus(booking.id, 'cancelled')).statusCode).toBe(200);
      expect(await wireSlots(day.id)).toEqual(['09:00 available', '10:00 available', '14:00 booked']);
    });

    it('refuses to open a slot an appointment books (409), changing nothing', async () => {
      const day = await createDay(michaelId);
      await book(michaelId, day.date, '10:00');
      const before = await rowOf(day.id);
      const response = await send(adminToken, 'PATCH', `/api/availability/${day.id}/slot`, {
        start: '10:00',
        end: '11:00',
        available: true,
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(
        'The slot 10:00-11:00 holds an appointment at 10:00: cancel or move it first',
      );
      expect(await rowOf(day.id)).toEqual(before);
    });

    it('a day created while a booking in it is being made shows that booking', async () => {
      const days = Array.from({ length: 6 }, () => nextDay());
      await Promise.all(
        days.flatMap((date) => [
          send(adminToken, 'POST', '/api/availability', {
            dentist_id: michaelId,
            date,
            time_slots: slots(['09:00', '10:00'], ['10:00', '11:00']),
          }),
          book(michaelId, date, '10:30'),
        ]),
      );
      for (const date of days) {
        const [row] = await db()
          .select()
          .from(availability)
          .where(
            and(
              eq(availability.clinicId, clinicId),
              eq(availability.dentistId, michaelId),
              eq(availability.date, date),
            ),
          );
        expect([date, row?.timeSlots.map((slot) => slot.available)]).toEqual([date, [true, false]]);
      }
    });

    it('takes slots in any order and keeps them in time order', async () => {
      const response = await send(adminToken, 'POST', '/api/availability', {
        dentist_id: michaelId,
        date: nextDay(),
        time_slots: slots(['14:00', '15:00'], ['09:00', '10:00']),
      });
      expect(response.statusCode).toBe(201);
      expect(response.json().time_slots).toEqual([
        { start: '09:00', end: '10:00', available: true },
        { start: '14:00', end: '15:00', available: true },
      ]);
    });
  });

  describe('list', () => {
    it("answers the clinic's days as a page, by date then dentist name, for every role", async () => {
      for (const token of [adminToken, receptionistToken, dentistToken]) {
        const response = await send(
          token,
          'GET',
          `/api/availability?from=${today}&to=${addDays(today, 13)}&limit=100`,
        );
        expect(response.statusCode).toBe(200);
        const body = response.json() as {
          data: WireAvailability[];
          total: number;
          page: number;
          limit: number;
        };
        expect(body.page).toBe(1);
        expect(body.limit).toBe(100);
        expect(body.total).toBe(body.data.length);
        expect(body.total).toBeGreaterThan(20);
        const keys = body.data.map((day) => `${day.date}|${day.dentist_name}`);
        expect([...keys].sort()).toEqual(keys);
        const first = body.data[0] as WireAvailability;
        expect(Object.keys(first).sort()).toEqual(
          [
            'created_at',
            'date',
            'dentist_id',
            'dentist_name',
            'id',
            'status',
            'time_slots',
            'updated_at',
            'version',
          ].sort(),
        );
        expect(first.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(first.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        expect(first.time_slots[0]).toEqual({ start: '09:00', end: '10:00', available: expect.any(Boolean) });
      }
    });

    it('filters by dentist, date and range, and searches the dentist name', async () => {
      const byDentist = (
        await send(adminToken, 'GET', `/api/availability?dentist_id=${sarahId}&limit=100`)
      ).json() as { data: WireAvailability[]; total: number };
      expect(byDentist.total).toBeGreaterThan(0);
      expect(
        byDentist.data.every((day) => day.dentist_id === sarahId && day.dentist_name === 'Dr. Sarah Johnson'),
      ).toBe(true);

      const date = addDays(today, 1);
      const byDate = (await send(adminToken, 'GET', `/api/availability?date=${date}`)).json() as {
        data: WireAvailability[];
      };
      expect(byDate.data.length).toBeGreaterThan(0);
      expect(byDate.data.every((day) => day.date === date)).toBe(true);

      const from = addDays(today, 2);
      const to = addDays(today, 4);
      const ranged = (
        await send(adminToken, 'GET', `/api/availability?from=${from}&to=${to}&limit=100`)
      ).json() as {
        data: WireAvailability[];
      };
      expect(ranged.data.length).toBeGreaterThan(0);
      expect(ranged.data.every((day) => day.date >= from && day.date <= to)).toBe(true);
      expect(new Set(ranged.data.map((day) => day.date)).size).toBe(3);

      const searched = (await send(adminToken, 'GET', '/api/availability?search=CHEN&limit=100')).json() as {
        data: WireAvailability[];
      };
      expect(searched.data.length).toBeGreaterThan(0);
      expect(searched.data.every((day) => day.dentist_id === michaelId)).toBe(true);
    });

    it('pages, sorts newest first, and a page past the end is empty', async () => {
      const all = (
        await send(adminToken, 'GET', `/api/availability?dentist_id=${sarahId}&limit=100`)
      ).json() as {
        data: WireAvailability[];
        total: number;
      };
      const second = (
        await send(adminToken, 'GET', `/api/availability?dentist_id=${sarahId}&limit=2&page=2`)
      ).json() as {
        data: WireAvailability[];
        total: number;
      };
      expect(second.total).toBe(all.total);
      expect(second.data.map((day) => day.id)).toEqual(all.data.slice(2, 4).map((day) => day.id));
      const newest = (
        await send(adminToken, 'GET', `/api/availability?dentist_id=${sarahId}&sort=-date&limit=1`)
      ).json() as {
        data: WireAvailability[];
      };
      expect(newest.data[0]?.date).toBe(all.data[all.data.length - 1]?.date);
      const past = (await send(adminToken, 'GET', '/api/availability?page=999')).json() as {
        data: unknown[];
        total: number;
      };
      expect(past.data).toEqual([]);
      expect(past.total).toBeGreaterThan(0);
    });

    it('refuses bad queries naming the parameter, and answers 401 without a token', async () => {
      const cases: Array<[string, string]> = [
        ['limit=101', 'limit'],
        ['page=0', 'page'],
        ['sort=dentist', 'sort'],
        ['date=2026-02-30', 'date'],
        ['dentist_id=abc', 'dentist_id'],
        [`from=${addDays(today, 3)}&to=${today}`, 'to'],
      ];
      for (const [query, field] of cases) {
        const response = await send(adminToken, 'GET', `/api/availability?${query}`);
        expect(response.statusCode).toBe(400);
        expect(fieldsOf(response.json())).toContain(field);
      }
      expect((await send(null, 'GET', '/api/availability')).statusCode).toBe(401);
    });

    it("never shows another clinic's days", async () => {
      const harbor = (await send(harborAdminToken, 'GET', '/api/availability?limit=100')).json() as {
        data: WireAvailability[];
      };
      expect(harbor.data.length).toBeGreaterThan(0);
      expect(harbor.data.every((day) => ![sarahId, michaelId].includes(day.dentist_id))).toBe(true);
      const filtered = (
        await send(harborAdminToken, 'GET', `/api/availability?dentist_id=${sarahId}`)
      ).json() as {
        total: number;
      };
      expect(filtered.total).toBe(0);
    });
  });

  describe("one dentist's days", () => {
    it('answers the dentist’s days with date filters', async () => {
      const response = await send(
        receptionistToken,
        'GET',
        `/api/availability/dentist/${michaelId}?from=${today}&limit=100`,
      );
      expect(response.statusCode).toBe(200);
      const body = response.json() as { data: WireAvailability[]; total: number; page: number };
      expect(body.total).toBeGreaterThan(0);
      expect(body.data.every((day) => day.dentist_id === michaelId && day.date >= today)).toBe(true);
      const dates = body.data.map((day) => day.date);
      expect([...dates].sort()).toEqual(dates);
      const one = (
        await send(receptionistToken, 'GET', `/api/availability/dentist/${michaelId}?date=${dates[0]}`)
      ).json() as {
        data: WireAvailability[];
      };
      expect(one.data.map((day) => day.date)).toEqual([dates[0]]);
    });

    it('answers 404 for a dentist of another clinic or none, 400 for limit 101', async () => {
      for (const id of [harborDentistId, 999999]) {
        const response = await send(adminToken, 'GET', `/api/availability/dentist/${id}`);
        expect(response.statusCode).toBe(404);
        expect(response.json().message).toBe('Dentist not found');
      }
      expect(
        (await send(adminToken, 'GET', `/api/availability/dentist/${sarahId}?limit=101`)).statusCode,
      ).toBe(400);
    });
  });

  describe('create', () => {
    it('creates a day, slots open unless said otherwise, with an audit record', async () => {
      const date = nextDay();
      const response = await send(adminToken, 'POST', '/api/availability', {
        dentist_id: michaelId,
        date,
        time_slots: [
          { start: '09:00', end: '10:00' },
          { start: '10:00', end: '11:30', available: false },
        ],
      });
      expect(response.statusCode).toBe(201);
      const body = response.json() as WireAvailability;
      expect(body).toEqual({
        id: expect.any(Number),
        dentist_id: michaelId,
        dentist_name: 'Dr. Michael Chen',
        date,
        time_slots: [
          { start: '09:00', end: '10:00', available: true },
          { start: '10:00', end: '11:30', available: false },
        ],
        status: 'active',
        created_at: expect.stringMatching(/Z$/),
        updated_at: expect.stringMatching(/Z$/),
        version: 1,
      });
      expect((await rowOf(body.id))?.clinicId).toBe(clinicId);
      const audit = await lastAudit();
      expect(audit?.action).toBe('create');
      expect(audit?.entityId).toBe(String(body.id));
      expect(audit?.clinicId).toBe(clinicId);
      expect((await send(adminToken, 'GET', `/api/availability/${body.id}`)).json()).toEqual(body);
    });

    it('accepts today but refuses a past date', async () => {
      const todays = await send(adminToken, 'POST', '/api/availability', {
        dentist_id: michaelId,
        date: addDays(today, -1),
        time_slots: slots(['09:00', '10:00']),
      });
      expect(todays.statusCode).toBe(400);
      expect(fieldsOf(todays.json())).toEqual(['date']);
      // Dr. Chen does not work every day: clear today's seeded row, if any, to post today's.
      await db()
        .delete(availability)
        .where(and(eq(availability.dentistId, michaelId), eq(availability.date, today)));
      const response = await send(adminToken, 'POST', '/api/availability', {
        dentist_id: michaelId,
        date: today,
        time_slots: slots(['16:00', '17:00']),
      });
      expect(response.statusCode).toBe(201);
    });

    it('answers 409 for a second day of one dentist on one date, creating nothing', async () => {
      const day = await createDay(michaelId);
      const response = await send(adminToken, 'POST', '/api/availability', {
        dentist_id: michaelId,
        date: day.date,
        time_slots: slots(['15:00', '16:00']),
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(
        'Availability for this dentist on this date already exists; edit it instead',
      );
      const rows = await db()
        .select()
        .from(availability)
        .where(and(eq(availability.dentistId, michaelId), eq(availability.date, day.date)));
      expect(rows).toHaveLength(1);
      // Another dentist on that date is fine.
      await createDay(sarahId, day.date);
    });

    it('validates every field, naming it', async () => {
      const valid = { dentist_id: michaelId, date: nextDay(), time_slots: slots(['09:00', '10:00']) };
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ dentist_id: undefined }, 'dentist_id'],
        [{ dentist_id: 'one' }, 'dentist_id'],
        [{ dentist_id: 0 }, 'dentist_id'],
        [{ date: '2030-13-01' }, 'date'],
        [{ date: '2030-02-30' }, 'date'],
        [{ date: undefined }, 'date'],
        [{ time_slots: [] }, 'time_slots'],
        [{ time_slots: undefined }, 'time_slots'],
        [
          {
            time_slots: Array.from({ length: 49 }, (_, i) => ({
              start: `${String(Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`,
              end: `${String(Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '59' : '29'}`,
            })),
          },
          'time_slots',
        ],
        [{ time_slots: slots(['9:00', '10:00']) }, 'time_slots.0.start'],
        [{ time_slots: slots(['09:00', '24:00']) }, 'time_slots.0.end'],
        [{ time_slots: slots(['10:00', '09:00']) }, 'time_slots.0.end'],
        [{ time_slots: slots(['10:00', '10:00']) }, 'time_slots.0.end'],
        [{ time_slots: slots(['09:00', '10:00'], ['09:30', '11:00']) }, 'time_slots.1.start'],
        [{ time_slots: slots(['10:00', '11:00'], ['09:00', '10:30']) }, 'time_slots.0.start'],
        [{ time_slots: [{ start: '09:00', end: '10:00', available: 'yes' }] }, 'time_slots.0.available'],
        [{ time_slots: [{ start: '09:00', end: '10:00', booked_by: 3 }] }, 'time_slots.0'],
        [{ colour: 'red' }, 'colour'],
      ];
      for (const [change, field] of cases) {
        const response = await send(adminToken, 'POST', '/api/availability', { ...valid, ...change });
        expect([response.statusCode, field]).toEqual([400, field]);
        expect(fieldsOf(response.json())).toContain(field);
      }
      const rows = await db()
        .select()
        .from(availability)
        .where(and(eq(availability.dentistId, michaelId), eq(availability.date, valid.date)));
      expect(rows).toHaveLength(0);
    });

    it('refuses a dentist of another clinic or none as a 400 on dentist_id', async () => {
      for (const id of [harborDentistId, 999999]) {
        const response = await send(adminToken, 'POST', '/api/availability', {
          dentist_id: id,
          date: nextDay(),
          time_slots: slots(['09:00', '10:00']),
        });
        expect(response.statusCode).toBe(400);
        expect(fieldsOf(response.json())).toEqual(['dentist_id']);
      }
      const harborRows = await db().select().from(availability).where(eq(availability.clinicId, clinicId));
      expect(harborRows.every((row) => row.dentistId !== harborDentistId)).toBe(true);
    });

    it('ignores server-owned fields sent back', async () => {
      const response = await send(adminToken, 'POST', '/api/availability', {
        id: 1,
        dentist_name: 'Someone Else',
        created_at: '2000-01-01T00:00:00.000Z',
        dentist_id: michaelId,
        date: nextDay(),
        time_slots: slots(['09:00', '10:00']),
      });
      expect(response.statusCode).toBe(201);
      expect(response.json().dentist_name).toBe('Dr. Michael Chen');
      expect(response.json().id).not.toBe(1);
    });
  });

  describe('roles', () => {
    it('answers 401 without a token and 403 to a receptionist, whatever the body', async () => {
      expect((await send(null, 'POST', '/api/availability', { nonsense: true })).statusCode).toBe(401);
      const day = await createDay(michaelId);
      const before = await rowOf(day.id);
      const refusals = [
        await send(receptionistToken, 'POST', '/api/availability', { nonsense: true }),
        await send(receptionistToken, 'PUT', `/api/availability/${day.id}`, { nonsense: true }),
        await send(receptionistToken, 'PATCH', `/api/availability/${day.id}/slot`, {
          start: '09:00',
          end: '10:00',
          available: false,
        }),
        await send(receptionistToken, 'DELETE', `/api/availability/${day.id}`),
      ];
      for (const response of refusals) {
        expect(response.statusCode).toBe(403);
        expect(response.json().message).toBe("You don't have permission to manage availability.");
      }
      expect(await rowOf(day.id)).toEqual(before);
      const [denied] = await db()
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'access_denied'))
        .orderBy(desc(auditLog.id))
        .limit(1);
      expect(denied?.details).toEqual({ method: 'DELETE', permission: 'availability' });
    });

    it('lets a dentist write their own days and nobody else’s (403, nothing changed)', async () => {
      const own = await createDay(sarahId, nextDay(), dentistToken);
      expect(own.dentist_id).toBe(sarahId);
      const put = await send(dentistToken, 'PUT', `/api/availability/${own.id}`, {
        ...own,
        time_slots: slots(['08:00', '09:00']),
      });
      expect(put.statusCode).toBe(200);
      expect(put.json().time_slots).toEqual([{ start: '08:00', end: '09:00', available: true }]);
      const patched = await send(dentistToken, 'PATCH', `/api/availability/${own.id}/slot`, {
        start: '08:00',
        end: '09:00',
        available: false,
      });
      expect(patched.statusCode).toBe(200);

      const refusedCreate = await send(dentistToken, 'POST', '/api/availability', {
        dentist_id: michaelId,
        date: nextDay(),
        time_slots: slots(['09:00', '10:00']),
      });
      expect(refusedCreate.statusCode).toBe(403);
      expect(refusedCreate.json().message).toBe('A dentist may change only their own availability');

      const other = await createDay(michaelId);
      const before = await rowOf(other.id);
      const refusals = [
        await send(dentistToken, 'PUT', `/api/availability/${other.id}`, other),
        // Nor hand their own day over to another dentist.
        await send(dentistToken, 'PUT', `/api/availability/${own.id}`, { ...own, dentist_id: michaelId }),
        await send(dentistToken, 'PATCH', `/api/availability/${other.id}/slot`, {
          start: '09:00',
          end: '10:00',
          available: false,
        }),
        await send(dentistToken, 'DELETE', `/api/availability/${other.id}`),
      ];
      for (const response of refusals) expect(response.statusCode).toBe(403);
      expect(await rowOf(other.id)).toEqual(before);
      // Each refusal is audited with the route, the row it named and the reason.
      const refusalsAudited = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'access_denied'), eq(auditLog.userId, dentistUserId)))
        .orderBy(desc(auditLog.id))
        .limit(4);
      expect(refusalsAudited.map((row) => [row.entity, row.entityId]).reverse()).toEqual([
        ['/api/availability/:id', String(other.id)],
        ['/api/availability/:id', String(own.id)],
        ['/api/availability/:id/slot', String(other.id)],
        ['/api/availability/:id', String(other.id)],
      ]);
      expect(refusalsAudited[0]?.details).toMatchObject({
        method: 'DELETE',
        reason: 'A dentist may change only their own availability',
      });
      expect((await rowOf(own.id))?.dentistId).toBe(sarahId);

      const deleted = await send(dentistToken, 'DELETE', `/api/availability/${own.id}`);
      expect(deleted.statusCode).toBe(200);
      expect(await rowOf(own.id)).toBeUndefined();
    });
  });

  describe('update', () => {
    it('replaces the slots as sent; a PUT of what GET answered succeeds', async () => {
      const day = await createDay(michaelId);
      const got = (await send(adminToken, 'GET', `/api/availability/${day.id}`)).json() as WireAvailability;
      const same = await send(adminToken, 'PUT', `/api/availability/${day.id}`, got);
      expect(same.statusCode).toBe(200);
      expect(same.json().time_slots).toEqual(got.time_slots);

      const response = await send(adminToken, 'PUT', `/api/availability/${day.id}`, {
        dentist_id: michaelId,
        date: day.date,
        time_slots: [{ start: '13:00', end: '13:30', available: false }],
      });
      expect(response.statusCode).toBe(200);
      const body = response.json() as WireAvailability;
      expect(body.time_slots).toEqual([{ start: '13:00', end: '13:30', available: false }]);
      expect(body.created_at).toBe(day.created_at);
      expect(body.updated_at >= day.updated_at).toBe(true);
      // Sent as not available with no booking in it: stored as closed by staff.
      expect((await rowOf(day.id))?.timeSlots).toEqual([
        { start: '13:00', end: '13:30', available: false, closed: true },
      ]);
      const audit = await lastAudit();
      expect([audit?.action, audit?.entityId]).toEqual(['update', String(day.id)]);
    });

    it('lets an admin move a day to another dentist or date, but not onto a taken one (409)', async () => {
      const day = await createDay(michaelId);
      const moved = await send(adminToken, 'PUT', `/api/availability/${day.id}`, {
        ...day,
        dentist_id: sarahId,
      });
      expect(moved.statusCode).toBe(200);
      expect(moved.json()).toMatchObject({ dentist_id: sarahId, dentist_name: 'Dr. Sarah Johnson' });

      const taken = await createDay(michaelId);
      const clash = await send(adminToken, 'PUT', `/api/availability/${taken.id}`, {
        ...taken,
        dentist_id: sarahId,
        date: day.date,
      });
      expect(clash.statusCode).toBe(409);
      expect((await rowOf(taken.id))?.dentistId).toBe(michaelId);

      const past = await send(adminToken, 'PUT', `/api/availability/${taken.id}`, {
        ...taken,
        date: addDays(today, -3),
      });
      expect(past.statusCode).toBe(400);
      expect(fieldsOf(past.json())).toEqual(['date']);
    });

    it('validates like creation and answers 404 across clinics, changing nothing', async () => {
      const day = await createDay(michaelId);
      const before = await rowOf(day.id);
      const bad = await send(adminToken, 'PUT', `/api/availability/${day.id}`, {
        ...day,
        time_slots: slots(['10:00', '09:00']),
      });
      expect(bad.statusCode).toBe(400);
      expect(fieldsOf(bad.json())).toContain('time_slots.0.end');
      const foreignDentist = await send(adminToken, 'PUT', `/api/availability/${day.id}`, {
        ...day,
        dentist_id: harborDentistId,
      });
      expect(foreignDentist.statusCode).toBe(400);
      for (const id of [day.id, 999999]) {
        const response = await send(harborAdminToken, 'PUT', `/api/availability/${id}`, {
          dentist_id: harborDentistId,
          date: day.date,
          time_slots: slots(['09:00', '10:00']),
        });
        expect(response.statusCode).toBe(404);
        expect(response.json().message).toBe('Availability not found');
      }
      expect((await send(harborAdminToken, 'GET', `/api/availability/${day.id}`)).statusCode).toBe(404);
      expect(await rowOf(day.id)).toEqual(before);
    });
  });

  describe('slot', () => {
    it('closes and opens one slot, answering the whole day, with an audit record', async () => {
      const day = await createDay(michaelId);
      const response = await send(adminToken, 'PATCH', `/api/availability/${day.id}/slot`, {
        start: '10:00',
        end: '11:00',
        available: false,
      });
      expect(response.statusCode).toBe(200);
      const body = response.json() as WireAvailability;
      expect(body.id).toBe(day.id);
      expect(body.time_slots).toEqual([
        { start: '09:00', end: '10:00', available: true },
        { start: '10:00', end: '11:00', available: false },
        { start: '14:00', end: '15:00', available: true },
      ]);
      const audit = await lastAudit();
      expect(audit?.action).toBe('status_change');
      expect(audit?.details).toMatchObject({ status: 'booked', slot: '10:00-11:00' });
      const reopened = await send(adminToken, 'PATCH', `/api/availability/${day.id}/slot`, {
        start: '10:00',
        end: '11:00',
        available: true,
      });
      expect(reopened.json().time_slots[1].available).toBe(true);
    });

    it('answers 404 for a slot the day does not have, or a day of another clinic; 400 for a bad body', async () => {
      const day = await createDay(michaelId);
      const missing = await send(adminToken, 'PATCH', `/api/availability/${day.id}/slot`, {
        start: '10:00',
        end: '10:30',
        available: false,
      });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().message).toBe('No slot from 10:00 to 10:30 on this day');
      const foreign = await send(harborAdminToken, 'PATCH', `/api/availability/${day.id}/slot`, {
        start: '10:00',
        end: '11:00',
        available: false,
      });
      expect(foreign.statusCode).toBe(404);
      const bad = await send(adminToken, 'PATCH', `/api/availability/${day.id}/slot`, {
        start: '10:00',
        end: '11:00',
      });
      expect(bad.statusCode).toBe(400);
      expect(fieldsOf(bad.json())).toContain('available');
      const backwards = await send(adminToken, 'PATCH', `/api/availability/${day.id}/slot`, {
        start: '11:00',
        end: '10:00',
        available: true,
      });
      expect(fieldsOf(backwards.json())).toContain('end');
      expect((await rowOf(day.id))?.timeSlots.every((slot) => slot.available)).toBe(true);
    });
  });

  describe('delete', () => {
    it('deletes a day with an audit record; 404 afterwards and across clinics', async () => {
      const day = await createDay(michaelId);
      const foreign = await send(harborAdminToken, 'DELETE', `/api/availability/${day.id}`);
      expect(foreign.statusCode).toBe(404);
      expect(await rowOf(day.id)).toBeDefined();
      const response = await send(adminToken, 'DELETE', `/api/availability/${day.id}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: 'Availability deleted' });
      expect(await rowOf(day.id)).toBeUndefined();
      const audit = await lastAudit();
      expect([audit?.action, audit?.entityId]).toEqual(['delete', String(day.id)]);
      expect((await send(adminToken, 'DELETE', `/api/availability/${day.id}`)).statusCode).toBe(404);
      expect((await send(adminToken, 'GET', `/api/availability/${day.id}`)).statusCode).toBe(404);
    });

    it('refuses a day with a booked slot, saying why, until the visit is cancelled', async () => {
      const day = await createDay(michaelId);
      const booked = await send(adminToken, 'POST', '/api/appointments', {
        patient: 'Kept Booking',
        phone: '555-0177',
        dentist_id: michaelId,
        date: day.date,
        time: '10:00',
        treatment: 'Dental Checkup',
      });
      expect(booked.statusCode).toBe(201);
      const refused = await send(adminToken, 'DELETE', `/api/availability/${day.id}`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(
        'This day has an appointment booked (10:00): cancel or move it before deleting the day',
      );
      expect(await rowOf(day.id)).toBeDefined();

      const cancelled = await send(adminToken, 'PATCH', `/api/appointments/${booked.json().id}/status`, {
        status: 'cancelled',
      });
      expect(cancelled.statusCode).toBe(200);
      expect((await send(adminToken, 'DELETE', `/api/availability/${day.id}`)).statusCode).toBe(200);
      expect(await rowOf(day.id)).toBeUndefined();
    });
  });

  describe('day status', () => {
    const book = (date: string, time: string, token = adminToken) =>
      send(token, 'POST', '/api/appointments', {
        patient: 'Status Check',
        phone: '555-0178',
        dentist_id: michaelId,
        date,
        time,
        treatment: 'Dental Checkup',
      });

    it('a new day is active unless sent inactive; a PUT without status keeps the day’s own', async () => {
      const day = await createDay(michaelId);
      expect(day.status).toBe('active');
      const inactive = await send(adminToken, 'POST', '/api/availability', {
        dentist_id: michaelId,
        date: nextDay(),
        time_slots: slots(['09:00', '10:00']),
        status: 'inactive',
      });
      expect(inactive.statusCode).toBe(201);
      expect(inactive.json().status).toBe('inactive');
      const kept = await send(adminToken, 'PUT', `/api/availability/${inactive.json().id}`, {
        dentist_id: michaelId,
        date: inactive.json().date,
        time_slots: slots(['09:00', '11:00']),
      });
      expect(kept.statusCode).toBe(200);
      expect(kept.json().status).toBe('inactive');
      const bad = await send(adminToken, 'PUT', `/api/availability/${day.id}`, { ...day, status: 'closed' });
      expect(bad.statusCode).toBe(400);
      expect(fieldsOf(bad.json())).toEqual(['status']);
      expect((await rowOf(day.id))?.status).toBe('active');
    });

    it('an inactive day takes no booking, nor a visit moved or reinstated onto it, until made active again', async () => {
      const day = await createDay(michaelId);
      const elsewhere = await book(nextDay(), '09:00');
      expect(elsewhere.statusCode).toBe(201);
      const cancelledThere = await book(day.date, '14:00');
      expect(cancelledThere.statusCode).toBe(201);
      expect(
        (
          await send(adminToken, 'PATCH', `/api/appointments/${cancelledThere.json().id}/status`, {
            status: 'cancelled',
          })
        ).statusCode,
      ).toBe(200);

      const off = await send(adminToken, 'PUT', `/api/availability/${day.id}`, {
        ...day,
        status: 'inactive',
      });
      expect(off.statusCode).toBe(200);
      expect(off.json().status).toBe('inactive');
      const dentistName = off.json().dentist_name as string;
      const refusal = `${dentistName} is not available on ${day.date}: the day is marked inactive`;

      const refused = await book(day.date, '10:00');
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(refusal);
      expect(fieldsOf(refused.json())).toEqual(['date']);
      const moved = await send(adminToken, 'PUT', `/api/appointments/${elsewhere.json().id}`, {
        patient: 'Status Check',
        phone: '555-0178',
        dentist_id: michaelId,
        date: day.date,
        time: '10:00',
        treatment: 'Dental Checkup',
      });
      expect(moved.statusCode).toBe(409);
      expect(moved.json().message).toBe(refusal);
      const reinstated = await send(
        adminToken,
        'PATCH',
        `/api/appointments/${cancelledThere.json().id}/status`,
        {
          status: 'pending',
        },
      );
      expect(reinstated.statusCode).toBe(409);
      expect(reinstated.json().message).toBe(refusal);
      const live = await db()
        .select()
        .from(appointments)
        .where(and(eq(appointments.dentistId, michaelId), eq(appointments.date, day.date)));
      expect(live.map((row) => row.status)).toEqual(['cancelled']);

      const on = await send(adminToken, 'PUT', `/api/availability/${day.id}`, { ...day, status: 'active' });
      expect(on.json().status).toBe('active');
      expect((await book(day.date, '10:00')).statusCode).toBe(201);
    });

    it('a day holding a visit cannot be made inactive, saying which', async () => {
      const day = await createDay(michaelId);
      expect((await book(day.date, '09:00')).statusCode).toBe(201);
      const refused = await send(adminToken, 'PUT', `/api/availability/${day.id}`, {
        ...day,
        status: 'inactive',
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(
        'This day has an appointment booked (09:00): cancel or move it before making the day inactive',
      );
      expect((await rowOf(day.id))?.status).toBe('active');
    });

    it('a slot holding a visit is not dropped, nor its day moved away, saying which; other slots change', async () => {
      const day = await createDay(michaelId);
      expect((await book(day.date, '09:00')).statusCode).toBe(201);
      const before = await rowOf(day.id);
      const dropped = await send(adminToken, 'PUT', `/api/availability/${day.id}`, {
        ...day,
        time_slots: slots(['10:00', '11:00']),
      });
      expect(dropped.statusCode).toBe(409);
      expect(dropped.json().message).toBe(
        'The slot 09:00-10:00 holds an appointment at 09:00: cancel or move it first',
      );
      expect(fieldsOf(dropped.json())).toEqual(['time_slots']);
      const moved = await send(adminToken, 'PUT', `/api/availability/${day.id}`, {
        ...day,
        date: nextDay(),
      });
      expect(moved.statusCode).toBe(409);
      expect(fieldsOf(moved.json())).toEqual(['date']);
      expect(await rowOf(day.id)).toEqual(before);

      // The booked slot kept (even reshaped around the visit), the others dropped: saved.
      const kept = await send(adminToken, 'PUT', `/api/availability/${day.id}`, {
        ...day,
        time_slots: slots(['08:30', '09:30']),
      });
      expect(kept.statusCode).toBe(200);
      expect(kept.json().time_slots).toEqual([{ start: '08:30', end: '09:30', available: false }]);
    });
  });

  describe('fill a range of dates', () => {
    /** A dentist of their own for each test: Monday, Wednesday and Friday. */
    const newDentist = async () => {
      const tag = Math.random().toString(36).slice(2, 8);
      const response = await send(adminToken, 'POST', '/api/dentists', {
        name: `Dr. Fill ${tag}`,
        email: `fill.${tag}@clinic.example`,
        phone: '555-0123',
        specialty: 'General Dentistry',
        license: `FILL-${tag}`,
        working_days: '135',
      });
      expect(response.statusCode).toBe(201);
      return (response.json() as { id: number }).id;
    };
    const isoDay = (date: string) => {
      const day = new Date(`${date}T00:00:00Z`).getUTCDay();
      return day === 0 ? 7 : day;
    };

    it('gives a weekend working day the morning slots only (09:00-13:00)', async () => {
      const tag = Math.random().toString(36).slice(2, 8);
      const created = await send(adminToken, 'POST', '/api/dentists', {
        name: `Dr. Weekend ${tag}`,
        email: `weekend.${tag}@clinic.example`,
        phone: '555-0125',
        specialty: 'General Dentistry',
        license: `WKND-${tag}`,
        working_days: '56',
      });
      expect(created.statusCode).toBe(201);
      const from = addDays(today, 210);
      const to = addDays(from, 6);
      const response = await send(adminToken, 'POST', '/api/availability/fill', {
        dentist_id: (created.json() as { id: number }).id,
        from,
        to,
      });
      expect(response.statusCode).toBe(201);
      const days = (response.json() as { created: WireAvailability[] }).created;
      const byWeekday = new Map(
        days.map((day) => [isoDay(day.date), day.time_slots.map((slot) => slot.start)]),
      );
      expect(byWeekday.get(5)).toEqual(['09:00', '10:00', '11:00', '14:00', '15:00', '16:00']);
      expect(byWeekday.get(6)).toEqual(['09:00', '10:00', '11:00']);
      expect(days).toHaveLength(2);
    });

    it('gives each working day of the range the suggested slots, keeps days already set, and books what is booked', async () => {
      const dentistId = await newDentist();
      const from = addDays(today, 200);
      const to = addDays(from, 13);
      const working: string[] = [];
      for (let date = from; date <= to; date = addDays(date, 1)) {
        if ([1, 3, 5].includes(isoDay(date))) working.push(date);
      }
      const [setBefore, bookedDay] = working as [string, string];
      const before = await createDay(dentistId, setBefore);
      const booking = await send(adminToken, 'POST', '/api/appointments', {
        patient: 'Fill Booking',
        phone: '555-0124',
        dentist_id: dentistId,
        date: bookedDay,
        time: '10:00',
        treatment: 'Dental Checkup',
      });
      expect(booking.statusCode).toBe(201);

      const response = await send(adminToken, 'POST', '/api/availability/fill', {
        dentist_id: dentistId,
        from,
        to,
      });
      expect(response.statusCode).toBe(201);
      const result = response.json() as { created: WireAvailability[]; kept: string[] };
      expect(result.kept).toEqual([setBefore]);
      expect(result.created.map((day) => day.date)).toEqual(working.filter((date) => date !== setBefore));
      expect(result.created[0]?.time_slots.map((slot) => `${slot.start}-${slot.end}`)).toEqual([
        '09:00-10:00',
        '10:00-11:00',
        '11:00-12:00',
        '14:00-15:00',
        '15:00-16:00',
        '16:00-17:00',
      ]);
      const booked = result.created.find((day) => day.date === bookedDay);
      expect(booked?.time_slots.filter((slot) => !slot.available).map((slot) => slot.start)).toEqual([
        '10:00',
      ]);
      // The day set before is as it was.
      expect((await rowOf(before.id))?.timeSlots).toHaveLength(3);
      const audit = await lastAudit();
      expect(audit?.action).toBe('create');
      expect(audit?.details).toMatchObject({ dentist_id: dentistId, from, to, days: working.length - 1 });

      // Asked again, everything is kept and nothing is created.
      const again = await send(adminToken, 'POST', '/api/availability/fill', {
        dentist_id: dentistId,
        from,
        to,
      });
      expect(again.json()).toEqual({ created: [], kept: working });
    });

    it('takes the slots given, and refuses a range that is too long, backwards or in the past', async () => {
      const dentistId = await newDentist();
      const from = addDays(today, 260);
      const given = await send(adminToken, 'POST', '/api/availability/fill', {
        dentist_id: dentistId,
        from,
        to: addDays(from, 6),
        time_slots: [{ start: '08:00', end: '12:00' }],
      });
      expect(given.statusCode).toBe(201);
      const created = (given.json() as { created: WireAvailability[] }).created;
      expect(created).toHaveLength(3);
      expect(
        created.every((day) => day.time_slots.length === 1 && day.time_slots[0]?.start === '08:00'),
      ).toBe(true);

      const tooLong = await send(adminToken, 'POST', '/api/availability/fill', {
        dentist_id: dentistId,
        from,
        to: addDays(from, 120),
      });
      expect(tooLong.statusCode).toBe(400);
      expect(fieldsOf(tooLong.json())).toContain('to');
      const backwards = await send(adminToken, 'POST', '/api/availability/fill', {
        dentist_id: dentistId,
        from,
        to: addDays(from, -1),
      });
      expect(fieldsOf(backwards.json())).toContain('to');
      const past = await send(adminToken, 'POST', '/api/availability/fill', {
        dentist_id: dentistId,
        from: addDays(today, -3),
        to: today,
      });
      expect(past.statusCode).toBe(400);
      expect(fieldsOf(past.json())).toContain('from');
      const unknown = await send(adminToken, 'POST', '/api/availability/fill', {
        dentist_id: 999999,
        from,
        to: from,
      });
      expect(fieldsOf(unknown.json())).toContain('dentist_id');
    });

    it("a dentist fills only their own days; a receptionist none; another clinic's dentist is unknown", async () => {
      const from = addDays(today, 300);
      const own = await send(dentistToken, 'POST', '/api/availability/fill', {
        dentist_id: sarahId,
        from,
        to: addDays(from, 2),
      });
      expect(own.statusCode).toBe(201);
      const other = await send(dentistToken, 'POST', '/api/availability/fill', {
        dentist_id: michaelId,
        from,
        to: addDays(from, 2),
      });
      expect(other.statusCode).toBe(403);
      const receptionist = await send(receptionistToken, 'POST', '/api/availability/fill', {
        dentist_id: michaelId,
        from,
        to: addDays(from, 2),
      });
      expect(receptionist.statusCode).toBe(403);
      const foreign = await send(harborAdminToken, 'POST', '/api/availability/fill', {
        dentist_id: sarahId,
        from,
        to: addDays(from, 2),
      });
      expect(foreign.statusCode).toBe(400);
      expect(fieldsOf(foreign.json())).toContain('dentist_id');
    });
  });
});
