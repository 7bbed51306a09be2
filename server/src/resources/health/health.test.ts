import type { FastifyInstance, InjectOptions } from 'fastify';
import { authHeader, createTestApp, login } from '../../test/testApp';

/** Requests a minute one caller may make to the API in this file's app. */
const API_BUDGET = 5;
/** Sign-in attempts a minute one address may make in this file's app. */
const LOGIN_BUDGET = 4;

/** A token that looks like ours but is not signed with our key: anyone can make one. */
const forgedToken = (subject: string) => {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: subject, cid: 1, role: 'admin' })}.${'A'.repeat(43)}`;
};

describe('GET /api/health and the request budgets', () => {
  let app: FastifyInstance;
  let addressCounter = 0;
  let receptionistToken: string;
  let dentistToken: string;

  /** Each test calls from its own address, so that a budget used up by one test does not leak into another. */
  const newAddress = () => {
    addressCounter += 1;
    return `10.20.0.${addressCounter}`;
  };
  const call = (options: InjectOptions) => app.inject(options);
  const expectLimited = (response: Awaited<ReturnType<typeof call>>) => {
    expect(response.statusCode).toBe(429);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.json()).toEqual({ message: expect.stringMatching(/rate limit/i) });
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  };

  beforeAll(async () => {
    app = await createTestApp({ apiRateLimit: API_BUDGET, loginRateLimit: LOGIN_BUDGET });
    receptionistToken = (await login(app, 'receptionist', 'receptionist123')).token;
    dentistToken = (await login(app, 'dentist', 'dentist123')).token;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  }, 60_000);

  describe('GET /api/health', () => {
    it('answers 200 JSON with the database reachable, without signing in', async () => {
      const response = await call({ method: 'GET', url: '/api/health', remoteAddress: newAddress() });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/application\/json/);
      expect(response.json()).toEqual({ status: 'ok', database: 'ok' });
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    });

    it('is never rate limited, so a load balancer may poll it as often as it likes', async () => {
      const remoteAddress = newAddress();
      for (let attempt = 0; attempt < API_BUDGET * 3; attempt += 1) {
        const response = await call({ method: 'GET', url: '/api/health', remoteAddress });
        expect(response.statusCode).toBe(200);
      }
    });

    it('answers a server error, not "ok", when the database does not answer, and leaks nothing', async () => {
      const execute = jest
        .spyOn(app.database.db, 'execute')
        .mockRejectedValueOnce(new Error('connect ECONNREFUSED 10.0.0.9:5432 password=hunter2'));
      try {
        const response = await call({ method: 'GET', url: '/api/health', remoteAddress: newAddress() });
        expect(response.statusCode).toBeGreaterThanOrEqual(500);
        expect(response.headers['content-type']).toMatch(/application\/json/);
        expect(response.json()).toEqual({ message: expect.any(String) });
        expect(response.body).not.toMatch(/ECONNREFUSED|hunter2|5432|stack/);
      } finally {
        execute.mockRestore();
      }
      // It recovers as soon as the database answers again.
      const after = await call({ method: 'GET', url: '/api/health', remoteAddress: newAddress() });
      expect(after.json()).toEqual({ status: 'ok', database: 'ok' });
    });
  });

  describe('API budget', () => {
    it('a signed-in user who uses up their budget gets 429 JSON with a message and Retry-After', async () => {
      const remoteAddress = newAddress();
      const asReceptionist = { remoteAddress, headers: authHeader(receptionistToken) };
      for (let attempt = 0; attempt < API_BUDGET; attempt += 1) {
        const response = await call({ method: 'GET', url: '/api/modules', ...asReceptionist });
        expect(response.statusCode).toBe(200);
      }
      expectLimited(await call({ method: 'GET', url: '/api/modules', ...asReceptionist }));
      // The budget follows the user, not the address: another address does not reset it.
      expectLimited(
        await call({
          method: 'GET',
          url: '/api/modules',
          remoteAddress: newAddress(),
          headers: authHeader(receptionistToken),
        }),
      );
      // Another user at the same address is not limited, and health checks from there still answer.
      const dentist = await call({
        method: 'GET',
        url: '/api/modules',
        remoteAddress,
        headers: authHeader(dentistToken),
      });
      expect(dentist.statusCode).toBe(200);
      expect(dentist.json().data.length).toBeGreaterThan(0);
      expect((await call({ method: 'GET', url: '/api/health', remoteAddress })).statusCode).toBe(200);
    });

    // The limiter runs before each route's guard, so refused callers count against their address.
    it('calls without a valid token are limited per address too', async () => {
      const remoteAddress = newAddress();
      for (let attempt = 0; attempt < API_BUDGET; attempt += 1) {
        expect((await call({ method: 'GET', url: '/api/modules', remoteAddress })).statusCode).toBe(401);
      }
      expectLimited(await call({ method: 'GET', url: '/api/modules', remoteAddress }));
    });
  });

  describe('sign-in budget per address', () => {
    it(`allows ${LOGIN_BUDGET} attempts a minute from one address, then answers 429 JSON`, async () => {
      const remoteAddress = newAddress();
      for (let attempt = 0; attempt < LOGIN_BUDGET; attempt += 1) {
        const response = await call({
          method: 'POST',
          url: '/auth/login',
          remoteAddress,
          payload: { username: `nobody${attempt}`, password: 'wrong' },
        });
        expect(response.statusCode).toBe(401);
      }
      const limited = await call({
        method: 'POST',
        url: '/auth/login',
        remoteAddress,
        payload: { username: 'admin', password: 'admin123' },
      });
      expectLimited(limited);
      expect(limited.body).not.toContain('access_token');
      // Another address may still sign in.
      const elsewhere = await call({
        method: 'POST',
        url: '/auth/login',
        remoteAddress: newAddress(),
        payload: { username: 'admin', password: 'admin123' },
      });
      expect(elsewhere.statusCode).toBe(200);
    });

    // The limiter keys on a token's subject only once its signature is checked.
    it('a made-up bearer token does not buy a fresh sign-in budget', async () => {
      const remoteAddress = newAddress();
      for (let attempt = 0; attempt < LOGIN_BUDGET; attempt += 1) {
        await call({
          method: 'POST',
          url: '/auth/login',
          remoteAddress,
          payload: { username: `nobody${attempt}`, password: 'wrong' },
        });
      }
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const response = await call({
          method: 'POST',
          url: '/auth/login',
          remoteAddress,
          headers: authHeader(forgedToken(`spray-${attempt}`)),
          payload: { username: `nobody${attempt}`, password: 'wrong' },
        });
        statuses.push(response.statusCode);
      }
      expect(statuses).toEqual([429, 429, 429]);
    });
  });
});
