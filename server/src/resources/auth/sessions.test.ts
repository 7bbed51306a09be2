import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { REFRESH_COOKIE } from '../../auth/refreshTokens';
import { auditLog, refreshTokens } from '../../db/schema';
import { authHeader, createTestApp, login } from '../../test/testApp';

/** Changing your own password, and the clinic's idle sign-out time, against the real server. */
describe('sessions: password change and idle sign-out', () => {
  let app: FastifyInstance;
  let adminToken: string;
  let counter = 0;

  const signIn = async (username: string, password: string) => {
    const response = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { username, password },
    });
    expect(response.statusCode).toBe(200);
    const cookie = response.cookies.find((each) => each.name === REFRESH_COOKIE)?.value ?? '';
    return {
      token: response.json().access_token as string,
      cookie,
      userId: response.json().user.id as number,
    };
  };
  const refresh = (cookie: string) =>
    app.inject({ method: 'POST', url: '/auth/refresh', cookies: { [REFRESH_COOKIE]: cookie } });
  const me = (token: string) => app.inject({ method: 'GET', url: '/auth/me', headers: authHeader(token) });
  const changePassword = (token: string, cookie: string, payload: object) =>
    app.inject({
      method: 'POST',
      url: '/auth/change-password',
      headers: authHeader(token),
      cookies: { [REFRESH_COOKIE]: cookie },
      payload,
    });
  const fieldErrors = (response: LightMyRequestResponse) =>
    (response.json().errors ?? []) as Array<{ field: string; message: string }>;

  const createStaff = async () => {
    counter += 1;
    const body = {
      name: `Session Test ${counter}`,
      username: `session.test${counter}`,
      email: `session.test${counter}@example.com`,
      password: `first-secret-${counter}`,
      role: 'receptionist',
    };
    const response = await app.inject({
      method: 'POST',
      url: '/api/users',
      headers: authHeader(adminToken),
      payload: body,
    });
    expect(response.statusCode).toBe(201);
    return body;
  };

  beforeAll(async () => {
    app = await createTestApp();
    adminToken = (await login(app, 'admin', 'admin123')).token;
  });

  afterAll(async () => {
    await app?.close();
  }, 60_000);

  it('changes your own password: this session goes on, the others end at once', async () => {
    const staff = await createStaff();
    const other = await signIn(staff.username, staff.password);
    const here = await signIn(staff.username, staff.password);

    const changed = await changePassword(here.token, here.cookie, {
      current_password: staff.password,
      new_password: 'a-much-better-secret',
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().message).toBe(
      'Your password was changed. Your other sessions have been signed out.',
    );
    const newCookie = changed.cookies.find((each) => each.name === REFRESH_COOKIE)?.value ?? '';
    expect((await me(changed.json().access_token)).statusCode).toBe(200);
    expect((await refresh(newCookie)).statusCode).toBe(200);

    const refused = await me(other.token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe('Your password was changed. Please sign in again.');
    expect((await me(here.token)).statusCode).toBe(401);
    expect((await refresh(other.cookie)).statusCode).toBe(401);

    const oldPassword = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { username: staff.username, password: staff.password },
    });
    expect(oldPassword.statusCode).toBe(401);
    await signIn(staff.username, 'a-much-better-secret');
  });

  it('refuses a wrong current password, a common, short or unchanged new one, changing nothing', async () => {
    const staff = await createStaff();
    const session = await signIn(staff.username, staff.password);
    const cases: Array<[object, string, string]> = [
      [
        { current_password: 'not-it', new_password: 'fine-new-secret' },
        'current_password',
        'The current password is not right',
      ],
      [
        { current_password: staff.password, new_password: 'password123' },
        'new_password',
        'This password is among the most common passwords: choose another',
      ],
      [{ current_password: staff.password, new_password: 'short' }, 'new_password', 'At least 8 characters'],
      [
        { current_password: staff.password, new_password: staff.password },
        'new_password',
        'The new password must differ from the current one',
      ],
      [{ new_password: 'fine-new-secret' }, 'current_password', 'Required'],
    ];
    for (const [payload, field, message] of cases) {
      const response = await changePassword(session.token, session.cookie, payload);
      expect(response.statusCode).toBe(400);
      const error = fieldErrors(response).find((each) => each.field === field);
      expect(error?.field).toBe(field);
      if (message !== 'Required') expect(error?.message).toBe(message);
    }
    expect((await me(session.token)).statusCode).toBe(200);
    await signIn(staff.username, staff.password);
    const anonymous = await app.inject({
      method: 'POST',
      url: '/auth/change-password',
      payload: { current_password: 'x', new_password: 'fine-new-secret' },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it("ends a session left idle longer than the clinic's idle time (and the token's lifetime)", async () => {
    const staff = await createStaff();
    const saved = await app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: authHeader(adminToken),
      payload: { idleTimeoutMinutes: 10 },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().idleTimeoutMinutes).toBe(10);

    const active = await signIn(staff.username, staff.password);
    const idle = await signIn(staff.username, staff.password);
    const ageSession = async (cookie: string, minutes: number) => {
      const hash = createHash('sha256').update(cookie).digest('base64url');
      await app.database.db
        .update(refreshTokens)
        .set({ createdAt: new Date(Date.now() - minutes * 60_000) })
        .where(eq(refreshTokens.tokenHash, hash));
    };
    // 10 minutes idle plus 15 of an access token's life: 24 minutes is still a live session, 26 is not.
    await ageSession(active.cookie, 24);
    await ageSession(idle.cookie, 26);
    expect((await refresh(active.cookie)).statusCode).toBe(200);
    const ended = await refresh(idle.cookie);
    expect(ended.statusCode).toBe(401);
    expect(ended.json().message).toBe('You were signed out after 10 minutes without activity.');
    const [record] = await app.database.db
      .select({ action: auditLog.action, details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'session_ended'), eq(auditLog.userId, idle.userId)));
    expect(record).toEqual({
      action: 'session_ended',
      details: { ip: '127.0.0.1', reason: 'idle', sessions: 1 },
    });

    const tooShort = await app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: authHeader(adminToken),
      payload: { idleTimeoutMinutes: 2 },
    });
    expect(tooShort.statusCode).toBe(400);
    expect(fieldErrors(tooShort)).toEqual([{ field: 'idleTimeoutMinutes', message: 'At least 5 minutes' }]);
    await app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: authHeader(adminToken),
      payload: { idleTimeoutMinutes: 30 },
    });
  });
});
