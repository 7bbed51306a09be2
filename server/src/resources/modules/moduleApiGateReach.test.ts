import type { ModuleId } from '@dental/shared/domain';
import Fastify, { type FastifyInstance } from 'fastify';
import { clinicModules } from '../../db/schema';
import type { ClinicVersions } from '../../plugins/clinicVersions';
import { addStaff, apiSender, authHeader, createSecondApp, createTestApp, login } from '../../test/testApp';
import { registerModuleApiGate } from './moduleApiGate';

type StaffModule = Exclude<ModuleId, 'booking'>;
const NOT_FOUND = { message: 'Not found' };

/** Where the switch is checked and how it is kept: every spelling, memory, a second API process. */
describe('the module API gate: reach and memory', () => {
  let app: FastifyInstance;
  let adminToken: string;
  let harborToken: string;
  let harborClinic: number;
  let staffId: number;
  const send = apiSender(() => app);
  const setEnabled = async (id: StaffModule, enabled: boolean, token = adminToken) => {
    expect((await send(token, 'PUT', `/api/modules/${id}`, { enabled })).statusCode).toBe(200);
  };

  beforeAll(async () => {
    app = await createTestApp();
    adminToken = (await login(app, 'admin', 'admin123')).token;
    const harbor = await login(app, 'harbor.admin', 'harbor123');
    harborToken = harbor.token;
    harborClinic = harbor.user.clinic_id;
    staffId = (await addStaff(app, adminToken)).id;
  }, 60_000);

  afterEach(async () => {
    for (const id of ['admin', 'patients'] as const) {
      await setEnabled(id, true);
      await setEnabled(id, true, harborToken);
    }
  });

  afterAll(async () => {
    await app?.close();
  }, 60_000);

  it('no spelling of an owned path gets past the switch', async () => {
    // Each reaches a users route (`/api/users/` is `/api/users/:id` without an id): its pattern is what is matched.
    const reaching = [
      '/api/%75sers',
      '/api/us%65rs',
      '/api/users?limit=1',
      '/api/users/',
      '/api/users/%2e%2e/users',
      `/api/%75sers/${staffId}`,
    ];
    // These reach no API route, on or off (the app's files answer them).
    const nowhere = ['//api/users', '/api//users', '//api/%75sers'];
    await setEnabled('admin', false);
    for (const url of reaching) {
      const response = await send(adminToken, 'GET', url);
      expect({ url, status: response.statusCode, body: response.json() }).toEqual({
        url,
        status: 404,
        body: NOT_FOUND,
      });
    }
    const whenOff = new Map<string, number>();
    for (const url of nowhere) {
      const response = await send(adminToken, 'GET', url);
      expect(response.statusCode).not.toBe(200);
      expect(response.body).not.toContain('username');
      whenOff.set(url, response.statusCode);
    }
    const head = await app.inject({ method: 'HEAD', url: '/api/%75sers', headers: authHeader(adminToken) });
    expect(head.statusCode).toBe(404);
    // A body the route would refuse (400) when on is not even read.
    await setEnabled('patients', false);
    const unread = await send(adminToken, 'POST', '/api/patients', { name: '' });
    expect({ status: unread.statusCode, body: unread.json() }).toEqual({ status: 404, body: NOT_FOUND });

    // On, the encoded spellings are the users routes themselves: the switch is what closed them.
    await setEnabled('admin', true);
    expect((await send(adminToken, 'GET', '/api/%75sers')).statusCode).toBe(200);
    expect((await send(adminToken, 'GET', `/api/%75sers/${staffId}`)).statusCode).toBe(200);
    for (const url of nowhere) expect((await send(adminToken, 'GET', url)).statusCode).toBe(whenOff.get(url));
  });

  it('keeps a clinic’s switches in memory until its version moves', async () => {
    // Harbor Dental: no other test writes there, so no announcement of theirs arrives meanwhile.
    const harborUsers = async () => (await send(harborToken, 'GET', '/api/users')).statusCode;
    expect(await harborUsers()).toBe(200);
    // Behind the API's back (no audit record, so no announcement): the kept switches still answer.
    await app.database.db
      .insert(clinicModules)
      .values({ clinicId: harborClinic, moduleId: 'admin', enabled: false })
      .onConflictDoUpdate({
        target: [clinicModules.clinicId, clinicModules.moduleId],
        set: { enabled: false },
      });
    expect(await harborUsers()).toBe(200);
    // Any write of the clinic's staff moves its version in this process: the switches are read again.
    await setEnabled('patients', true, harborToken);
    expect(await harborUsers()).toBe(404);
  });

  it('a switch made through one API process closes the route on another within moments (PostgreSQL)', async () => {
    const second = await createSecondApp(app);
    if (!second) return; // PGlite: one process owns the database.
    try {
      // Each test app signs its own tokens.
      const token = (await login(second, 'admin', 'admin123')).token;
      const status = async () =>
        (await second.inject({ method: 'GET', url: '/api/users', headers: authHeader(token) })).statusCode;
      const statusWithinMoments = async (wanted: number) => {
        const deadline = Date.now() + 2_000;
        let seen = await status();
        while (seen !== wanted && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 25));
          seen = await status();
        }
        return seen;
      };
      // The second process holds the switches (on) in memory first.
      expect(await status()).toBe(200);
      await setEnabled('admin', false);
      expect(await statusWithinMoments(404)).toBe(404);
      await setEnabled('admin', true);
      expect(await statusWithinMoments(200)).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('refuses to start when an owned entry names no route (a route renamed under it)', async () => {
    const bare = Fastify();
    const versions = { current: async () => '' } as unknown as ClinicVersions;
    registerModuleApiGate(bare, app.database.db, versions);
    bare.get('/api/users', async () => ({}));
    await expect(bare.ready()).rejects.toThrow(/names no route for appointments: GET \/api\/appointments, /);
    await bare.close();
  });
});
