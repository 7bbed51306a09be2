import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { verifyPassword } from '../../auth/passwords';
import { type DatabaseHandle, openDatabase } from '../../db/client';
import { appointments, availability, dentists, patients, users } from '../../db/schema';
import { authHeader, createTestApp, login } from '../../test/testApp';
import { listOverlapping } from '../appointments/appointmentsData';
import { readSettings } from '../settings/settingsData';
import { importClinic } from './clinicExport';

/** The Backup tab's export, and `clinic:import` loading it into a fresh database as a new clinic. */
describe('backup: export and import', () => {
  let app: FastifyInstance;
  let adminToken: string;
  let fresh: DatabaseHandle;

  beforeAll(async () => {
    app = await createTestApp();
    adminToken = (await login(app, 'admin', 'admin123')).token;
    fresh = await openDatabase({ databaseUrl: null, dataDir: null });
  });

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
});
