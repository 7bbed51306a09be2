import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { authHeader, createTestApp, login } from '../test/testApp';

const INDEX_HTML =
  '<!doctype html><html><head><title>Dental Clinic</title></head><body><div id="root"></div></body></html>';
const MANIFEST = JSON.stringify({ id: 'mf_patients', name: 'mf_patients', metaData: { remoteEntry: {} } });
const HASHED_JS = 'console.log("patients chunk");';
const SECRET = 'DATABASE_PASSWORD=do-not-serve-me';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The server as a browser meets it: the API's errors, security headers, API docs, and the built shell
 * and modules served from a folder laid out like the repository (shell/dist, mf-<id>/dist).
 */
describe('hosting: API basics, security headers, static files', () => {
  let app: FastifyInstance;
  let root: string;
  let shellDist: string;

  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers });
  const expectJsonNotFound = (response: LightMyRequestResponse) => {
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.json()).toEqual({ message: expect.any(String) });
    expect(response.body).not.toMatch(/<html/i);
  };

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'dental-static-'));
    shellDist = path.join(root, 'shell', 'dist');
    mkdirSync(path.join(shellDist, 'static', 'js'), { recursive: true });
    writeFileSync(path.join(shellDist, 'index.html'), INDEX_HTML);
    writeFileSync(path.join(shellDist, 'static', 'js', 'main.1a2b3c4d.js'), 'console.log("shell");');
    const patientsDist = path.join(root, 'mf-patients', 'dist');
    mkdirSync(path.join(patientsDist, 'static', 'js'), { recursive: true });
    writeFileSync(path.join(patientsDist, 'mf-manifest.json'), MANIFEST);
    writeFileSync(path.join(patientsDist, 'remoteEntry.js'), 'var mf_patients;');
    writeFileSync(path.join(patientsDist, 'static', 'js', '412.9f8e7d6c.js'), HASHED_JS);
    writeFileSync(path.join(root, 'mf-patients', 'package.json'), JSON.stringify({ version: '2.3.4' }));
    writeFileSync(path.join(root, 'secret.env'), SECRET);
    writeFileSync(path.join(root, 'shell', 'secret.env'), SECRET);

    app = await createTestApp({ staticRoot: root });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  }, 60_000);

  describe('API basics', () => {
    it('GET /api/health answers 200 with the database reachable, without signing in', async () => {
      const response = await get('/api/health');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'ok', database: 'ok' });
    });

    it.each([
      ['GET', '/api/xyz'],
      ['GET', '/api/xyz/123?x=1'],
      ['POST', '/api/xyz'],
      ['DELETE', '/api/patients/1/nothing-here'],
      ['GET', '/api'],
      ['GET', '/auth/xyz'],
      ['GET', '/auth'],
    ])('%s %s answers 404 JSON { message }, not the HTML page', async (method, url) => {
      const response = await app.inject({ method: method as 'GET', url });
      expectJsonNotFound(response);
    });

    it('a 404 under /api is JSON for a signed-in caller too', async () => {
      const token = (await login(app, 'admin', 'admin123')).token;
      const response = await get('/api/does-not-exist', authHeader(token));
      expectJsonNotFound(response);
    });
  });

  describe('security headers', () => {
    it.each([
      ['an API answer', '/api/health'],
      ['an API error', '/api/xyz'],
      ['the HTML page', '/patients'],
    ])('are set on %s', async (_label, url) => {
      const response = await get(url);
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'self'");
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toContain('unsafe-eval');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['x-powered-by']).toBeUndefined();
    });
  });

  describe('API documentation', () => {
    it('serves an OpenAPI document listing the main routes', async () => {
      const response = await get('/api/docs/json');
      expect(response.statusCode).toBe(200);
      const document = response.json() as {
        openapi: string;
        paths: Record<string, Record<string, unknown>>;
        components?: { securitySchemes?: Record<string, unknown> };
      };
      expect(document.openapi).toMatch(/^3\./);
      for (const route of ['/api/appointments', '/api/patients', '/api/users', '/auth/login']) {
        expect(Object.keys(document.paths)).toContain(route);
      }
      expect(document.paths['/auth/login']).toHaveProperty('post');
      expect(document.paths['/api/appointments']).toHaveProperty('get');
      expect(document.paths['/api/appointments']).toHaveProperty('post');
      expect(document.components?.securitySchemes).toHaveProperty('bearerAuth');
    });

    it('the docs page itself is served', async () => {
      const response = await get('/api/docs/');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
    });
  });

  describe('static hosting', () => {
    it.each(['/', '/patients', '/patients/42', '/appointments?date=2026-01-01', '/no/such/screen'])(
      'GET %s answers the shell page, revalidated on every load',
      async (url) => {
        const response = await get(url);
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toMatch(/text\/html/);
        expect(response.headers['cache-control']).toBe('no-cache');
        expect(response.body).toBe(INDEX_HTML);
      },
    );

    it('a module manifest and remote entry are served with no-cache', async () => {
      const manifest = await get('/modules/patients/mf-manifest.json');
      expect(manifest.statusCode).toBe(200);
      expect(manifest.headers['cache-control']).toBe('no-cache');
      expect(manifest.headers['content-type']).toMatch(/application\/json/);
      expect(manifest.json()).toEqual(JSON.parse(MANIFEST));

      const entry = await get('/modules/patients/remoteEntry.js');
      expect(entry.statusCode).toBe(200);
      expect(entry.headers['cache-control']).toBe('no-cache');
    });

    it('a hashed file is cached for a year, immutable', async () => {
      const chunk = await get('/modules/patients/static/js/412.9f8e7d6c.js');
      expect(chunk.statusCode).toBe(200);
      expect(chunk.headers['cache-control']).toBe(IMMUTABLE);
      expect(chunk.headers['content-type']).toMatch(/javascript/);
      expect(chunk.body).toBe(HASHED_JS);

      const shellChunk = await get('/static/js/main.1a2b3c4d.js');
      expect(shellChunk.statusCode).toBe(200);
      expect(shellChunk.headers['cache-control']).toBe(IMMUTABLE);
    });

    it('index.html asked for by name is not cached either', async () => {
      const response = await get('/index.html');
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-cache');
    });

    it.each([
      '/missing.js',
      '/static/js/missing.1234.js',
      '/modules/patients/missing.js',
      '/modules/appointments/mf-manifest.json',
      '/modules/unknown/mf-manifest.json',
    ])('a missing file %s answers 404 JSON, not the page', async (url) => {
      expectJsonNotFound(await get(url));
    });

    it('the module registry reads each version from the folder it serves', async () => {
      const token = (await login(app, 'receptionist', 'receptionist123')).token;
      const data = (await get('/api/modules', authHeader(token))).json().data as Array<{
        id: string;
        version: string;
      }>;
      expect(data.find((entry) => entry.id === 'patients')?.version).toBe('2.3.4');
      expect(data.find((entry) => entry.id === 'appointments')?.version).toBe('unknown');
    });

    it.each([
      '/../secret.env',
      '/%2e%2e/secret.env',
      '/%2e%2e%2fsecret.env',
      '/modules/patients/../../../secret.env',
      '/modules/patients/%2e%2e/%2e%2e/%2e%2e/secret.env',
      '/modules/patients/..%2f..%2f..%2fsecret.env',
      '/..%5csecret.env',
    ])('never serves a file outside the build folders: %s', async (url) => {
      const response = await get(url);
      expect(response.body).not.toContain(SECRET);
      expect(response.statusCode).not.toBe(500);
    });

    it('a file written after start is served at once (a module rebuilt alone)', async () => {
      const file = path.join(root, 'mf-patients', 'dist', 'static', 'js', '77.aaaabbbb.js');
      writeFileSync(file, 'console.log("rebuilt");');
      const response = await get('/modules/patients/static/js/77.aaaabbbb.js');
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe('console.log("rebuilt");');
    });

    it('answers 503 text while the shell is not built, and the page again once it is', async () => {
      const index = path.join(shellDist, 'index.html');
      const aside = path.join(shellDist, 'index.html.aside');
      renameSync(index, aside);
      try {
        const response = await get('/patients');
        expect(response.statusCode).toBe(503);
        expect(response.body).toMatch(/not built/i);
        // The API does not depend on the shell.
        expect((await get('/api/health')).statusCode).toBe(200);
      } finally {
        renameSync(aside, index);
      }
      expect((await get('/patients')).body).toBe(INDEX_HTML);
    });

    it('a POST to a screen path is a JSON 404, not the page', async () => {
      expectJsonNotFound(await app.inject({ method: 'POST', url: '/patients' }));
    });
  });
});
