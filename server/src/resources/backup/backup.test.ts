import { type ClinicExport, clinicExportSchema } from '@dental/shared/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { verifyPassword } from '../../auth/passwords';
import { type DatabaseHandle, openDatabase } from '../../db/client';
import { addDays, clinicToday, isoWeekday } from '../../db/clinicTime';
import {
  appointments,
  availability,
  dentists,
  patientRecalls,
  patients,
  recallTypes,
  recoveryCodes,
  userFactors,
  userSessions,
  users,
} from '../../db/schema';
import { authHeader, createTestApp, login } from '../../test/testApp';
import { listOverlapping } from '../appointments/appointmentReads';
import { readSettings } from '../settings/settingsData';
import { exportClinic } from './clinicExport';
import { importClinic } from './clinicImport';

/** The Backup tab's export, and `clinic:import` loading it into a fresh database as a new clinic. */
describe('backup: export and import', () => {
  let app: FastifyInstance;
  let adminToken: string;
  let fresh: DatabaseHandle;

  beforeAll(async () => {
    app = await createTestApp();
    adminToken = (await login(app, 'admin', 'admin123')).token;
    fresh = await openDatabase({ databaseUrl: null, dataDir: null });
    // Two databases migrated from nothing: slow on a busy machine.
  }, 120_000);

  afterAll(async () => {
    await fresh?.close();
    await app?.close();
  }, 60_000);

  const exportFile = () =>
    app.inject({ method: 'GET', url: '/api/backup/export', headers: authHeader(adminToken) });

  it('only an admin exports; everyone reads when it was last done, and by whom', async () => {
    const receptionist = (await login(app, 'receptionist', 'receptionist123')).token;
    const before = await app.inject({ method: 'GET', url: '/api/backup', headers: authHeader(receptionist) });
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual({ last_export: null });
    const refused = await app.inject({
      method: 'GET',
      url: '/api/backup/export',
      headers: authHeader(receptionist),
    });
    expect(refused.statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/api/backup/export' })).statusCode).toBe(401);

    const response = await exportFile();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="bright-smile-dental-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const after = await app.inject({ method: 'GET', url: '/api/backup', headers: authHeader(receptionist) });
    expect(after.json()).toEqual({ last_export: { at: expect.any(String), by: 'Alex Morgan' } });
  });

  it('holds every resource of the clinic, and no password hash or token', async () => {
    const response = await exportFile();
    const file = response.json();
    expect(file.format).toBe('dental-clinic-export');
    expect(file.clinic.name).toBe('Bright Smile Dental');
    const own = (table: typeof patients | typeof dentists | typeof availability | typeof appointments) =>
      app.database.db
        .select()
        .from(table)
        .where(eq(table.clinicId, file.users[0] ? 1 : 0));
    expect(file.patients).toHaveLength((await own(patients)).length);
    expect(file.dentists).toHaveLength((await own(dentists)).length);
    expect(file.availability).toHaveLength((await own(availability)).length);
    expect(file.appointments).toHaveLength((await own(appointments)).length);
    expect(file.users.map((user: { username: string }) => user.username)).toEqual(
      expect.arrayContaining(['admin', 'receptionist', 'dentist']),
    );
    expect(response.body).not.toMatch(/password|scrypt|token|harbor/i);
  });

  it('imports into a fresh database as a new clinic with the same data', async () => {
    const saved = await app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: authHeader(adminToken),
      payload: { address: '12 Export Lane', idleTimeoutMinutes: 45, notifications: { smsReminders: true } },
    });
    expect(saved.statusCode).toBe(200);
    const sourceClinicId = (await app.database.db.select().from(users).where(eq(users.username, 'admin')))[0]
      ?.clinicId;
    // A deleted dentist travels too: the visits they leave behind name them.
    await app.database.db.insert(dentists).values({
      clinicId: sourceClinicId ?? 0,
      name: 'Dr. Former Partner',
      email: 'former.partner@example.com',
      phone: '555-0199',
      specialty: 'Orthodontics',
      license: 'FMR-1',
      status: 'inactive',
      deletedAt: new Date('2026-01-02T03:04:05Z'),
    });
    const file = (await exportFile()).json();
    expect(file.dentists.find((row: { name: string }) => row.name === 'Dr. Former Partner')?.deleted_at).toBe(
      '2026-01-02T03:04:05.000Z',
    );

    const result = await importClinic(fresh.db, file);
    expect(result.counts).toEqual({
      users: file.users.length,
      dentists: file.dentists.length,
      patients: file.patients.length,
      availability: file.availability.length,
      appointments: file.appointments.length,
      appointment_series: file.appointment_series.length,
      waitlist: file.waitlist.length,
      recall_types: file.recall_types.length,
      patient_recalls: file.patient_recalls.length,
    });
    const clinicId = result.clinicId;
    const source = app.database.db;
    // Versions are each database's own history of a row (the import writes some rows twice), not data.
    const rowsOf = async (db: typeof source, id: number) => ({
      patients: (
        await db.select().from(patients).where(eq(patients.clinicId, id)).orderBy(asc(patients.id))
      ).map(({ clinicId: _c, updatedAt: _u, version: _v, ...row }) => row),
      dentists: (
        await db.select().from(dentists).where(eq(dentists.clinicId, id)).orderBy(asc(dentists.id))
      ).map(({ clinicId: _c, updatedAt: _u, version: _v, ...row }) => row),
      availability: (
        await db
          .select()
          .from(availability)
          .where(eq(availability.clinicId, id))
          .orderBy(asc(availability.id))
      ).map(({ clinicId: _c, updatedAt: _u, version: _v, ...row }) => row),
      appointments: (
        await db
          .select()
          .from(appointments)
          .where(eq(appointments.clinicId, id))
          .orderBy(asc(appointments.id))
      ).map(({ clinicId: _c, version: _v, ...row }) => row),
    });
    const sourceClinic =
      (await source.select().from(users).where(eq(users.username, 'admin')))[0]?.clinicId ?? 0;
    expect(await rowsOf(fresh.db, clinicId)).toEqual(await rowsOf(source, sourceClinic));
    const { version: _fresh, ...importedSettings } = await readSettings(fresh.db, clinicId);
    const { version: _source, ...sourceSettings } = await readSettings(source, sourceClinic);
    expect(importedSettings).toEqual(sourceSettings);
    expect((await readSettings(fresh.db, clinicId)).address).toBe('12 Export Lane');

    // Accounts come without passwords; each active admin gets a one-time one that works.
    const [admin] = await fresh.db.select().from(users).where(eq(users.username, 'admin'));
    const given = result.adminPasswords.find((each) => each.username === 'admin');
    expect(given).toBeDefined();
    expect(await verifyPassword(given?.password ?? '', admin?.passwordHash ?? '')).toBe(true);
    expect(await verifyPassword('admin123', admin?.passwordHash ?? '')).toBe(false);
    // It opens only the choice of the admin's own password (auth.test.ts, 'a password chosen by someone else').
    expect(admin?.passwordMustChange).toBe(true);
    const [receptionist] = await fresh.db.select().from(users).where(eq(users.username, 'receptionist'));
    expect(receptionist?.passwordMustChange).toBe(false);

    // New rows after an import never take an imported id.
    const [added] = await fresh.db
      .insert(patients)
      .values({ clinicId, name: 'After Import', phone: '555-0100' })
      .returning({ id: patients.id });
    expect(added?.id).toBeGreaterThan(Math.max(...file.patients.map((row: { id: number }) => row.id)));
  });

  it('refuses a second import of the same accounts, or a file that is not an export, writing nothing', async () => {
    const file = (await exportFile()).json();
    const count = async () => (await fresh.db.select().from(patients)).length;
    const before = await count();
    await expect(importClinic(fresh.db, file)).rejects.toThrow(/already exist in this database .*: admin, /);
    await expect(importClinic(fresh.db, { format: 'something-else' })).rejects.toThrow(
      /Not a clinic export this version can read/,
    );
    expect(await count()).toBe(before);
  });

  it('refuses ids near the top of the numbering every clinic shares, writing nothing and moving no sequence', async () => {
    const file = (await exportFile()).json();
    const sequenceOf = async () =>
      Number(
        (
          (await fresh.db.execute(sql`select last_value from patients_id_seq`)).rows[0] as {
            last_value: number | string;
          }
        ).last_value,
      );
    const before = await sequenceOf();
    const [patient, ...others] = file.patients;
    const crafted = {
      ...file,
      users: [],
      clinic: { ...file.clinic, name: 'Top Of The Numbers' },
      patients: [{ ...patient, id: 2_147_483_647 }, ...others],
    };
    await expect(importClinic(fresh.db, crafted)).rejects.toThrow(
      /patients\.0\.id: ids above 100,000,000 are not taken: they would use up the numbering every clinic shares/,
    );
    expect(await sequenceOf()).toBe(before);
  });

  // Visit lengths through an export and clinic:import, and an older export whose visits overlap.
  const exported = async () =>
    (await app.inject({ method: 'GET', url: '/api/backup/export', headers: authHeader(adminToken) })).json();

  it("carries each visit's length and the clinic's treatment lengths and grid, and imports them", async () => {
    await app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: authHeader(adminToken),
      payload: { treatmentMinutes: { 'Root Canal': 120 }, bookingGridMinutes: 10 },
    });
    const file = await exported();
    expect(file.settings).toMatchObject({
      treatment_minutes: { 'Root Canal': 120 },
      booking_grid_minutes: 10,
    });
    const own = await app.database.db
      .select({ id: appointments.id, duration: appointments.duration })
      .from(appointments)
      .orderBy(asc(appointments.id));
    const lengths = new Map(own.map((row) => [row.id, row.duration]));
    for (const visit of file.appointments) expect(visit.duration).toBe(lengths.get(visit.id));

    const result = await importClinic(fresh.db, {
      ...file,
      users: [],
      clinic: { ...file.clinic, name: 'Lengths Copy' },
    });
    const copied = await fresh.db
      .select({ id: appointments.id, duration: appointments.duration, time: appointments.time })
      .from(appointments)
      .where(eq(appointments.clinicId, result.clinicId));
    expect(copied).toHaveLength(file.appointments.length);
    for (const visit of copied) expect(visit.duration).toBe(lengths.get(visit.id));
    // The demo clinic's visits never overlap: nothing is kept as an overlap.
    expect((await listOverlapping(fresh.db, result.clinicId, 100)).total).toBe(0);
  });

  it('keeps the overlapping visits of an export from before lengths, lists them, and gives each its length', async () => {
    const file = await exported();
    const [first] = file.appointments.filter((visit: { status: string }) => visit.status !== 'cancelled');
    // An older export: no lengths, and three visits of one dentist at 10:00, 10:30 and 13:00 on one day.
    const older = {
      ...file,
      users: [],
      clinic: { ...file.clinic, name: 'Older Export' },
      settings: { ...file.settings, treatment_minutes: undefined, booking_grid_minutes: undefined },
      appointments: [
        ...file.appointments.map(({ duration: _duration, ...visit }: { duration: number }) => visit),
        ...['10:00', '10:30', '13:00'].map((time, index) => ({
          ...first,
          id: 900_000 + index,
          date: '2099-03-03',
          time,
          treatment: 'Root Canal',
          status: 'confirmed',
          duration: undefined,
        })),
      ],
    };
    const result = await importClinic(fresh.db, older);
    const kept = await listOverlapping(fresh.db, result.clinicId, 100);
    expect(kept.data.map((visit) => `${visit.time}-${visit.end_time} ${visit.duration}`)).toEqual([
      '10:00-11:30 90',
      '10:30-12:00 90',
    ]);
    expect(kept.data.every((visit) => visit.overlapping)).toBe(true);
    const [alone] = await fresh.db
      .select({ duration: appointments.duration })
      .from(appointments)
      .where(eq(appointments.id, 900_002));
    expect(alone?.duration).toBe(90);
    // No new overlap with them: a fourth visit inside them is refused by the database itself.
    const inside = await fresh.db
      .insert(appointments)
      .values({
        clinicId: result.clinicId,
        patientId: first.patient_id,
        dentistId: first.dentist_id,
        date: '2099-03-03',
        time: '11:00',
        treatment: 'Dental Checkup',
        status: 'pending',
      })
      .then(
        () => 'stored',
        () => 'refused',
      );
    expect(inside).toBe('refused');
  });
  // Series, the waitlist and recall, the newer settings, and what a file never holds. These change the
  // demo clinic's sign-in policy and second factors, so they come last.
  const sourceClinicId = async () =>
    (await app.database.db.select().from(users).where(eq(users.username, 'admin')))[0]?.clinicId ?? 0;
  const send = (method: 'POST' | 'PUT' | 'PATCH', url: string, payload: object) =>
    app.inject({ method, url, headers: authHeader(adminToken), payload });

  it("carries series, the waitlist, recall types, patients' recalls and the newer settings: the copy exports the same file", async () => {
    const source = app.database.db;
    const clinicId = await sourceClinicId();
    // A patient's recall the demo clinic's completed visits made, to be set by hand.
    const [recall] = await source
      .select({
        patientId: patientRecalls.patientId,
        recallTypeId: patientRecalls.recallTypeId,
        treatment: recallTypes.treatment,
      })
      .from(patientRecalls)
      .innerJoin(
        recallTypes,
        and(
          eq(recallTypes.clinicId, patientRecalls.clinicId),
          eq(recallTypes.id, patientRecalls.recallTypeId),
        ),
      )
      .where(eq(patientRecalls.clinicId, clinicId))
      .orderBy(patientRecalls.patientId, patientRecalls.recallTypeId)
      .limit(1);
    if (!recall) throw new Error('The demo clinic has no recall');
    const [patient] = await source
      .select()
      .from(patients)
      .where(and(eq(patients.clinicId, clinicId), eq(patients.id, recall.patientId)));
    const [dentist] = (
      await source.select().from(dentists).where(eq(dentists.clinicId, clinicId)).orderBy(dentists.id)
    ).filter((row) => row.status === 'active' && !row.deletedAt && row.workingDays.includes('1'));
    if (!patient || !dentist) throw new Error('The demo clinic has no such patient or dentist');

    // A weekly series of three visits of the recall's treatment, on Mondays far from the demo's visits.
    let monday = addDays(await clinicToday(source, clinicId), 500);
    while (isoWeekday(monday) !== 1) monday = addDays(monday, 1);
    const visit = {
      patient: patient.name,
      phone: patient.phone,
      patient_id: patient.id,
      date: monday,
      time: '10:00',
      dentist_id: dentist.id,
      treatment: recall.treatment,
    };
    const repeat = { every: 1, unit: 'week', count: 3 };
    const checked = await send('POST', '/api/appointments/series/check', { visit, repeat });
    expect(checked.json().occurrences.map((each: { state: string }) => each.state)).toEqual([
      'ok',
      'ok',
      'ok',
    ]);
    const booked = await send('POST', '/api/appointments/series', {
      visit,
      repeat,
      occurrences: checked.json().occurrences.map(({ date, time }: { date: string; time: string }) => ({
        date,
        time,
      })),
    });
    expect(booked.statusCode).toBe(201);
    const seriesId: number = booked.json().series_id;
    const lastOfSeries = addDays(monday, 14);

    // The recall set by hand, with a note and a call; a recall type of the clinic's own.
    const recallUrl = `/api/recall/${recall.patientId}/${recall.recallTypeId}`;
    expect(
      (await send('PATCH', recallUrl, { due_date: '2031-05-01', note: 'Prefers mornings' })).statusCode,
    ).toBe(200);
    expect((await send('POST', `${recallUrl}/contact`, { note: 'Left a message' })).statusCode).toBe(200);
    const ownType = await send('POST', '/api/recall-types', {
      name: 'Root canal review',
      treatment: 'Root Canal',
      interval_months: 3,
    });
    expect(ownType.statusCode).toBe(201);

    // A waitlist entry, and the settings added since the export began.
    const waiting = await send('POST', '/api/waitlist', {
      patient_id: patient.id,
      treatment: 'Cavity Filling',
      dentist_id: dentist.id,
      weekdays: [4, 2],
      part_of_day: 'morning',
      earliest_on: addDays(monday, -30),
      latest_on: addDays(monday, 30),
      note: 'Can come at short notice',
    });
    expect(waiting.statusCode).toBe(201);
    const saved = await send('PUT', '/api/settings', {
      mfaRequired: 'admins',
      recallRemindersEnabled: true,
      recallReminderDaysBefore: 21,
    });
    expect(saved.statusCode).toBe(200);

    // Second factors, recovery codes and sessions are in the database, and stay out of the file.
    const [admin] = await source.select().from(users).where(eq(users.username, 'admin'));
    await source.insert(userFactors).values({
      clinicId,
      userId: admin?.id ?? 0,
      totpSecret: 'TOTPSECRETNEVEREXPORTED',
      totpEnabledAt: new Date(),
    });
    await source
      .insert(recoveryCodes)
      .values({ clinicId, userId: admin?.id ?? 0, salt: 'saltneverexported', codeHash: 'hashneverexported' });
    const sessions = await source.select().from(userSessions).where(eq(userSessions.clinicId, clinicId));
    expect(sessions.length).toBeGreaterThan(0);

    const response = await exportFile();
    const file: ClinicExport = response.json();
    expect(response.body).not.toMatch(/neverexported|totp|recovery|sessions?_|factor/i);
    for (const session of sessions) expect(response.body).not.toContain(session.id);
    // Every part the format names, the optional ones too, and nothing else.
    expect(Object.keys(file).sort()).toEqual(Object.keys(clinicExportSchema.shape).sort());
    expect(file.settings).toMatchObject({
      mfa_required: 'admins',
      recall_reminders_enabled: true,
      recall_reminder_days_before: 21,
    });
    expect(file.appointment_series).toEqual([
      expect.objectContaining({ id: seriesId, every: 1, unit: 'week', count: 3, until: null }),
    ]);
    expect(
      file.appointments
        .filter((row) => row.series_id === seriesId)
        .map((row) => [row.date, row.series_position]),
    ).toEqual([
      [monday, 1],
      [addDays(monday, 7), 2],
      [lastOfSeries, 3],
    ]);
    expect(file.waitlist).toEqual([
      expect.objectContaining({
        patient_id: patient.id,
        weekdays: [2, 4],
        part_of_day: 'morning',
        note: 'Can come at short notice',
        created_by: admin?.id,
      }),
    ]);
    expect(file.recall_types?.map((row) => row.name)).toEqual(
      expect.arrayContaining(['Hygiene recall', 'Checkup', 'Root canal review']),
    );
    const handSet = file.patient_recalls?.find(
      (row) => row.patient_id === recall.patientId && row.recall_type_id === recall.recallTypeId,
    );
    expect(handSet).toMatchObject({
      due_date: '2031-05-01',
      due_set_by_hand: true,
      note: 'Prefers mornings',
      last_contact_kind: 'call',
      last_contact_note: 'Left a message',
    });
    // Derived from the visits and the dates on import, so not in the file.
    expect(handSet).not.toHaveProperty('booked_until');
    expect(handSet).not.toHaveProperty('follow_up_on');

    // What the file leaves out must come back the same: each recall's booked day and follow-up day.
    const derived = async (db: typeof source, id: number) =>
      db
        .select({
          patientId: patientRecalls.patientId,
          recallTypeId: patientRecalls.recallTypeId,
          bookedUntil: patientRecalls.bookedUntil,
          followUpOn: patientRecalls.followUpOn,
        })
        .from(patientRecalls)
        .where(eq(patientRecalls.clinicId, id))
        .orderBy(patientRecalls.patientId, patientRecalls.recallTypeId);
    const before = await derived(source, clinicId);
    expect(
      before.find((row) => row.patientId === recall.patientId && row.recallTypeId === recall.recallTypeId),
    ).toMatchObject({ bookedUntil: lastOfSeries, followUpOn: '2031-05-01' });

    // Into the fresh database (embedded) and into the server's own (PostgreSQL when the tests run on
    // it), each time with the accounts renamed (usernames are unique across clinics), then out again.
    for (const [target, prefix] of [
      [fresh.db, 'copy'],
      [source, 'again'],
    ] as const) {
      const renamed = file.users.map((user) => ({
        ...user,
        username: `${prefix}.${user.username}`,
        email: `${prefix}.${user.email}`,
      }));
      const result = await importClinic(target, { ...file, users: renamed });
      expect(result.counts).toMatchObject({
        appointment_series: 1,
        waitlist: 1,
        recall_types: file.recall_types?.length,
        patient_recalls: file.patient_recalls?.length,
      });
      const copy = await exportClinic(target, {
        clinicId: result.clinicId,
        userId: admin?.id ?? 0,
        name: file.exported_by,
      });
      expect(copy).toEqual({ ...file, users: renamed, exported_at: copy.exported_at });
      expect(await derived(target, result.clinicId)).toEqual(before);
      // No second factor, recovery code or session came with the accounts.
      for (const table of [userFactors, recoveryCodes, userSessions]) {
        expect(await target.select().from(table).where(eq(table.clinicId, result.clinicId))).toEqual([]);
      }
      // New recall types after the import never take an imported id.
      const [added] = await target
        .insert(recallTypes)
        .values({
          clinicId: result.clinicId,
          name: 'After import',
          treatment: 'Tooth Extraction',
          intervalMonths: 6,
        })
        .returning({ id: recallTypes.id });
      expect(added?.id).toBeGreaterThan(Math.max(...(file.recall_types ?? []).map((row) => row.id)));
    }
  });

  it('carries the chairs, a retired one too, and a file from before chairs gives one for each active dentist', async () => {
    const clinicId = await sourceClinicId();
    const retired = await send('POST', '/api/chairs', { name: 'Old Surgery', bookable_online: false });
    expect(retired.statusCode).toBe(201);
    const gone = await app.inject({
      method: 'DELETE',
      url: `/api/chairs/${retired.json().id}`,
      headers: authHeader(adminToken),
    });
    expect(gone.statusCode).toBe(200);
    const file: ClinicExport = await exported();
    expect(file.chairs?.find((chair) => chair.name === 'Old Surgery')).toMatchObject({
      in_service: true,
      bookable_online: false,
      retired_at: expect.any(String),
    });
    expect(file.chairs?.filter((chair) => chair.retired_at === null).map((chair) => chair.position)).toEqual(
      expect.arrayContaining([1, 2]),
    );

    const renamed = file.users.map((user) => ({
      ...user,
      username: `chairs.${user.username}`,
      email: `chairs.${user.email}`,
    }));
    const result = await importClinic(fresh.db, { ...file, users: renamed });
    const copy = await exportClinic(fresh.db, {
      clinicId: result.clinicId,
      userId: 0,
      name: file.exported_by,
    });
    expect(copy.chairs).toEqual(file.chairs);
    // Every visit keeps its chair, its turnover and the dentist's part.
    const placeOf = (visit: (typeof file.appointments)[number]) => ({
      id: visit.id,
      chair_id: visit.chair_id,
      turnover: visit.turnover,
      dentist_from: visit.dentist_from,
      dentist_to: visit.dentist_to,
    });
    expect(file.appointments.every((visit) => typeof visit.chair_id === 'number')).toBe(true);
    expect(copy.appointments.map(placeOf)).toEqual(file.appointments.map(placeOf));

    // An older file: the clinic starts as every clinic did, one chair for each active dentist, and
    // each visit is given a free chair, keeping its day, time and dentist.
    const { chairs: _chairs, ...older } = file;
    const visitsBeforeChairs = file.appointments.map(
      ({ chair_id: _chair, turnover: _turnover, dentist_from: _from, dentist_to: _to, ...visit }) => visit,
    );
    const before = await importClinic(fresh.db, {
      ...older,
      appointments: visitsBeforeChairs,
      users: [],
      clinic: { ...file.clinic, name: 'Before Chairs' },
    });
    const placed = await exportClinic(fresh.db, { clinicId: before.clinicId, userId: 0, name: 'test' });
    const whenAndWho = (visit: (typeof file.appointments)[number]) =>
      `${visit.id} ${visit.date} ${visit.time} ${visit.duration} ${visit.dentist_id} ${visit.status}`;
    expect(placed.appointments.map(whenAndWho)).toEqual(file.appointments.map(whenAndWho));
    expect(placed.appointments.every((visit) => typeof visit.chair_id === 'number')).toBe(true);
    const { rows } = await fresh.db.execute(sql`
      select c.name, c.position, d.name as dentist from chairs c
      join dentists d on d.clinic_id = c.clinic_id and d.id = c.default_dentist_id
      where c.clinic_id = ${before.clinicId} order by c.position`);
    const active = file.dentists.filter((dentist) => dentist.status === 'active' && !dentist.deleted_at);
    expect(rows).toEqual(
      active.map((dentist, index) => ({
        name: `Chair ${index + 1}`,
        position: index + 1,
        dentist: dentist.name,
      })),
    );
    expect(clinicId).toBeGreaterThan(0);
  });

  it('imports an export from before series, the waitlist and recall as a clinic of that time had them', async () => {
    const file: ClinicExport = await exported();
    const {
      appointment_series: _series,
      waitlist: _waitlist,
      recall_types: _types,
      patient_recalls: _recalls,
      ...older
    } = file;
    const {
      mfa_required: _mfa,
      recall_reminders_enabled: _on,
      recall_reminder_days_before: _days,
      ...settings
    } = file.settings ?? ({} as NonNullable<ClinicExport['settings']>);
    const result = await importClinic(fresh.db, {
      ...older,
      users: [],
      clinic: { ...file.clinic, name: 'Before Recall' },
      settings,
      appointments: file.appointments.map(
        ({ series_id: _id, series_position: _position, ...visit }) => visit,
      ),
    });
    expect(result.counts).toMatchObject({ appointment_series: 0, waitlist: 0, recall_types: 2 });

    const imported = await readSettings(fresh.db, result.clinicId);
    expect(imported).toMatchObject({
      mfaRequired: 'none',
      recallRemindersEnabled: false,
      recallReminderDaysBefore: 14,
    });
    // The two recall types every clinic starts with, and the recalls its completed visits make.
    const types = await fresh.db
      .select({ name: recallTypes.name })
      .from(recallTypes)
      .where(eq(recallTypes.clinicId, result.clinicId))
      .orderBy(recallTypes.name);
    expect(types.map((row) => row.name)).toEqual(['Checkup', 'Hygiene recall']);
    const recalls = await fresh.db
      .select()
      .from(patientRecalls)
      .where(eq(patientRecalls.clinicId, result.clinicId));
    expect(recalls.length).toBe(result.counts.patient_recalls);
    expect(recalls.length).toBeGreaterThan(0);
    expect(recalls.every((row) => !row.dueSetByHand && row.note === '')).toBe(true);
    const inSeries = await fresh.db
      .select({ id: appointments.id })
      .from(appointments)
      .where(and(eq(appointments.clinicId, result.clinicId), eq(appointments.seriesPosition, 1)));
    expect(inSeries).toEqual([]);
  });
});
