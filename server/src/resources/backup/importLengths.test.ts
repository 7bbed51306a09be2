import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type DatabaseHandle, openDatabase } from '../../db/client';
import { appointments } from '../../db/schema';
import { authHeader, createTestApp, login } from '../../test/testApp';
import { listOverlapping } from '../appointments/appointmentsData';
import { importClinic } from './clinicExport';

/** Visit lengths through an export and `clinic:import`, and an older export whose visits overlap. */
describe('backup: visit lengths and overlaps on import', () => {
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
