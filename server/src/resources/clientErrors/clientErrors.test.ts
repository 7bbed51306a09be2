import type { FastifyInstance } from 'fastify';
import { apiSender, createTestApp, fieldErrorsOf, login } from '../../test/testApp';

const REPORT = {
  module: 'patients',
  release: '1.0.0-0123456789ab',
  phase: 'load',
  message: 'Loading script failed',
};

/** Module failures reported by staff browsers, counted for the Modules page (docs/architecture.md, Module releases). */
describe('client error reports', () => {
  let app: FastifyInstance;
  let admin: string;
  let receptionist: string;
  let harborAdmin: string;
  const send = apiSender(() => app);

  beforeAll(async () => {
    app = await createTestApp();
    admin = (await login(app, 'admin', 'admin123')).token;
    receptionist = (await login(app, 'receptionist', 'receptionist123')).token;
    harborAdmin = (await login(app, 'harbor.admin', 'harbor123')).token;
  });
  afterAll(() => app.close());

  it("counts each module's failures of the last day for the clinic's admin, and for no other clinic", async () => {
    expect((await send(receptionist, 'POST', '/api/client-errors', REPORT)).statusCode).toBe(204);
    expect(
      (
        await send(admin, 'POST', '/api/client-errors', {
          ...REPORT,
          phase: 'render',
          message: 'x is undefined',
        })
      ).statusCode,
    ).toBe(204);
    const counts = await send(admin, 'GET', '/api/client-errors');
    expect(counts.statusCode).toBe(200);
    expect(counts.json().data).toEqual([{ module: 'patients', count: 2, last_at: expect.any(String) }]);
    expect((await send(harborAdmin, 'GET', '/api/client-errors')).json().data).toEqual([]);
    expect((await send(receptionist, 'GET', '/api/client-errors')).statusCode).toBe(403);
    expect(
      (await app.inject({ method: 'POST', url: '/api/client-errors', payload: REPORT })).statusCode,
    ).toBe(401);
  });

  it('refuses a malformed report, naming the field, and keeps nothing of it', async () => {
    const before = (await send(admin, 'GET', '/api/client-errors')).json().data;
    for (const [field, value] of [
      ['phase', 'boot'],
      ['module', 'billing'],
      ['message', 'x'.repeat(501)],
    ] as const) {
      const refused = await send(receptionist, 'POST', '/api/client-errors', { ...REPORT, [field]: value });
      expect(refused.statusCode).toBe(400);
      expect(fieldErrorsOf(refused).map((error) => error.field)).toContain(field);
    }
    expect((await send(admin, 'GET', '/api/client-errors')).json().data).toEqual(before);
  });

  it('takes at most 30 reports a minute from one browser: then 429 with when to try again', async () => {
    const answers = [];
    for (let sent = 0; sent < 31; sent += 1)
      answers.push(await send(harborAdmin, 'POST', '/api/client-errors', { ...REPORT, module: 'dentists' }));
    expect(answers.slice(0, 30).every((answer) => answer.statusCode === 204)).toBe(true);
    const limited = answers[30];
    expect(limited?.statusCode).toBe(429);
    expect(limited?.headers['retry-after']).toBeDefined();
  });
});
