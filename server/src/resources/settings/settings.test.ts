import { DEFAULT_PRACTICE_HOURS } from '@dental/shared/domain';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { hashPassword } from '../../auth/passwords';
import { auditLog, clinicSettings, clinics, users } from '../../db/schema';
import { authHeader, createTestApp, login } from '../../test/testApp';

describe('settings API', () => {
  let app: FastifyInstance;
  let adminToken: string;
  let receptionistToken: string;
  let dentistToken: string;
  let harborAdminToken: string;
  let freshClinicId: number;
  let freshAdminToken: string;

  const db = () => app.database.db;
  const get = (token: string | null) =>
    app.inject({ method: 'GET', url: '/api/settings', headers: token ? authHeader(token) : {} });
  const put = (token: string | null, payload: unknown) =>
    app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: token ? authHeader(token) : {},
      payload: payload as object,
    });

  beforeAll(async () => {
    app = await createTestApp();
    adminToken = (await login(app, 'admin', 'admin123')).token;
    receptionistToken = (await login(app, 'receptionist', 'receptionist123')).token;
    dentistToken = (await login(app, 'dentist', 'dentist123')).token;
    harborAdminToken = (await login(app, 'harbor.admin', 'harbor123')).token;

    // A clinic that never saved its settings.
    const [clinic] = await db()
      .insert(clinics)
      .values({ name: 'Fresh Clinic', timeZone: 'America/Chicago' })
      .returning({ id: clinics.id });
    if (!clinic) throw new Error('no clinic');
    freshClinicId = clinic.id;
    await db()
      .insert(users)
      .values({
        clinicId: freshClinicId,
        username: 'fresh.admin',
        email: 'fresh.admin@example.com',
        name: 'Fresh Admin',
        role: 'admin',
        passwordHash: await hashPassword('fresh-secret-1'),
      });
    freshAdminToken = (await login(app, 'fresh.admin', 'fresh-secret-1')).token;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  }, 60_000);

  it('answers the defaults, named after the clinic, when it never saved any', async () => {
    const response = await get(freshAdminToken);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      practiceName: 'Fresh Clinic',
      address: '',
      phone: '',
      email: '',
      workingHours: DEFAULT_PRACTICE_HOURS,
      notifications: {
        emailReminders: true,
        smsReminders: false,
        appointmentConfirmations: true,
        newPatientAlerts: true,
      },
      timeZone: 'America/Chicago',
      idleTimeoutMinutes: 30,
      reminderLeadHours: 24,
      recallRemindersEnabled: false,
      recallReminderDaysBefore: 14,
      treatmentMinutes: {
        'Dental Checkup': 30,
        'Regular Cleaning': 60,
        'Cavity Filling': 60,
        'Tooth Extraction': 60,
        'Root Canal': 90,
      },
      bookingGridMinutes: 15,
      mfaRequired: 'none',
      version: 1,
    });
  });

  it.each([
    ['admin', () => adminToken],
    ['receptionist', () => receptionistToken],
    ['dentist', () => dentistToken],
  ])("lets the %s read the clinic's settings", async (_role, token) => {
    const response = await get(token());
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      practiceName: 'Bright Smile Dental',
      workingHours: { monday: { start: '09:00', end: '17:00', closed: false } },
    });
  });

  it('answers 401 without a token, whatever the body', async () => {
    expect((await get(null)).statusCode).toBe(401);
    expect((await put(null, { practiceName: 'x' })).statusCode).toBe(401);
  });

  it('accepts a PUT of exactly what GET answered', async () => {
    for (const token of [adminToken, freshAdminToken]) {
      const before = (await get(token)).json();
      const response = await put(token, before);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(before);
      expect((await get(token)).json()).toEqual(before);
    }
    // The fresh clinic now has a row of its own.
    const rows = await db().select().from(clinicSettings).where(eq(clinicSettings.clinicId, freshClinicId));
    expect(rows).toHaveLength(1);
  });

  it('saves the fields given and keeps the rest; the time zone lands on the clinic; audited', async () => {
    const before = (await get(adminToken)).json();
    const response = await put(adminToken, {
      practiceName: '  Bright Smile Dental & Co  ',
      phone: '+1 (555) 010-2222',
      workingHours: {
        monday: { start: '08:00', end: '16:30', closed: false },
        sunday: { start: '00:00', end: '00:00', closed: true },
      },
      notifications: { smsReminders: true },
      timeZone: 'europe/london',
    });
    expect(response.statusCode).toBe(200);
    const expected = {
      ...before,
      practiceName: 'Bright Smile Dental & Co',
      phone: '+1 (555) 010-2222',
      workingHours: {
        ...before.workingHours,
        monday: { start: '08:00', end: '16:30', closed: false },
        sunday: { start: '00:00', end: '00:00', closed: true },
      },
      notifications: { ...before.notifications, smsReminders: true },
      timeZone: 'Europe/London',
      version: before.version + 1,
    };
    expect(response.json()).toEqual(expected);
    expect((await get(receptionistToken)).json()).toEqual(expected);
    const [clinic] = await db().select().from(clinics).where(eq(clinics.id, 1));
    expect(clinic?.timeZone).toBe('Europe/London');
    const audits = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'settings'), eq(auditLog.clinicId, 1)));
    expect(audits.length).toBeGreaterThan(0);
    expect(audits[audits.length - 1]?.details).toMatchObject({
      changed: expect.arrayContaining(['practiceName', 'phone', 'workingHours', 'notifications', 'timeZone']),
    });
  });

  it('lets contact fields be emptied', async () => {
    const response = await put(adminToken, { phone: '', email: '', address: '' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ phone: '', email: '', address: '' });
  });

  it.each([
    ['practiceName', { practiceName: '' }],
    ['practiceName', { practiceName: 'x'.repeat(201) }],
    ['address', { address: 'x'.repeat(501) }],
    ['email', { email: 'not-an-email' }],
    ['phone', { phone: 'call me' }],
    [
      'workingHours.monday.end',
      { workingHours: { monday: { start: '17:00', end: '09:00', closed: false } } },
    ],
    [
      'workingHours.monday.end',
      { workingHours: { monday: { start: '09:00', end: '09:00', closed: false } } },
    ],
    [
      'workingHours.tuesday.start',
      { workingHours: { tuesday: { start: '24:00', end: '25:00', closed: false } } },
    ],
    [
      'workingHours.tuesday.start',
      { workingHours: { tuesday: { start: '9:00', end: '17:00', closed: false } } },
    ],
    ['workingHours.friday.closed', { workingHours: { friday: { start: '09:00', end: '17:00' } } }],
    ['workingHours', { workingHours: { funday: { start: '09:00', end: '17:00', closed: false } } }],
    ['notifications', { notifications: { pigeonPost: true } }],
    ['notifications.emailReminders', { notifications: { emailReminders: 'yes' } }],
    ['timeZone', { timeZone: 'Mars/Olympus_Mons' }],
    ['timeZone', { timeZone: '+05:00' }],
    ['timeZone', { timeZone: '' }],
  ])('refuses a bad %s with 400 and changes nothing', async (field, body) => {
    const before = (await get(adminToken)).json();
    const response = await put(adminToken, body);
    expect(response.statusCode).toBe(400);
    const answer = response.json();
    expect(answer.message).toEqual(expect.any(String));
    expect(answer.errors.map((error: { field: string }) => error.field)).toContain(field);
    expect((await get(adminToken)).json()).toEqual(before);
  });

  it('refuses unknown fields with 400', async () => {
    const response = await put(adminToken, { practiceName: 'X', logo: 'x.png' });
    expect(response.statusCode).toBe(400);
    expect((await get(adminToken)).json().practiceName).not.toBe('X');
  });

  it('accepts a closed day whose hours are not in order', async () => {
    const response = await put(adminToken, {
      workingHours: { saturday: { start: '13:00', end: '09:00', closed: true } },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().workingHours.saturday).toEqual({ start: '13:00', end: '09:00', closed: true });
  });

  it.each([
    ['receptionist', () => receptionistToken],
    ['dentist', () => dentistToken],
  ])('refuses a PUT by the %s with 403, audited, changing nothing', async (_role, token) => {
    const before = (await get(adminToken)).json();
    const denialsBefore = await db().select().from(auditLog).where(eq(auditLog.action, 'access_denied'));
    const response = await put(token(), { practiceName: 'Hijacked' });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toMatch(/permission/);
    expect((await get(adminToken)).json()).toEqual(before);
    const denialsAfter = await db().select().from(auditLog).where(eq(auditLog.action, 'access_denied'));
    expect(denialsAfter.length).toBe(denialsBefore.length + 1);
  });

  it("keeps each clinic's settings to itself", async () => {
    const clinicOne = (await get(adminToken)).json();
    const response = await put(harborAdminToken, {
      practiceName: 'Harbor Dental Group',
      timeZone: 'Asia/Tokyo',
    });
    expect(response.statusCode).toBe(200);
    expect((await get(harborAdminToken)).json()).toMatchObject({
      practiceName: 'Harbor Dental Group',
      timeZone: 'Asia/Tokyo',
    });
    expect((await get(adminToken)).json()).toEqual(clinicOne);
  });
});
