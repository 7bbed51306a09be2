import { Writable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { REFRESH_COOKIE } from '../../auth/refreshTokens';
import { loadConfig } from '../../config';
import { auditLog, users } from '../../db/schema';
import { addStaff, authHeader, createTestApp, login } from '../../test/testApp';
import { LOCKOUT_MINUTES, MAX_FAILED_LOGINS } from './signIn';

const DEMO_ACCOUNTS = [
  { username: 'admin', password: 'admin123', role: 'admin', clinic: 'Bright Smile Dental' },
  {
    username: 'receptionist',
    password: 'receptionist123',
    role: 'receptionist',
    clinic: 'Bright Smile Dental',
  },
  { username: 'dentist', password: 'dentist123', role: 'dentist', clinic: 'Bright Smile Dental' },
  { username: 'harbor.admin', password: 'harbor123', role: 'admin', clinic: 'Harbor Dental' },
] as const;

describe('auth API', () => {
  let app: FastifyInstance;
  let adminToken: string;
  let counter = 0;

  const db = () => app.database.db;
  const postLogin = (payload: unknown, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/auth/login',
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const refreshCookieOf = (response: LightMyRequestResponse) =>
    response.cookies.find((cookie) => cookie.name === REFRESH_COOKIE);
  const refreshWith = (cookie: string | undefined) =>
    app.inject({
      method: 'POST',
      url: '/auth/refresh',
      ...(cookie === undefined ? {} : { cookies: { [REFRESH_COOKIE]: cookie } }),
    });
  const me = (headers: Record<string, string>) => app.inject({ method: 'GET', url: '/auth/me', headers });

  /** A throw-away receptionist, so that locking or deactivating it leaves the demo accounts alone. */
  const createStaff = async () => {
    counter += 1;
    const body = {
      name: `Auth Test ${counter}`,
      username: `auth.test${counter}`,
      email: `auth.test${counter}@example.com`,
      password: `secret-pass-${counter}`,
      role: 'receptionist',
    };
    const response = await app.inject({
      method: 'POST',
      url: '/api/users',
      headers: authHeader(adminToken),
      payload: body,
    });
    expect(response.statusCode).toBe(201);
    return { id: (response.json() as { id: number }).id, username: body.username, password: body.password };
  };

  beforeAll(async () => {
    // The per-address sign-in limit is raised: this file signs in far more than 20 times a minute.
    app = await createTestApp({ loginRateLimit: 100_000 });
    adminToken = (await login(app, 'admin', 'admin123')).token;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  }, 60_000);

  describe('POST /auth/login', () => {
    it.each(DEMO_ACCOUNTS)(
      'signs in $username with a token, the user and an HttpOnly refresh cookie',
      async ({ username, password, role, clinic }) => {
        const response = await postLogin({ username, password });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toMatch(/application\/json/);
        const body = response.json();
        expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
        expect(body.access_token).toEqual(expect.any(String));
        expect(body.access_token.split('.')).toHaveLength(3);
        expect(body.user).toMatchObject({
          username,
          role,
          is_active: true,
          clinic_name: clinic,
          id: expect.any(Number),
          clinic_id: expect.any(Number),
          email: expect.stringContaining('@'),
          name: expect.any(String),
        });
        expect(body.user.last_login).toEqual(expect.any(String));
        // Nothing secret travels back: no password, no hash, no scrypt parameters.
        expect(response.body).not.toMatch(/password|hash|scrypt|salt/i);
        expect(response.body).not.toContain(password);

        const cookie = refreshCookieOf(response);
        expect(cookie).toBeDefined();
        expect(cookie?.value).toMatch(/^[\w-]{20,}$/);
        expect(cookie?.httpOnly).toBe(true);
        expect(cookie?.sameSite).toMatch(/strict/i);
        expect(cookie?.path).toBe('/auth');
        // The token in the cookie is not the access token.
        expect(cookie?.value).not.toBe(body.access_token);

        // The access token works at once.
        const profile = await me(authHeader(body.access_token));
        expect(profile.statusCode).toBe(200);
        expect(profile.json().user).toMatchObject({ username, role });
      },
    );

    it('keeps the clinics apart: each admin belongs to their own clinic', async () => {
      const bright = await login(app, 'admin', 'admin123');
      const harbor = await login(app, 'harbor.admin', 'harbor123');
      expect(bright.user.clinic_id).not.toBe(harbor.user.clinic_id);
    });

    it('accepts the e-mail address and any letter case for the username', async () => {
      const byEmail = await postLogin({ username: 'admin@brightsmile.example', password: 'admin123' });
      expect(byEmail.statusCode).toBe(200);
      expect(byEmail.json().user.username).toBe('admin');
      const upper = await postLogin({ username: '  ADMIN ', password: 'admin123' });
      expect(upper.statusCode).toBe(200);
      expect(upper.json().user.username).toBe('admin');
    });

    it('does not accept the password in another letter case', async () => {
      const response = await postLogin({ username: 'admin', password: 'ADMIN123' });
      expect(response.statusCode).toBe(401);
    });

    it('remember=true gives a cookie that outlives the browser; otherwise a session cookie', async () => {
      const remembered = refreshCookieOf(
        await postLogin({ username: 'admin', password: 'admin123', remember: true }),
      );
      expect(remembered?.maxAge).toBe(30 * 24 * 60 * 60);
      const session = refreshCookieOf(
        await postLogin({ username: 'admin', password: 'admin123', remember: false }),
      );
      expect(session).toBeDefined();
      expect(session?.maxAge).toBeUndefined();
      expect(session?.expires).toBeUndefined();
    });

    it('answers 401 with a JSON message for a wrong password, and the same for an unknown user', async () => {
      const wrong = await postLogin({ username: 'receptionist', password: 'not-the-password' });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.headers['content-type']).toMatch(/application\/json/);
      expect(wrong.json()).toEqual({ message: 'Invalid username or password' });
      expect(refreshCookieOf(wrong)).toBeUndefined();

      // No hint whether the account exists.
      const unknown = await postLogin({ username: 'nobody.here', password: 'whatever' });
      expect(unknown.statusCode).toBe(401);
      expect(unknown.json()).toEqual(wrong.json());

      // One wrong attempt does not block the right one afterwards.
      expect((await postLogin({ username: 'receptionist', password: 'receptionist123' })).statusCode).toBe(
        200,
      );
    });

    it.each([
      ['an empty body', {}],
      ['no password', { username: 'admin' }],
      ['no username', { password: 'admin123' }],
      ['empty fields', { username: '', password: '' }],
      ['an empty password', { username: 'admin', password: '' }],
      ['a blank username', { username: '   ', password: 'admin123' }],
    ])('answers 400 "Please fill in all fields" for %s', async (_label, payload) => {
      const response = await postLogin(payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('Please fill in all fields');
      expect(refreshCookieOf(response)).toBeUndefined();
    });

    it('answers 400 JSON when there is no body at all', async () => {
      const response = await app.inject({ method: 'POST', url: '/auth/login' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: expect.any(String) });
      expect(response.body).not.toContain('access_token');
    });

    it.each([
      ['a 10,000-character username', { username: 'a'.repeat(10_000), password: 'admin123' }],
      ['a 100,000-character password', { username: 'admin', password: 'p'.repeat(100_000) }],
      ['an object as username', { username: { $ne: null }, password: 'admin123' }],
      ['an array as username', { username: ['admin'], password: 'admin123' }],
      ['a number as password', { username: 'admin', password: 123 }],
      ['null fields', { username: null, password: null }],
      ['a string as remember', { username: 'admin', password: 'admin123', remember: 'yes' }],
      ['SQL in the username', { username: "' OR 1=1 --", password: 'x' }],
      ['SQL in the password', { username: 'admin', password: "' OR '1'='1" }],
      ['a LIKE wildcard as username', { username: '%', password: 'admin123' }],
      ['a NUL byte in the username', { username: 'admin\u0000', password: 'admin123' }],
    ])('refuses %s with a 4xx JSON answer, never a 500 nor a session', async (_label, payload) => {
      const response = await postLogin(payload);
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      expect(response.headers['content-type']).toMatch(/application\/json/);
      expect(response.json().message).toEqual(expect.any(String));
      expect(response.body).not.toContain('access_token');
      expect(refreshCookieOf(response)).toBeUndefined();
    });

    it('refuses a body that is not JSON with a 4xx JSON answer', async () => {
      const broken = await postLogin('{"username": "admin", "password": ', {
        'content-type': 'application/json',
      });
      expect(broken.statusCode).toBe(400);
      expect(broken.json().message).toEqual(expect.any(String));

      const text = await postLogin('username=admin&password=admin123', {
        'content-type': 'application/x-www-form-urlencoded',
      });
      expect(text.statusCode).toBeGreaterThanOrEqual(400);
      expect(text.statusCode).toBeLessThan(500);
      expect(text.json().message).toEqual(expect.any(String));
    });

    it('refuses a deactivated account with 403 and a message, and ends its sessions', async () => {
      const staff = await createStaff();
      const before = await postLogin({ username: staff.username, password: staff.password });
      expect(before.statusCode).toBe(200);
      const oldToken = before.json().access_token as string;
      const oldCookie = refreshCookieOf(before)?.value;

      const deactivate = await app.inject({
        method: 'PATCH',
        url: `/api/users/${staff.id}/status`,
        headers: authHeader(adminToken),
        payload: { isActive: false },
      });
      expect(deactivate.statusCode).toBe(200);
      expect(deactivate.json().is_active).toBe(false);

      const refused = await postLogin({ username: staff.username, password: staff.password });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({
        message: 'This account is deactivated. Ask your clinic administrator.',
      });
      expect(refused.body).not.toContain('access_token');
      expect(refreshCookieOf(refused)).toBeUndefined();

      // The token and the cookie it had before no longer work.
      expect((await me(authHeader(oldToken))).statusCode).toBe(401);
      expect((await refreshWith(oldCookie)).statusCode).toBe(401);

      // Active again: signs in again.
      await app.inject({
        method: 'PATCH',
        url: `/api/users/${staff.id}/status`,
        headers: authHeader(adminToken),
        payload: { isActive: true },
      });
      expect((await postLogin({ username: staff.username, password: staff.password })).statusCode).toBe(200);
    });

    it(`locks an account for ${LOCKOUT_MINUTES} minutes after ${MAX_FAILED_LOGINS} wrong passwords`, async () => {
      expect(MAX_FAILED_LOGINS).toBe(5);
      expect(LOCKOUT_MINUTES).toBe(15);
      const staff = await createStaff();
      for (let attempt = 1; attempt <= MAX_FAILED_LOGINS; attempt += 1) {
        const response = await postLogin({ username: staff.username, password: `wrong-${attempt}` });
        expect(response.statusCode).toBe(401);
        expect(response.json().message).toBe('Invalid username or password');
      }
      // Now even the right password is refused, with a message saying why and for how long.
      const locked = await postLogin({ username: staff.username, password: staff.password });
      expect(locked.statusCode).toBe(429);
      expect(locked.headers['content-type']).toMatch(/application\/json/);
      expect(locked.json()).toEqual({
        message: 'Too many failed sign-in attempts. Try again in 15 minutes.',
      });
      expect(refreshCookieOf(locked)).toBeUndefined();
      // By e-mail address too: it is the same account.
      const byEmail = await postLogin({
        username: `${staff.username}@example.com`,
        password: staff.password,
      });
      expect(byEmail.statusCode).toBe(429);

      const audited = await db()
        .select({ action: auditLog.action })
        .from(auditLog)
        .where(and(eq(auditLog.userId, staff.id), eq(auditLog.entity, 'user')));
      const actions = audited.map((row) => row.action);
      expect(actions.filter((action) => action === 'login_failed')).toHaveLength(MAX_FAILED_LOGINS - 1);
      expect(actions).toContain('login_locked');

      // Other accounts are not affected.
      expect((await postLogin({ username: 'receptionist', password: 'receptionist123' })).statusCode).toBe(
        200,
      );
    });

    it('a successful sign-in resets the count of failures', async () => {
      const staff = await createStaff();
      for (let attempt = 1; attempt < MAX_FAILED_LOGINS; attempt += 1) {
        expect((await postLogin({ username: staff.username, password: 'wrong' })).statusCode).toBe(401);
      }
      expect((await postLogin({ username: staff.username, password: staff.password })).statusCode).toBe(200);
      for (let attempt = 1; attempt < MAX_FAILED_LOGINS; attempt += 1) {
        expect((await postLogin({ username: staff.username, password: 'wrong' })).statusCode).toBe(401);
      }
      expect((await postLogin({ username: staff.username, password: staff.password })).statusCode).toBe(200);
    });

    // Each failure is counted by one UPDATE statement, so attempts racing each other all count.
    it('wrong passwords sent all at once still lock the account', async () => {
      const staff = await createStaff();
      const attempts = await Promise.all(
        Array.from({ length: MAX_FAILED_LOGINS * 2 }, (_, index) =>
          postLogin({ username: staff.username, password: `wrong-${index}` }),
        ),
      );
      for (const attempt of attempts) expect([401, 429]).toContain(attempt.statusCode);
      const right = await postLogin({ username: staff.username, password: staff.password });
      expect(right.statusCode).toBe(429);
      expect(right.body).not.toContain('access_token');
    });
  });

  describe('GET /auth/me', () => {
    it('answers the signed-in user for a valid token', async () => {
      const signedIn = await login(app, 'dentist', 'dentist123');
      const response = await me(authHeader(signedIn.token));
      expect(response.statusCode).toBe(200);
      const { user } = response.json();
      expect(user).toMatchObject({
        id: signedIn.user.id,
        username: 'dentist',
        role: 'dentist',
        clinic_name: 'Bright Smile Dental',
        is_active: true,
      });
      expect(user.dentist_id).toEqual(expect.any(Number));
      expect(response.body).not.toMatch(/password|hash/i);
    });

    it.each([
      ['no Authorization header', {}],
      ['an empty bearer', { authorization: 'Bearer ' }],
      ['a garbage token', { authorization: 'Bearer not.a.jwt' }],
      ['random text', { authorization: 'Bearer abcdefghijklmnop' }],
      ['another scheme', { authorization: 'Basic YWRtaW46YWRtaW4xMjM=' }],
      [
        'a token signed with another key',
        {
          // {"alg":"HS256","typ":"JWT"}.{"sub":"1","cid":1,"role":"admin"} signed with "not-the-secret".
          authorization:
            'Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIiwiY2lkIjoxLCJyb2xlIjoiYWRtaW4ifQ.2-Hf6ktS3W4KcXWyK44QFZhtxt6mYlu2a8aF0hC9sFs',
        },
      ],
      [
        'an unsigned token (alg none)',
        {
          authorization:
            'Bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiIxIiwiY2lkIjoxLCJyb2xlIjoiYWRtaW4ifQ.',
        },
      ],
    ])('answers 401 JSON for %s', async (_label, headers) => {
      const response = await me(headers as Record<string, string>);
      expect(response.statusCode).toBe(401);
      expect(response.headers['content-type']).toMatch(/application\/json/);
      expect(response.json()).toEqual({ message: expect.any(String) });
      expect(response.body).not.toContain('username');
    });

    it('does not accept the refresh cookie in place of an access token', async () => {
      const signIn = await postLogin({ username: 'admin', password: 'admin123' });
      const cookie = refreshCookieOf(signIn)?.value as string;
      const byCookie = await app.inject({
        method: 'GET',
        url: '/auth/me',
        cookies: { [REFRESH_COOKIE]: cookie },
      });
      expect(byCookie.statusCode).toBe(401);
      const asBearer = await me(authHeader(cookie));
      expect(asBearer.statusCode).toBe(401);
    });
  });

  describe('POST /auth/refresh', () => {
    it('keeps the session to its lifetime from the sign-in (12 hours), however often it is refreshed', async () => {
      const signIn = await postLogin({ username: 'receptionist', password: 'receptionist123' });
      const first = refreshCookieOf(signIn)?.value as string;
      const ends = async () => {
        const { rows } = await app.database.db.execute(
          sql`select max(expires_at) as ends from refresh_tokens where revoked_at is null and user_id = ${
            (signIn.json() as { user: { id: number } }).user.id
          } and created_at > now() - interval '1 minute'`,
        );
        return new Date((rows[0] as { ends: string | Date }).ends).getTime();
      };
      const signedInEnds = await ends();
      expect(signedInEnds - Date.now()).toBeGreaterThan(12 * 60 * 60 * 1000 - 60_000);
      const refreshed = await refreshWith(first);
      expect(refreshed.statusCode).toBe(200);
      // The rotated token ends when the session does: use does not extend it.
      expect(await ends()).toBe(signedInEnds);
      // Twelve hours on (its end moved into the past), a refresh is refused: sign in again.
      await app.database.db.execute(
        sql`update refresh_tokens set expires_at = now() - interval '1 second' where revoked_at is null and expires_at = ${new Date(signedInEnds)}`,
      );
      const late = await refreshWith(refreshCookieOf(refreshed)?.value as string);
      expect(late.statusCode).toBe(401);
    });

    it('trades the cookie for a new access token and rotates the cookie; the old cookie then fails', async () => {
      const signIn = await postLogin({
        username: 'receptionist',
        password: 'receptionist123',
        remember: true,
      });
      const first = refreshCookieOf(signIn)?.value as string;
      expect(first).toEqual(expect.any(String));

      const refreshed = await refreshWith(first);
      expect(refreshed.statusCode).toBe(200);
      const body = refreshed.json();
      expect(body.access_token).toEqual(expect.any(String));
      expect(body.user).toMatchObject({ username: 'receptionist', role: 'receptionist' });
      expect(refreshed.body).not.toMatch(/password|hash/i);
      const second = refreshCookieOf(refreshed);
      expect(second?.value).toEqual(expect.any(String));
      expect(second?.value).not.toBe(first);
      expect(second?.httpOnly).toBe(true);
      // A remembered session stays remembered.
      expect(second?.maxAge).toBe(30 * 24 * 60 * 60);

      // The new access token works.
      expect((await me(authHeader(body.access_token))).statusCode).toBe(200);

      // The old cookie was used up.
      const replay = await refreshWith(first);
      expect(replay.statusCode).toBe(401);
      expect(replay.json()).toEqual({ message: 'Session expired. Please sign in again.' });
      expect(replay.body).not.toContain('access_token');
    });

    it('a replayed cookie ends the whole session: its successor is revoked too', async () => {
      const signIn = await postLogin({ username: 'dentist', password: 'dentist123' });
      const first = refreshCookieOf(signIn)?.value as string;
      const refreshed = await refreshWith(first);
      expect(refreshed.statusCode).toBe(200);
      const second = refreshCookieOf(refreshed)?.value as string;

      expect((await refreshWith(first)).statusCode).toBe(401);
      expect((await refreshWith(second)).statusCode).toBe(401);
    });

    it('a session that was not remembered stays a browser-session cookie after rotation', async () => {
      const signIn = await postLogin({ username: 'dentist', password: 'dentist123', remember: false });
      const refreshed = await refreshWith(refreshCookieOf(signIn)?.value);
      expect(refreshed.statusCode).toBe(200);
      const cookie = refreshCookieOf(refreshed);
      expect(cookie?.value).toEqual(expect.any(String));
      expect(cookie?.maxAge).toBeUndefined();
    });

    it('answers 401 JSON without a cookie or with a made-up one', async () => {
      const none = await refreshWith(undefined);
      expect(none.statusCode).toBe(401);
      expect(none.json()).toEqual({ message: 'Session expired. Please sign in again.' });
      const madeUp = await refreshWith('x'.repeat(43));
      expect(madeUp.statusCode).toBe(401);
      expect(madeUp.json().message).toEqual(expect.any(String));
      expect(madeUp.body).not.toContain('access_token');
    });

    it('does not take the access token as a refresh token', async () => {
      const signedIn = await login(app, 'admin', 'admin123');
      expect((await refreshWith(signedIn.token)).statusCode).toBe(401);
      const byHeader = await app.inject({
        method: 'POST',
        url: '/auth/refresh',
        headers: authHeader(signedIn.token),
      });
      expect(byHeader.statusCode).toBe(401);
    });
  });

  describe('POST /auth/logout', () => {
    it('revokes and clears the refresh cookie: refresh then fails', async () => {
      const signIn = await postLogin({ username: 'admin', password: 'admin123', remember: true });
      const cookie = refreshCookieOf(signIn)?.value as string;

      const logout = await app.inject({
        method: 'POST',
        url: '/auth/logout',
        cookies: { [REFRESH_COOKIE]: cookie },
      });
      expect(logout.statusCode).toBe(200);
      expect(logout.json()).toEqual({ message: 'Signed out' });
      // The browser is told to drop the cookie.
      const cleared = refreshCookieOf(logout);
      expect(cleared).toBeDefined();
      expect(cleared?.value).toBe('');
      expect(cleared?.path).toBe('/auth');
      expect(cleared?.expires?.getTime() ?? 0).toBeLessThanOrEqual(Date.now());

      const refresh = await refreshWith(cookie);
      expect(refresh.statusCode).toBe(401);
      expect(refresh.body).not.toContain('access_token');
    });

    it('answers 200 without a cookie (nothing to end) and leaves other sessions alone', async () => {
      const other = await postLogin({ username: 'receptionist', password: 'receptionist123' });
      const otherCookie = refreshCookieOf(other)?.value as string;
      const logout = await app.inject({ method: 'POST', url: '/auth/logout' });
      expect(logout.statusCode).toBe(200);
      expect(logout.json()).toEqual({ message: 'Signed out' });
      expect((await refreshWith(otherCookie)).statusCode).toBe(200);
    });

    it("ends only the session it was given, not the user's other sessions", async () => {
      const laptop = refreshCookieOf(await postLogin({ username: 'dentist', password: 'dentist123' }))?.value;
      const phone = refreshCookieOf(await postLogin({ username: 'dentist', password: 'dentist123' }))?.value;
      await app.inject({
        method: 'POST',
        url: '/auth/logout',
        cookies: { [REFRESH_COOKIE]: laptop as string },
      });
      expect((await refreshWith(laptop)).statusCode).toBe(401);
      expect((await refreshWith(phone)).statusCode).toBe(200);
    });
  });
});

describe('auth API: sign-in attempts per address', () => {
  const LIMIT = 3;
  let app: FastifyInstance;
  const attempt = (headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/auth/login',
      headers,
      payload: { username: 'nobody.here', password: 'guess' },
    });

  beforeAll(async () => {
    app = await createTestApp({ loginRateLimit: LIMIT });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  }, 60_000);

  it(`refuses the attempt after ${LIMIT} a minute from one address with 429 JSON`, async () => {
    for (let index = 0; index < LIMIT; index += 1) expect((await attempt()).statusCode).toBe(401);
    const limited = await attempt();
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['content-type']).toMatch(/application\/json/);
    expect(limited.json()).toEqual({ message: expect.stringMatching(/retry|try again/i) });
    // Even the right password waits: the limit is on the address, not the account.
    const right = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { username: 'admin', password: 'admin123' },
    });
    expect(right.statusCode).toBe(429);
    expect(right.body).not.toContain('access_token');
  });

  // No proxy is trusted unless TRUST_PROXY names one: a client cannot pick a new address per request.
  it('a made-up X-Forwarded-For does not buy more attempts', async () => {
    const codes: number[] = [];
    for (let index = 0; index < LIMIT + 2; index += 1) {
      codes.push((await attempt({ 'x-forwarded-for': `198.51.100.${index + 1}` })).statusCode);
    }
    expect(codes).toContain(429);
  });
});

describe('auth API: the server log of sign-ins with unknown names', () => {
  it('keeps a fingerprint of the name, never its text (it may be a password typed in the wrong field)', async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = await createTestApp({ logLevel: 'warn', logStream });
    try {
      const typedPassword = 'Tr0ub4dor&3-horse-staple';
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const response = await app.inject({
          method: 'POST',
          url: '/auth/login',
          payload: { username: typedPassword, password: 'whatever' },
        });
        expect(response.statusCode).toBe(401);
      }
      const logged = lines
        .map((line) => JSON.parse(line))
        .filter((line) => line.msg === 'sign-in with an unknown name');
      expect(logged).toHaveLength(2);
      expect(lines.join('')).not.toContain(typedPassword);
      expect(lines.join('').toLowerCase()).not.toContain(typedPassword.toLowerCase());
      expect(logged[0]).toMatchObject({
        usernameFingerprint: expect.stringMatching(/^[0-9a-f]{16}$/),
        usernameLength: 24,
      });
      // The same name tried again shows as the same fingerprint.
      expect(logged[1].usernameFingerprint).toBe(logged[0].usernameFingerprint);
    } finally {
      await app.close();
    }
  });
});

describe('auth API: served over https only', () => {
  const signIn = (app: FastifyInstance) =>
    app.inject({ method: 'POST', url: '/auth/login', payload: { username: 'admin', password: 'admin123' } });
  const cookieOf = (response: LightMyRequestResponse) =>
    response.cookies.find((cookie) => cookie.name === REFRESH_COOKIE);

  it('makes the refresh cookie Secure whatever the request says, and sends HSTS', async () => {
    const app = await createTestApp({ httpsOnly: true });
    try {
      // A plain-http request (or a proxy's forged header, when no proxy is trusted) changes nothing.
      const response = await signIn(app);
      expect(response.statusCode).toBe(200);
      expect(cookieOf(response)?.secure).toBe(true);
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await app.close();
    }
  });

  it("on a clinic's own machine over plain http (HTTPS_ONLY off) the cookie still works, without HSTS", async () => {
    const app = await createTestApp({ httpsOnly: false });
    try {
      const response = await signIn(app);
      expect(cookieOf(response)?.secure).toBeUndefined();
      expect(response.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});

describe('auth API: password hashes at the server cost', () => {
  it("hashes at OWASP's cost by default, and raises a cheaper stored hash at its owner's sign-in", async () => {
    expect(loadConfig({}, false).passwordHashCost).toBe(17);
    // A clinic whose accounts were hashed at the lowest cost moves to 2^15.
    const app = await createTestApp({ passwordHashCost: 15 });
    try {
      const hashOf = async (username: string) =>
        (
          await app.database.db
            .select({ passwordHash: users.passwordHash })
            .from(users)
            .where(eq(users.username, username))
        )[0]?.passwordHash ?? '';
      const before = await hashOf('receptionist');
      expect(before).toMatch(/^scrypt\$16384\$8\$1\$/);
      await login(app, 'receptionist', 'receptionist123');
      const after = await hashOf('receptionist');
      expect(after).toMatch(/^scrypt\$32768\$8\$1\$/);
      // The same password still signs in, and the raise ended no session.
      const again = await login(app, 'receptionist', 'receptionist123');
      expect(
        (await app.inject({ method: 'GET', url: '/auth/me', headers: authHeader(again.token) })).statusCode,
      ).toBe(200);
      expect(await hashOf('receptionist')).toBe(after);
    } finally {
      await app.close();
    }
  });
});

describe("auth API: a password chosen by someone else (an imported clinic's one-time password)", () => {
  let app: FastifyInstance;
  let adminToken: string;
  beforeAll(async () => {
    app = await createTestApp();
    adminToken = (await login(app, 'admin', 'admin123')).token;
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  }, 60_000);

  const post = (url: string, payload: object) => app.inject({ method: 'POST', url, payload });

  it("opens only the choice of the account's own password; then it signs in, and the given one is gone", async () => {
    const staff = await addStaff(app, adminToken, 'admin');
    await app.database.db.update(users).set({ passwordMustChange: true }).where(eq(users.id, staff.id));
    const first = await post('/auth/login', { username: staff.username, password: staff.password });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ password_change_required: true, mfa_token: expect.any(String) });
    expect(first.cookies.find((cookie) => cookie.name === REFRESH_COOKIE)).toBeUndefined();
    const token = first.json().mfa_token as string;
    // The token is no access token.
    expect(
      (await app.inject({ method: 'GET', url: '/auth/me', headers: authHeader(token) })).statusCode,
    ).toBe(401);

    const same = await post('/auth/password/choose', { mfa_token: token, new_password: staff.password });
    expect(same.statusCode).toBe(400);
    expect(same.json().errors).toEqual([
      { field: 'new_password', message: 'Choose a password of your own, not the one you were given' },
    ]);
    const common = await post('/auth/password/choose', { mfa_token: token, new_password: 'password123' });
    expect(common.json().errors[0]).toMatchObject({ field: 'new_password' });

    const chosen = await post('/auth/password/choose', {
      mfa_token: token,
      new_password: 'my-own-quiet-harbour',
    });
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json()).toMatchObject({
      access_token: expect.any(String),
      user: { username: staff.username },
    });
    expect(chosen.cookies.find((cookie) => cookie.name === REFRESH_COOKIE)?.value).toEqual(
      expect.any(String),
    );
    // Spent: the token opens nothing again.
    const again = await post('/auth/password/choose', {
      mfa_token: token,
      new_password: 'another-quiet-bay',
    });
    expect(again.statusCode).toBe(401);
    expect(
      (await post('/auth/login', { username: staff.username, password: staff.password })).statusCode,
    ).toBe(401);
    const own = await post('/auth/login', { username: staff.username, password: 'my-own-quiet-harbour' });
    expect(own.json()).toMatchObject({ access_token: expect.any(String) });
    const [record] = await app.database.db
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.userId, staff.id), eq(auditLog.action, 'update')));
    expect(record?.details).toMatchObject({ changed: ['password'] });
  });

  it('refuses a token of another kind, or an account whose password is its own', async () => {
    const challenge = await post('/auth/password/choose', {
      mfa_token: 'not-a-token',
      new_password: 'my-own-quiet-harbour',
    });
    expect(challenge.statusCode).toBe(401);
    const staff = await addStaff(app, adminToken);
    const signedIn = await login(app, staff.username, staff.password);
    const asAccess = await post('/auth/password/choose', {
      mfa_token: signedIn.token,
      new_password: 'my-own-quiet-harbour',
    });
    expect(asAccess.statusCode).toBe(401);
  });
});
