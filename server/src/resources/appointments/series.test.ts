import { SERIES_FROM_WAITLIST_MESSAGE } from '@dental/shared/domain';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { addDays, isoWeekday } from '../../db/clinicTime';
import { appointmentSeries, appointments, auditLog, availability, patients } from '../../db/schema';
import { apiSender, fieldErrorsOf, openDemoClinic } from '../../test/testApp';

interface Visit {
  id: number;
  patient_id: number;
  date: string;
  time: string;
  status: string;
  dentist_id: number;
  treatment: string;
  version: number;
  series: { id: number; position: number; size: number } | null;
}
interface Occurrence {
  date: string;
  time: string;
  state: 'ok' | 'refused';
  message: string | null;
  nearest: { date: string; time: string } | null;
}

describe('appointment series API', () => {
  let app: FastifyInstance;
  let adminToken: string;
  let receptionistToken: string;
  let clinicId: number;
  let dentistId: number;
  let otherDentistId: number;
  let today: string;
  /** Each series starts on its own Monday, weeks apart, far from the demo clinic's visits. */
  let weekOffset = 40;
  const nextMonday = () => {
    weekOffset += 8;
    let day = addDays(today, weekOffset * 7);
    while (isoWeekday(day) !== 1) day = addDays(day, 1);
    return day;
  };

  const db = () => app.database.db;
  const send = apiSender(() => app);
  const visit = (overrides: Record<string, unknown> = {}) => ({
    patient: 'Sasha Weekly',
    phone: '+1 555 222 3344',
    date: nextMonday(),
    time: '09:00',
    dentist_id: dentistId,
    treatment: 'Dental Checkup',
    notes: 'Braces check',
    ...overrides,
  });
  const weeklySix = { every: 1, unit: 'week', count: 6 };
  const book = async (overrides: Record<string, unknown>) => {
    const response = await send(adminToken, 'POST', '/api/appointments', { ...visit(), ...overrides });
    expect(response.statusCode).toBe(201);
    return response.json() as Visit;
  };
  const check = async (first: ReturnType<typeof visit>, repeat: object = weeklySix) => {
    const response = await send(receptionistToken, 'POST', '/api/appointments/series/check', {
      visit: first,
      repeat,
    });
    expect(response.statusCode).toBe(200);
    return response.json() as { duration: number; occurrences: Occurrence[] };
  };
  const counts = async () => ({
    appointments: (await db().select({ id: appointments.id }).from(appointments)).length,
    patients: (await db().select({ id: patients.id }).from(patients)).length,
    series: (await db().select({ id: appointmentSeries.id }).from(appointmentSeries)).length,
    audit: (await db().select({ id: auditLog.id }).from(auditLog)).length,
  });
  const seriesVisits = async (seriesId: number) =>
    db()
      .select({
        id: appointments.id,
        date: appointments.date,
        time: appointments.time,
        status: appointments.status,
        dentistId: appointments.dentistId,
        position: appointments.seriesPosition,
      })
      .from(appointments)
      .where(and(eq(appointments.clinicId, clinicId), eq(appointments.seriesId, seriesId)))
      .orderBy(appointments.seriesPosition);
  /** Books a weekly series of six at 09:00 as checked, all at their rule's times. */
  const bookWeeklySix = async (first = visit()) => {
    const answer = await check(first);
    const response = await send(receptionistToken, 'POST', '/api/appointments/series', {
      visit: first,
      repeat: weeklySix,
      occurrences: answer.occurrences.map(({ date, time }) => ({ date, time })),
    });
    expect(response.statusCode).toBe(201);
    return response.json() as { series_id: number; data: Visit[] };
  };

  beforeAll(async () => {
    const clinic = await openDemoClinic();
    ({ app, adminToken, receptionistToken, clinicId, today } = clinic);
    dentistId = clinic.dentists[0]?.id ?? 0;
    otherDentistId = clinic.dentists[1]?.id ?? 0;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  }, 60_000);

  describe('the dry run', () => {
    it('tries every day of the rule, names a clash and a closed day with the nearest free time, and writes nothing', async () => {
      const first = visit();
      const third = addDays(first.date, 14);
      const fifth = addDays(first.date, 28);
      // Another patient holds the dentist at 09:00-09:30 on the third Monday; the fifth is closed.
      await book({ patient: 'Robin Inway', phone: '+1 555 999 0000', date: third, time: '09:00' });
      await db()
        .insert(availability)
        .values({ clinicId, dentistId, date: fifth, status: 'inactive', timeSlots: [] });
      const before = await counts();

      const answer = await check(first);

      expect(answer.duration).toBe(30);
      expect(answer.occurrences.map((each) => [each.date, each.state])).toEqual([
        [first.date, 'ok'],
        [addDays(first.date, 7), 'ok'],
        [third, 'refused'],
        [addDays(first.date, 21), 'ok'],
        [fifth, 'refused'],
        [addDays(first.date, 35), 'ok'],
      ]);
      const clash = answer.occurrences[2];
      expect(clash?.message).toMatch(/already has an appointment on .* at 09:00–09:30 \(Robin Inway\)/);
      expect(clash?.nearest).toEqual({ date: third, time: '09:30' });
      const closed = answer.occurrences[4];
      expect(closed?.message).toMatch(/not available/i);
      // The closed Monday offers nothing: the nearest is on the Tuesday after.
      expect(closed?.nearest).toEqual({ date: addDays(fifth, 1), time: '09:00' });
      // Nothing was booked, no patient made, nothing audited or announced.
      expect(await counts()).toEqual(before);
    });

    it('expands months from the first day, a short month taking its last day', async () => {
      const answer = await check(visit({ date: '2031-01-31', time: '07:00' }), {
        every: 1,
        unit: 'month',
        until: '2031-05-01',
      });
      expect(answer.occurrences.map((each) => each.date)).toEqual([
        '2031-01-31',
        '2031-02-28',
        '2031-03-31',
        '2031-04-30',
      ]);
    });

    it('refuses a rule that ends twice, never, or too far, with the field named', async () => {
      const both = await send(receptionistToken, 'POST', '/api/appointments/series/check', {
        visit: visit(),
        repeat: { every: 1, unit: 'week', count: 3, until: '2040-01-01' },
      });
      expect(both.statusCode).toBe(400);
      expect(fieldErrorsOf(both).map((error) => error.field)).toContain('repeat.count');
      const tooLong = await send(receptionistToken, 'POST', '/api/appointments/series/check', {
        visit: visit(),
        repeat: { every: 1, unit: 'week', until: addDays(today, 3000) },
      });
      expect(tooLong.statusCode).toBe(400);
      expect(tooLong.json().message).toMatch(/at most 52 visits/);
      const badUnit = await send(receptionistToken, 'POST', '/api/appointments/series/check', {
        visit: visit(),
        repeat: { every: 1, unit: 'day', count: 3 },
      });
      expect(badUnit.statusCode).toBe(400);
    });

    it('refuses a series booked from a waitlist entry, naming the field', async () => {
      const fromWaitlist = await send(receptionistToken, 'POST', '/api/appointments/series/check', {
        visit: { ...visit(), waitlist_entry_id: 1 },
        repeat: weeklySix,
      });
      expect(fromWaitlist.statusCode).toBe(400);
      expect(fieldErrorsOf(fromWaitlist)).toEqual([
        { field: 'visit.waitlist_entry_id', message: SERIES_FROM_WAITLIST_MESSAGE },
      ]);
    });
  });

  describe('booking a series', () => {
    it('books nothing at all when one visit inside it clashes, and names that visit', async () => {
      const first = visit();
      const third = addDays(first.date, 14);
      await book({ patient: 'Robin Inway', phone: '+1 555 999 0000', date: third, time: '09:00' });
      const answer = await check(first);
      const before = await counts();

      const response = await send(receptionistToken, 'POST', '/api/appointments/series', {
        visit: first,
        repeat: weeklySix,
        occurrences: answer.occurrences.map(({ date, time }) => ({ date, time })),
      });

      expect(response.statusCode).toBe(409);
      expect(response.json().message).toMatch(
        new RegExp(`^Visit 3 of 6 \\(${third} at 09:00\\) cannot be booked: .*already has an appointment`),
      );
      expect(fieldErrorsOf(response)).toEqual([
        { field: 'occurrences.2.time', message: expect.stringMatching(/already has an appointment/) },
      ]);
      // The two visits before it, their new patient and the series itself were rolled back.
      expect(await counts()).toEqual(before);
    });

    it('books the visits as chosen (one skipped, one moved) in one go, each as a single booking would be', async () => {
      const first = visit();
      const third = addDays(first.date, 14);
      await book({ patient: 'Robin Inway', phone: '+1 555 999 0000', date: third, time: '09:00' });
      const answer = await check(first);
      const refused = answer.occurrences[2];
      if (!refused?.nearest) throw new Error('the clash has no nearest time');
      const chosen = answer.occurrences
        .map(({ date, time }) => ({ date, time }))
        .map((each, index) => (index === 2 ? refused.nearest : each))
        .filter((_, index) => index !== 5);
      const auditBefore = (await counts()).audit;

      const response = await send(receptionistToken, 'POST', '/api/appointments/series', {
        visit: first,
        repeat: weeklySix,
        occurrences: chosen,
      });

      expect(response.statusCode).toBe(201);
      const { series_id: seriesId, data } = response.json() as { series_id: number; data: Visit[] };
      expect(data.map((each) => [each.date, each.time, each.status])).toEqual(
        chosen.map((each) => [each?.date, each?.time, 'pending']),
      );
      expect(data.map((each) => each.series)).toEqual(
        [1, 2, 3, 4, 5].map((position) => ({ id: seriesId, position, size: 5 })),
      );
      // One patient for all, made once; each visit audited as a booking.
      expect(new Set(data.map((each) => each.patient_id)).size).toBe(1);
      expect((await counts()).audit - auditBefore).toBe(5);
      const listed = await send(adminToken, 'GET', `/api/appointments?patient_id=${data[0]?.patient_id}`);
      expect((listed.json().data as Visit[]).map((each) => each.series?.position)).toEqual([1, 2, 3, 4, 5]);
    });

    it('refuses a moved visit that lands outside open hours, naming it by its index', async () => {
      const first = visit();
      const answer = await check(first);
      const chosen = answer.occurrences.map(({ date, time }) => ({ date, time }));
      chosen[1] = { date: chosen[1]?.date ?? '', time: '20:00' };
      const before = await counts();
      const response = await send(receptionistToken, 'POST', '/api/appointments/series', {
        visit: first,
        repeat: weeklySix,
        occurrences: chosen,
      });
      expect(response.statusCode).toBe(409);
      expect(fieldErrorsOf(response)[0]?.field).toBe('occurrences.1.time');
      expect(response.json().message).toMatch(/^Visit 2 of 6 .* outside .* open hours/);
      expect(await counts()).toEqual(before);
    });
  });

  describe('this and the following', () => {
    it("cancels a visit and the later ones of its series, under the clicked visit's If-Match", async () => {
      const { series_id: seriesId, data } = await bookWeeklySix();
      const fourth = data[3] as Visit;

      const stale = await send(
        receptionistToken,
        'PATCH',
        `/api/appointments/${fourth.id}/status?scope=following`,
        { status: 'cancelled' },
        fourth.version + 1,
      );
      expect(stale.statusCode).toBe(412);
      expect((await seriesVisits(seriesId)).map((each) => each.status)).toEqual(Array(6).fill('pending'));

      const response = await send(
        receptionistToken,
        'PATCH',
        `/api/appointments/${fourth.id}/status?scope=following`,
        { status: 'cancelled' },
        fourth.version,
      );
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        id: fourth.id,
        status: 'cancelled',
        series: { position: 4, size: 6 },
      });
      expect((await seriesVisits(seriesId)).map((each) => each.status)).toEqual([
        'pending',
        'pending',
        'pending',
        'cancelled',
        'cancelled',
        'cancelled',
      ]);
      const audited = await db()
        .select({ entityId: auditLog.entityId })
        .from(auditLog)
        .where(
          and(
            eq(auditLog.action, 'status_change'),
            inArray(
              auditLog.entityId,
              data.map((each) => String(each.id)),
            ),
          ),
        );
      expect(audited.map((row) => Number(row.entityId)).sort()).toEqual(
        data
          .slice(3)
          .map((each) => each.id)
          .sort(),
      );
    });

    it('without scope, or with scope=this, changes the clicked visit alone', async () => {
      const { series_id: seriesId, data } = await bookWeeklySix();
      const second = data[1] as Visit;
      const response = await send(
        receptionistToken,
        'PATCH',
        `/api/appointments/${second.id}/status?scope=this`,
        {
          status: 'confirmed',
        },
      );
      expect(response.statusCode).toBe(200);
      expect((await seriesVisits(seriesId)).map((each) => each.status)).toEqual([
        'pending',
        'confirmed',
        'pending',
        'pending',
        'pending',
        'pending',
      ]);
      const bad = await send(receptionistToken, 'PATCH', `/api/appointments/${second.id}/status?scope=all`, {
        status: 'confirmed',
      });
      expect(bad.statusCode).toBe(400);
    });

    it('edits the later live visits: each keeps its day and takes the new time and dentist', async () => {
      const { series_id: seriesId, data } = await bookWeeklySix();
      const [, second, , , , sixth] = data as Visit[];
      if (!second || !sixth) throw new Error('series not booked');
      await send(receptionistToken, 'PATCH', `/api/appointments/${sixth.id}/status`, { status: 'cancelled' });

      const response = await send(
        receptionistToken,
        'PUT',
        `/api/appointments/${second.id}?scope=following`,
        {
          ...visit({ date: second.date }),
          time: '11:00',
          dentist_id: otherDentistId,
          treatment: 'Regular Cleaning',
        },
        second.version,
      );

      expect(response.statusCode).toBe(200);
      const after = await seriesVisits(seriesId);
      expect(after.map((each) => [each.date, each.time, each.dentistId, each.status])).toEqual([
        [data[0]?.date, '09:00', dentistId, 'pending'],
        [second.date, '11:00', otherDentistId, 'pending'],
        [data[2]?.date, '11:00', otherDentistId, 'pending'],
        [data[3]?.date, '11:00', otherDentistId, 'pending'],
        [data[4]?.date, '11:00', otherDentistId, 'pending'],
        // A cancelled visit is not among "the following": it stays as it was.
        [sixth.date, '09:00', dentistId, 'cancelled'],
      ]);
    });

    it('changes none when one of the following cannot move, and names it', async () => {
      const { series_id: seriesId, data } = await bookWeeklySix();
      const [first, , , fourth] = data as Visit[];
      if (!first || !fourth) throw new Error('series not booked');
      await book({ patient: 'Robin Inway', phone: '+1 555 999 0000', date: fourth.date, time: '13:00' });
      const before = await seriesVisits(seriesId);

      const response = await send(receptionistToken, 'PUT', `/api/appointments/${first.id}?scope=following`, {
        ...visit({ date: first.date }),
        time: '13:00',
      });

      expect(response.statusCode).toBe(409);
      expect(response.json().message).toMatch(new RegExp(`^Visit 4 of 6 \\(${fourth.date} at 09:00\\)`));
      expect(fieldErrorsOf(response)[0]?.field).toBe('occurrences.3.time');
      expect(await seriesVisits(seriesId)).toEqual(before);
    });

    it('on a visit outside any series, following is the visit alone', async () => {
      const single = await book({ patient: 'Kim Once', phone: '+1 555 444 1212' });
      const response = await send(
        receptionistToken,
        'PATCH',
        `/api/appointments/${single.id}/status?scope=following`,
        {
          status: 'cancelled',
        },
      );
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ status: 'cancelled', series: null });
    });
  });

  it("keeps a series visit's place unique and whole in the database", async () => {
    const { series_id: seriesId, data } = await bookWeeklySix();
    const first = data[0] as Visit;
    await expect(
      db()
        .update(appointments)
        .set({ seriesPosition: 2 })
        .where(and(eq(appointments.clinicId, clinicId), eq(appointments.id, first.id))),
    ).rejects.toThrow();
    await expect(
      db()
        .update(appointments)
        .set({ seriesPosition: null })
        .where(and(eq(appointments.clinicId, clinicId), eq(appointments.id, first.id))),
    ).rejects.toThrow();
    await expect(
      db()
        .insert(appointmentSeries)
        .values({ clinicId, every: 1, unit: 'week', count: 3, until: '2040-01-01' }),
    ).rejects.toThrow();
    expect((await seriesVisits(seriesId)).map((each) => each.position)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
