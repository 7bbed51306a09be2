import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createTestApp } from '../test/testApp';

const API_LIMIT = 500;
const LOGIN_LIMIT = 3;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** `/api/patients/{id}` with each parameter filled in, as a client would send it. */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, '1');
/** The same path with its first letter percent-encoded: the router decodes it to the same route. */
const encoded = (path: string) =>
  path.replace(/^\/(.)/, (_, letter: string) => `/%${letter.charCodeAt(0).toString(16)}`);
/** The same path with its first segment in capitals: no route of ours is spelled so. */
const capitalised = (path: string) =>
  path.replace(/^\/([a-z]+)/, (_, segment: string) => `/${segment.toUpperCase()}`);

/**
 * Limits and the no-store header are decided by the route the router matched, never by the raw URL:
 * every route's path, percent-encoded or in other case, meets the same limit and header as its plain
 * spelling (an encoded `/%61uth/login` once went past the sign-in limit).
 */
describe('limits and caching decided by the matched route', () => {
  let app: FastifyInstance;
  let routes: Array<{ method: Method; path: string }>;
  let staticRoot: string;

  beforeAll(async () => {
    // No build of the app to serve: an unknown GET answers the app's page as 503, whatever was built.
    staticRoot = await mkdtemp(path.join(tmpdir(), 'dental-no-build-'));
    app = await createTestApp({ apiRateLimit: API_LIMIT, loginRateLimit: LOGIN_LIMIT, staticRoot });
    await app.ready();
    const document = app.swagger() as { paths: Record<string, Record<string, unknown>> };
    // Every route of the API; `/`, the shell's page, is one of the app's files.
    routes = Object.entries(document.paths)
      .filter(([path]) => path !== '/')
      .flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => ({ method: method.toUpperCase() as Method, path })),
      );
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await rm(staticRoot, { recursive: true, force: true });
  }, 60_000);

  // Each sent from an address of its own, so the budgets of one spelling never run out in the test.
  let address = 0;
  const send = (method: Method, url: string): Promise<LightMyRequestResponse> => {
    address += 1;
    return app.inject({ method, url, remoteAddress: `10.9.${address >> 8}.${address & 255}` });
  };

  it('every route, percent-encoded, is counted against its own limit and never kept by a cache', async () => {
    expect(routes.length).toBeGreaterThan(60);
    for (const { method, path } of routes) {
      const plain = await send(method, concrete(path));
      const spelled = await send(method, encoded(concrete(path)));
      const where = `${method} ${encoded(concrete(path))}`;
      expect({ where, status: spelled.statusCode }).toEqual({ where, status: plain.statusCode });
      expect({ where, limit: spelled.headers['x-ratelimit-limit'] }).toEqual({
        where,
        limit: plain.headers['x-ratelimit-limit'],
      });
      expect({ where, cache: spelled.headers['cache-control'] }).toEqual({
        where,
        cache: plain.headers['cache-control'],
      });
      if (path !== '/api/health')
        expect({ where, limited: plain.headers['x-ratelimit-limit'] !== undefined }).toEqual({
          where,
          limited: true,
        });
    }
  });

  it("every route in other case is no route of the API: a GET opens the app's page, the rest 404 counted", async () => {
    for (const { method, path } of routes) {
      const response = await send(method, capitalised(concrete(path)));
      const where = `${method} ${capitalised(concrete(path))}`;
      if (method === 'GET') {
        // The app's page, whose router shows its 404 (no build here: 503 saying so).
        expect({ where, status: response.statusCode, type: response.headers['content-type'] }).toEqual({
          where,
          status: 503,
          type: expect.stringMatching(/^text\/plain/),
        });
        continue;
      }
      expect({ where, status: response.statusCode }).toEqual({ where, status: 404 });
      expect({ where, limit: response.headers['x-ratelimit-limit'] }).toEqual({
        where,
        limit: String(API_LIMIT),
      });
      expect({ where, cache: response.headers['cache-control'] }).toEqual({ where, cache: 'no-store' });
    }
  });

  it('sign-in attempts spelled two ways share one budget: the next is refused with 429', async () => {
    const attempt = (url: string) =>
      app.inject({
        method: 'POST',
        url,
        remoteAddress: '10.8.0.1',
        payload: { username: 'nobody.here', password: 'guess' },
      });
    const codes: number[] = [];
    for (const url of ['/auth/login', '/%61uth/login', '/auth/%6Cogin', '/%61%75th/login']) {
      codes.push((await attempt(url)).statusCode);
    }
    expect(codes).toEqual([401, 401, 401, 429]);
    const right = await app.inject({
      method: 'POST',
      url: '/%61uth/login',
      remoteAddress: '10.8.0.1',
      payload: { username: 'admin', password: 'admin123' },
    });
    expect(right.statusCode).toBe(429);
  });
});
