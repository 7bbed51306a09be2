import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Staff } from '../auth/staff';
import { auditLog, patients } from '../db/schema';
import { authHeader, createTestApp, login } from '../test/testApp';
import { registerClinicReadCache } from './readCache';

describe('clinic read cache', () => {
  let app: FastifyInstance;
  let adminToken: string;
  let receptionistToken: string;
  let harborToken: string;
  let clinicId: number;

  const get = (token: string, url: string) => app.inject({ method: 'GET', url, headers: authHeader(token) });
  const namesOf = (body: { data: Array<{ name: string }> }) => body.data.map((patient) => patient.name);

  beforeAll(async () => {
    app = await createTestApp();
    const admin = await login(app, 'admin', 'admin123');
    adminToken = admin.token;
    clinicId = admin.user.clinic_id;
    receptionistToken = (await login(app, 'receptionist', 'receptionist123')).token;
    harborToken = (await login(app, 'harbor.admin', 'harbor123')).token;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  }, 60_000);

  it('serves a repeated list from memory, to any staff member of the same clinic only', async () => {
    const url = '/api/patients?search=cache&limit=5';
    const first = await get(adminToken, url);
    expect(first.headers['x-read-cache']).toBeUndefined();
    const again = await get(receptionistToken, url);
    expect(again.headers['x-read-cache']).toBe('hit');
    expect(again.json()).toEqual(first.json());
    expect(again.headers['content-type']).toMatch(/application\/json/);
    expect(again.headers['content-security-policy']).toBeDefined();
    const otherClinic = await get(harborToken, url);
    expect(otherClinic.headers['x-read-cache']).toBeUndefined();
  });

  it('shows a change made through the API on the very next read', async () => {
    const url = '/api/patients?search=cachetest&limit=5';
    expect(namesOf((await get(adminToken, url)).json())).toEqual([]);
    const created = await app.inject({
      method: 'POST',
      url: '/api/patients',
      headers: authHeader(receptionistToken),
      payload: {
        name: 'Cachetest Person',
        email: 'cachetest@example.com',
        phone: '555 321 0000',
        dateOfBirth: '1990-01-01',
      },
    });
    expect(created.statusCode).toBe(201);
    const after = await get(adminToken, url);
    expect(after.headers['x-read-cache']).toBeUndefined();
    expect(namesOf(after.json())).toEqual(['Cachetest Person']);
  });

  it('notices within a second a change another API process recorded', async () => {
    const url = '/api/patients?limit=1';
    await get(adminToken, url);
    expect((await get(adminToken, url)).headers['x-read-cache']).toBe('hit');
    // Another process's write leaves an audit record; nothing in this process knows of it.
    await app.database.db
      .insert(auditLog)
      .values({ clinicId, userId: null, action: 'update', entity: 'patient' });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await get(adminToken, url)).headers['x-read-cache']).toBeUndefined();
  });

  it('refuses a deactivated account on its next request', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/users',
      headers: authHeader(adminToken),
      payload: {
        name: 'Short Lived',
        username: 'short.lived',
        email: 'short.lived@example.com',
        password: 'brief-stay-pass-2',
        role: 'receptionist',
      },
    });
    expect(created.statusCode).toBe(201);
    const session = await login(app, 'short.lived', 'brief-stay-pass-2');
    expect((await get(session.token, '/api/patients?limit=1')).statusCode).toBe(200);
    const deactivated = await app.inject({
      method: 'PATCH',
      url: `/api/users/${created.json().id}/status`,
      headers: authHeader(adminToken),
      payload: { isActive: false },
    });
    expect(deactivated.statusCode).toBe(200);
    expect((await get(session.token, '/api/patients?limit=1')).statusCode).toBe(401);
  });
});

describe('with the read cache off (READ_CACHE=off)', () => {
  let app: FastifyInstance;
  let token: string;
  let clinicId: number;

  beforeAll(async () => {
    app = await createTestApp({ readCache: false });
    const admin = await login(app, 'admin', 'admin123');
    token = admin.token;
    clinicId = admin.user.clinic_id;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  }, 60_000);

  it('answers every read from the database, the dashboard stats included', async () => {
    const url = '/api/patients?limit=1';
    const headers = authHeader(token);
    await app.inject({ method: 'GET', url, headers });
    expect((await app.inject({ method: 'GET', url, headers })).headers['x-read-cache']).toBeUndefined();

    const activePatients = async () => {
      const stats = (await app.inject({ method: 'GET', url: '/api/dashboard/stats', headers })).json() as {
        data: Array<{ name: string; value: number }>;
      };
      return stats.data.find((stat) => stat.name === 'Total Patients')?.value;
    };
    const before = await activePatients();
    // Written beside the API (no audit record): only a read that goes to the database sees it.
    await app.database.db
      .insert(patients)
      .values({ clinicId, name: 'Uncached Reader', phone: '555-0100', status: 'active' });
    expect(await activePatients()).toBe((before ?? 0) + 1);
  });
});

describe('clinic read cache, when the client leaves before a kept answer has left', () => {
  it('does not run the route for nobody', async () => {
    // The test's own connections are closed with the app, not waited for.
    const app = Fastify({ logger: false, forceCloseConnections: true });
    app.decorateRequest('staff', null);
    app.addHook('onRequest', async (request) => {
      request.staff = { clinicId: 1, id: 1 } as Staff; // the two fields the cache reads
    });
    registerClinicReadCache(app, { current: async () => 'one version' });
    // A kept answer waits on its way out, as an audited read waits for its record.
    let holding: (response: ServerResponse) => void = () => {};
    const held = new Promise<ServerResponse>((resolve) => {
      holding = resolve;
    });
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    app.addHook('onSend', async (request, reply, payload) => {
      if (!request.readCacheHit) return payload;
      holding(reply.raw);
      await released;
      return payload;
    });
    let routeRuns = 0;
    app.get('/kept', { config: { clinicReadCache: true } }, async () => {
      routeRuns += 1;
      return { answer: routeRuns };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/kept`;
      expect(await (await fetch(url)).json()).toEqual({ answer: 1 });

      const leaving = new AbortController();
      const second = fetch(url, { signal: leaving.signal }).catch((error: Error) => error.name);
      const response = await held;
      const gone = new Promise((resolve) => response.once('close', resolve));
      leaving.abort();
      expect(await second).toBe('AbortError');
      await gone;
      release();
      // What would follow the kept answer runs within these turns of the event loop.
      for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
      expect(routeRuns).toBe(1);
    } finally {
      await app.close();
    }
  });
});
