import { DEFAULT_PRACTICE_HOURS } from '@dental/shared/domain';
import { and, desc, eq } from 'drizzle-orm';
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
      turnoverMinutes: 0,
      dentistParts: {
        'Dental Checkup': { dentistFrom: 0, dentistTo: 30 },
        'Regular Cleaning': { dentistFrom: 0, dentistTo: 60 },
        'Cavity Filling': { dentistFrom: 0, dentistTo: 60 },
        'Tooth Extraction': { dentistFrom: 0, dentistTo: 60 },
        'Root Canal': { dentistFrom: 0, dentistTo: 90 },
      },
      mfaRequired: 'none',
      onlineBooking: {
        enabled: false,
        noticeHours: 2,
        horizonDays: 60,
        cutoffHours: 24,
        maxOpenPerContact: 2,
        visitTypes: [],
      },
      // Given from its name when the clinic was made (migration 0035).
      slug: 'fresh-clinic',
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

  describe("turnover and the dentist's part of each treatment", () => {
    const storedOf = async (clinicId: number) => {
      const [row] = await db()
        .select({ turnover: clinicSettings.turnoverMinutes, parts: clinicSettings.dentistParts })
        .from(clinicSettings)
        .where(eq(clinicSettings.clinicId, clinicId));
      return row;
    };
    const fieldsOf = (response: { json: () => { errors?: Array<{ field: string }> } }) =>
      (response.json().errors ?? []).map((error) => error.field);

    // Each case starts from the clinic as it was: no turnover, no parts, the default lengths.
    afterEach(async () => {
      await db()
        .update(clinicSettings)
        .set({ turnoverMinutes: null, dentistParts: null, treatmentMinutes: null })
        .where(eq(clinicSettings.clinicId, 1));
    });

    it('answers no turnover and the whole visit as each part until the clinic sets them', async () => {
      await db()
        .update(clinicSettings)
        .set({ turnoverMinutes: null, dentistParts: null, treatmentMinutes: null })
        .where(eq(clinicSettings.clinicId, 1));
      const settings = (await get(receptionistToken)).json();
      expect(settings.turnoverMinutes).toBe(0);
      expect(settings.dentistParts).toEqual({
        'Dental Checkup': { dentistFrom: 0, dentistTo: 30 },
        'Regular Cleaning': { dentistFrom: 0, dentistTo: 60 },
        'Cavity Filling': { dentistFrom: 0, dentistTo: 60 },
        'Tooth Extraction': { dentistFrom: 0, dentistTo: 60 },
        'Root Canal': { dentistFrom: 0, dentistTo: 90 },
      });
    });

    it('saves a turnover and a part, stores the part as the database reads it, and answers them back', async () => {
      const before = (await get(adminToken)).json();
      const response = await put(adminToken, {
        turnoverMinutes: 10,
        dentistParts: { 'Cavity Filling': { dentistFrom: 10, dentistTo: 50 } },
      });
      expect(response.statusCode).toBe(200);
      const expected = {
        ...before,
        turnoverMinutes: 10,
        dentistParts: { ...before.dentistParts, 'Cavity Filling': { dentistFrom: 10, dentistTo: 50 } },
        version: before.version + 1,
      };
      expect(response.json()).toEqual(expected);
      expect((await get(dentistToken)).json()).toEqual(expected);
      // Only the part set is stored; the whole-visit parts are left out.
      expect(await storedOf(1)).toEqual({ turnover: 10, parts: { 'Cavity Filling': { from: 10, to: 50 } } });
      const [audit] = await db()
        .select({ details: auditLog.details })
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'settings'), eq(auditLog.clinicId, 1)))
        .orderBy(desc(auditLog.id))
        .limit(1);
      expect(audit?.details).toEqual({ changed: ['turnoverMinutes', 'dentistParts'] });

      // Sent back as answered, nothing changes; the whole visit given for it stores no part.
      const again = await put(adminToken, expected);
      expect(again.statusCode).toBe(200);
      expect(again.json().version).toBe(expected.version);
      const whole = await put(adminToken, {
        dentistParts: { 'Cavity Filling': { dentistFrom: 0, dentistTo: 60 } },
      });
      expect(whole.statusCode).toBe(200);
      expect(whole.json().dentistParts['Cavity Filling']).toEqual({ dentistFrom: 0, dentistTo: 60 });
      expect(await storedOf(1)).toEqual({ turnover: 10, parts: null });
    });

    it('checks a part against a length saved with it, and keeps a whole-visit part whole as its length changes', async () => {
      const response = await put(adminToken, {
        treatmentMinutes: { 'Root Canal': 120, 'Dental Checkup': 20 },
        dentistParts: { 'Root Canal': { dentistFrom: 30, dentistTo: 120 } },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().dentistParts).toMatchObject({
        'Root Canal': { dentistFrom: 30, dentistTo: 120 },
        'Dental Checkup': { dentistFrom: 0, dentistTo: 20 },
      });
      expect((await storedOf(1))?.parts).toEqual({ 'Root Canal': { from: 30, to: 120 } });
    });

    it.each([
      ['turnoverMinutes', { turnoverMinutes: 7 }, 'Use steps of 5 minutes'],
      ['turnoverMinutes', { turnoverMinutes: 65 }, 'At most 60 minutes (an hour)'],
      ['turnoverMinutes', { turnoverMinutes: -5 }, 'At least 0 minutes'],
      ['turnoverMinutes', { turnoverMinutes: 2.5 }, 'Give the turnover in whole minutes'],
      [
        'dentistParts.Cavity Filling.dentistTo',
        { dentistParts: { 'Cavity Filling': { dentistFrom: 30, dentistTo: 30 } } },
        "The dentist's part must end after it starts",
      ],
      [
        'dentistParts.Cavity Filling.dentistTo',
        { dentistParts: { 'Cavity Filling': { dentistFrom: 40, dentistTo: 20 } } },
        "The dentist's part must end after it starts",
      ],
      [
        'dentistParts.Cavity Filling.dentistTo',
        { dentistParts: { 'Cavity Filling': { dentistFrom: 10, dentistTo: 65 } } },
        "The dentist's part must end within the visit (60 minutes)",
      ],
      [
        'dentistParts.Cavity Filling.dentistTo',
        {
          treatmentMinutes: { 'Cavity Filling': 45 },
          dentistParts: { 'Cavity Filling': { dentistFrom: 10, dentistTo: 50 } },
        },
        "The dentist's part must end within the visit (45 minutes)",
      ],
      [
        'dentistParts.Cavity Filling.dentistFrom',
        { dentistParts: { 'Cavity Filling': { dentistFrom: -5, dentistTo: 50 } } },
        'Count from minute 0, the start of the visit',
      ],
      [
        'dentistParts.Cavity Filling.dentistFrom',
        { dentistParts: { 'Cavity Filling': { dentistFrom: 12, dentistTo: 50 } } },
        'Use steps of 5 minutes',
      ],
      [
        'dentistParts.Cavity Filling.dentistTo',
        { dentistParts: { 'Cavity Filling': { dentistFrom: 10 } } },
        'Give the minute as a whole number',
      ],
      ['dentistParts', { dentistParts: { 'Teeth Whitening': { dentistFrom: 0, dentistTo: 30 } } }, undefined],
    ])('refuses %s with 400 naming it, and changes nothing', async (field, body, message) => {
      const before = (await get(adminToken)).json();
      const stored = await storedOf(1);
      const response = await put(adminToken, body);
      expect(response.statusCode).toBe(400);
      const refused = response.json().errors.find((error: { field: string }) => error.field === field);
      expect(refused).toBeDefined();
      if (message) expect(refused.message).toBe(message);
      expect((await get(adminToken)).json()).toEqual(before);
      expect(await storedOf(1)).toEqual(stored);
    });

    it("refuses a length shortened below its part's end, naming both, and changes nothing", async () => {
      await put(adminToken, { dentistParts: { 'Cavity Filling': { dentistFrom: 10, dentistTo: 50 } } });
      const before = (await get(adminToken)).json();
      const response = await put(adminToken, { treatmentMinutes: { 'Cavity Filling': 40 } });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(
        "Invalid dentistParts.Cavity Filling.dentistTo: The dentist's part must end within the visit (40 minutes)",
      );
      expect(fieldsOf(response)).toEqual([
        'dentistParts.Cavity Filling.dentistTo',
        'treatmentMinutes.Cavity Filling',
      ]);
      expect((await get(adminToken)).json()).toEqual(before);
      // Shortened to where the part ends, it fits.
      const fits = await put(adminToken, { treatmentMinutes: { 'Cavity Filling': 50 } });
      expect(fits.statusCode).toBe(200);
      expect(fits.json().dentistParts['Cavity Filling']).toEqual({ dentistFrom: 10, dentistTo: 50 });
      expect((await storedOf(1))?.parts).toEqual({ 'Cavity Filling': { from: 10, to: 50 } });
    });

    it("answers a stored part as a booking takes it: cut at the visit's end, or whole when nothing is left", async () => {
      await db()
        .update(clinicSettings)
        .set({
          dentistParts: {
            'Cavity Filling': { from: 10, to: 90 },
            'Root Canal': { from: 95, to: 120 },
            'Dental Checkup': { from: 'ten', to: 20 },
          },
        })
        .where(eq(clinicSettings.clinicId, 1));
      const parts = (await get(adminToken)).json().dentistParts;
      expect(parts['Cavity Filling']).toEqual({ dentistFrom: 10, dentistTo: 60 });
      expect(parts['Root Canal']).toEqual({ dentistFrom: 0, dentistTo: 90 });
      expect(parts['Dental Checkup']).toEqual({ dentistFrom: 0, dentistTo: 30 });
    });
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
