import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { auditLog } from '../../db/schema';
import { authHeader, createTestApp, login } from '../../test/testApp';

const ALL_MODULES = [
  { id: 'appointments', title: 'Appointments', container: 'mf_appointments' },
  { id: 'patients', title: 'Patients', container: 'mf_patients' },
  { id: 'dentists', title: 'Dentists', container: 'mf_dentists' },
  { id: 'scheduling', title: 'Scheduling', container: 'mf_scheduling' },
  { id: 'admin', title: 'Administration', container: 'mf_admin' },
  { id: 'booking', title: 'Online booking', container: 'mf_booking' },
];

interface Entry {
  id: string;
  title: string;
  container: string;
  entry: string;
  version: string;
  enabled: boolean;
}

describe('modules API', () => {
  let app: FastifyInstance;
  let adminToken: string;
  let receptionistToken: string;
  let receptionistId: number;
  let dentistToken: string;
  let harborAdminToken: string;

  const send = (token: string | null, method: 'GET' | 'PUT', url: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: token ? authHeader(token) : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const listIds = async (token: string, query = '') => {
    const response = await send(token, 'GET', `/api/modules${query}`);
    expect(response.statusCode).toBe(200);
    return (response.json().data as Entry[]).map((entry) => entry.id);
  };
  const setEnabled = async (id: string, enabled: boolean, token = adminToken) =>
    send(token, 'PUT', `/api/modules/${id}`, { enabled });

  beforeAll(async () => {
    app = await createTestApp();
    adminToken = (await login(app, 'admin', 'admin123')).token;
    const receptionist = await login(app, 'receptionist', 'receptionist123');
    receptionistToken = receptionist.token;
    receptionistId = receptionist.user.id;
    dentistToken = (await login(app, 'dentist', 'dentist123')).token;
    harborAdminToken = (await login(app, 'harbor.admin', 'harbor123')).token;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  }, 60_000);

  describe('GET /api/modules', () => {
    it.each([
      ['admin', () => adminToken],
      ['receptionist', () => receptionistToken],
      ['dentist', () => dentistToken],
      ['harbor.admin', () => harborAdminToken],
    ])('lists every module, enabled, with its entry URL and version, for %s', async (_who, token) => {
      const response = await send(token(), 'GET', '/api/modules');
      expect(response.statusCode).toBe(200);
      const data = response.json().data as Entry[];
      // The product's order, so the sidebar does not shuffle.
      expect(data.map((entry) => entry.id)).toEqual(ALL_MODULES.map((module) => module.id));
      for (const [index, entry] of data.entries()) {
        expect(entry).toEqual({
          ...ALL_MODULES[index],
          entry: `/modules/${entry.id}/mf-manifest.json`,
          version: '1.0.0',
          release: null,
          integrity: null,
          enabled: true,
        });
      }
    });

    it('answers 401 JSON without a token or with a garbage one', async () => {
      const none = await send(null, 'GET', '/api/modules');
      expect(none.statusCode).toBe(401);
      expect(none.json()).toEqual({ message: expect.any(String) });
      const garbage = await app.inject({
        method: 'GET',
        url: '/api/modules',
        headers: { authorization: 'Bearer garbage' },
      });
      expect(garbage.statusCode).toBe(401);
    });

    it('all=true, the switchboard view, is for admins only', async () => {
      expect(await listIds(adminToken, '?all=true')).toHaveLength(ALL_MODULES.length);
      for (const token of [receptionistToken, dentistToken]) {
        const response = await send(token, 'GET', '/api/modules?all=true');
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual({ message: "You don't have permission to manage modules." });
      }
      const bad = await send(adminToken, 'GET', '/api/modules?all=maybe');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toEqual(expect.any(String));
    });
  });

  describe('PUT /api/modules/:id', () => {
    it("switches a module off for the admin's clinic only, and on again", async () => {
      const off = await setEnabled('patients', false);
      expect(off.statusCode).toBe(200);
      expect(off.json()).toEqual({
        id: 'patients',
        title: 'Patients',
        container: 'mf_patients',
        entry: '/modules/patients/mf-manifest.json',
        version: '1.0.0',
        release: null,
        integrity: null,
        enabled: false,
      });

      // Gone from Bright Smile's list, for every role there.
      for (const token of [adminToken, receptionistToken, dentistToken]) {
        expect(await listIds(token)).toEqual(['appointments', 'dentists', 'scheduling', 'admin', 'booking']);
      }
      // The switchboard still shows it, switched off.
      const all = (await send(adminToken, 'GET', '/api/modules?all=true')).json().data as Entry[];
      expect(all.find((entry) => entry.id === 'patients')?.enabled).toBe(false);
      expect(all.filter((entry) => entry.enabled)).toHaveLength(ALL_MODULES.length - 1);

      // Harbor Dental is another clinic: it still has the module.
      expect(await listIds(harborAdminToken)).toContain('patients');
      const harborAll = (await send(harborAdminToken, 'GET', '/api/modules?all=true')).json().data as Entry[];
      expect(harborAll.every((entry) => entry.enabled)).toBe(true);

      // Switching off twice is harmless.
      expect((await setEnabled('patients', false)).statusCode).toBe(200);

      const on = await setEnabled('patients', true);
      expect(on.statusCode).toBe(200);
      expect(on.json()).toMatchObject({ id: 'patients', enabled: true });
      expect(await listIds(receptionistToken)).toEqual(ALL_MODULES.map((module) => module.id));
    });

    it('records who switched what in the audit log', async () => {
      await setEnabled('dentists', false);
      await setEnabled('dentists', true);
      const rows = await app.database.db
        .select({ action: auditLog.action, entity: auditLog.entity, entityId: auditLog.entityId })
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'module'), eq(auditLog.entityId, 'dentists')))
        .orderBy(desc(auditLog.id));
      expect(rows.slice(0, 2).map((row) => row.action)).toEqual(['module_enabled', 'module_disabled']);
    });

    it('Harbor switching a module off leaves Bright Smile alone', async () => {
      expect((await setEnabled('scheduling', false, harborAdminToken)).statusCode).toBe(200);
      expect(await listIds(harborAdminToken)).not.toContain('scheduling');
      expect(await listIds(adminToken)).toContain('scheduling');
      expect((await setEnabled('scheduling', true, harborAdminToken)).statusCode).toBe(200);
      expect(await listIds(harborAdminToken)).toContain('scheduling');
    });

    it("refuses a receptionist with 403, changes nothing and audits 'access_denied'", async () => {
      const response = await setEnabled('appointments', false, receptionistToken);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: "You don't have permission to manage modules." });
      expect(await listIds(adminToken)).toContain('appointments');

      const [row] = await app.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.userId, receptionistId), eq(auditLog.action, 'access_denied')))
        .orderBy(desc(auditLog.id))
        .limit(1);
      expect(row).toBeDefined();
      expect(row?.clinicId).toBe(1);
      expect(row?.entity).toBe('/api/modules/:id');
      expect(row?.details).toMatchObject({ method: 'PUT', permission: 'all' });
    });

    it('refuses a dentist with 403 and an anonymous caller with 401', async () => {
      const dentist = await setEnabled('admin', false, dentistToken);
      expect(dentist.statusCode).toBe(403);
      expect(dentist.json().message).toEqual(expect.any(String));
      const anonymous = await send(null, 'PUT', '/api/modules/admin', { enabled: false });
      expect(anonymous.statusCode).toBe(401);
      expect(await listIds(adminToken)).toContain('admin');
    });

    it('answers 404 JSON for an unknown module', async () => {
      for (const id of ['billing', 'PATIENTS', '__proto__', 'constructor']) {
        const response = await setEnabled(id, false);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ message: 'Module not found' });
      }
    });

    it.each([
      ['no body', undefined],
      ['a string for enabled', { enabled: 'false' }],
      ['no enabled field', {}],
      ['an extra field', { enabled: false, entry: 'https://evil.example/remoteEntry.js' }],
    ])('answers 400 JSON for %s and changes nothing', async (_label, payload) => {
      const response = await send(adminToken, 'PUT', '/api/modules/appointments', payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toEqual(expect.any(String));
      const all = (await send(adminToken, 'GET', '/api/modules?all=true')).json().data as Entry[];
      expect(all.find((entry) => entry.id === 'appointments')).toMatchObject({
        enabled: true,
        entry: '/modules/appointments/mf-manifest.json',
      });
    });
  });
});
