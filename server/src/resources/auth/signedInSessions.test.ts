import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { REFRESH_COOKIE } from '../../auth/refreshTokens';
import { auditLog } from '../../db/schema';
import { addStaff, authHeader, createSecondApp, createTestApp, login } from '../../test/testApp';

const CHROME_ON_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const HOUR = 60 * 60 * 1000;

/** Sessions a user sees and ends in Settings → Security, and an administrator's "sign out everywhere". */
describe('signed-in sessions', () => {
  let app: FastifyInstance;
  let adminToken: string;
  let clinicId: number;

  /** A sign-in from a browser: its access token, refresh cookie and session id. */
  const signIn = async (
    user: { username: string; password: string },
    userAgent: string,
    remember = false,
    on: FastifyInstance = app,
  ) => {
    const response = await on.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'user-agent': userAgent },
      payload: { username: user.username, password: user.password, remember },
    });
    expect(response.statusCode).toBe(200);
    const token = response.json().access_token as string;
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
      sid: string;
    };
    const cookie = response.cookies.find((each) => each.name === REFRESH_COOKIE)?.value ?? '';
    return { token, cookie, session: claims.sid };
  };
  const sessionsOf = async (token: string) => {
    const response = await app.inject({ method: 'GET', url: '/auth/sessions', headers: authHeader(token) });
    expect(response.statusCode).toBe(200);
    return response.json().data as Array<Record<string, unknown>>;
  };
  const me = (token: string, on: FastifyInstance = app) =>
    on.inject({ method: 'GET', url: '/auth/me', headers: authHeader(token) });
  const refresh = (cookie: string) =>
    app.inject({ method: 'POST', url: '/auth/refresh', cookies: { [REFRESH_COOKIE]: cookie } });
  /** A token's answer once it is refused, or after two seconds: an ending is heard through the clinic's channel. */
  const statusWithinMoments = async (token: string, on: FastifyInstance = app) => {
    const deadline = Date.now() + 2_000;
    let status = (await me(token, on)).statusCode;
    while (status !== 401 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      status = (await me(token, on)).statusCode;
    }
    return status;
  };

  beforeAll(async () => {
    app = await createTestApp({ loginRateLimit: 1000 });
    const admin = await login(app, 'admin', 'admin123');
    adminToken = admin.token;
    clinicId = admin.user.clinic_id;
  });
  afterAll(async () => {
    await app.close();
  });

  it('lists where the user is signed in, this device marked, last used first', async () => {
    const staff = await addStaff(app, adminToken);
    const laptop = await signIn(staff, CHROME_ON_LINUX, false);
    const desk = await signIn(staff, FIREFOX_ON_WINDOWS, true);
    const listed = await sessionsOf(desk.token);
    expect(listed).toHaveLength(2);
    const [first, second] = listed;
    expect(first).toMatchObject({
      id: desk.session,
      browser: 'Firefox 133',
      system: 'Windows 10',
      ip: '127.0.0.1',
      remember: true,
      factor: 'password',
      current: true,
    });
    expect(second).toMatchObject({
      id: laptop.session,
      browser: 'Chrome 140',
      system: 'Linux',
      current: false,
    });
    // An absolute lifetime: 30 days remembered, 12 hours otherwise, from the sign-in.
    const lifetime = (session: Record<string, unknown>) =>
      Date.parse(String(session.expires_at)) - Date.parse(String(session.created_at));
    expect(Math.abs(lifetime(first ?? {}) - 30 * 24 * HOUR)).toBeLessThan(60_000);
    expect(Math.abs(lifetime(second ?? {}) - 12 * HOUR)).toBeLessThan(60_000);
  });

  it('ends another session: its next call and its refresh are refused, and it leaves the list', async () => {
    const staff = await addStaff(app, adminToken);
    const laptop = await signIn(staff, CHROME_ON_LINUX);
    const desk = await signIn(staff, FIREFOX_ON_WINDOWS);
    expect((await me(laptop.token)).statusCode).toBe(200);

    const ended = await app.inject({
      method: 'DELETE',
      url: `/auth/sessions/${laptop.session}`,
      headers: authHeader(desk.token),
    });
    expect(ended.statusCode).toBe(200);
    const refused = await me(laptop.token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe('You were signed out. Please sign in again.');
    expect((await refresh(laptop.cookie)).statusCode).toBe(401);
    expect((await sessionsOf(desk.token)).map((session) => session.id)).toEqual([desk.session]);
    expect((await me(desk.token)).statusCode).toBe(200);

    const [record] = await app.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.clinicId, clinicId), eq(auditLog.action, 'session_ended')))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(record).toMatchObject({ entity: 'session', entityId: String(staff.id) });
    expect(record?.details).toMatchObject({ reason: 'ended_by_user', sessions: 1 });

    // Ended already, or not a session at all: nothing to end.
    const again = await app.inject({
      method: 'DELETE',
      url: `/auth/sessions/${laptop.session}`,
      headers: authHeader(desk.token),
    });
    expect(again.statusCode).toBe(404);
    const notAnId = await app.inject({
      method: 'DELETE',
      url: '/auth/sessions/x',
      headers: authHeader(desk.token),
    });
    expect(notAnId.statusCode).toBe(400);
  });

  it("cannot end another user's session", async () => {
    const staff = await addStaff(app, adminToken);
    const other = await addStaff(app, adminToken);
    const mine = await signIn(staff, CHROME_ON_LINUX);
    const theirs = await signIn(other, CHROME_ON_LINUX);
    const response = await app.inject({
      method: 'DELETE',
      url: `/auth/sessions/${theirs.session}`,
      headers: authHeader(mine.token),
    });
    expect(response.statusCode).toBe(404);
    expect((await me(theirs.token)).statusCode).toBe(200);
  });

  it('ends all other sessions and keeps this one', async () => {
    const staff = await addStaff(app, adminToken);
    const others = [await signIn(staff, CHROME_ON_LINUX), await signIn(staff, FIREFOX_ON_WINDOWS)];
    const desk = await signIn(staff, CHROME_ON_LINUX);
    const response = await app.inject({
      method: 'DELETE',
      url: '/auth/sessions',
      headers: authHeader(desk.token),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: '2 other sessions were signed out.', ended: 2 });
    for (const other of others) expect((await me(other.token)).statusCode).toBe(401);
    expect((await me(desk.token)).statusCode).toBe(200);
    expect(await sessionsOf(desk.token)).toHaveLength(1);
  });

  it('signing out ends the session in the list', async () => {
    const staff = await addStaff(app, adminToken);
    const laptop = await signIn(staff, CHROME_ON_LINUX);
    const desk = await signIn(staff, FIREFOX_ON_WINDOWS);
    const out = await app.inject({
      method: 'POST',
      url: '/auth/logout',
      cookies: { [REFRESH_COOKIE]: laptop.cookie },
    });
    expect(out.statusCode).toBe(200);
    expect((await me(laptop.token)).statusCode).toBe(401);
    expect((await sessionsOf(desk.token)).map((session) => session.id)).toEqual([desk.session]);
  });

  it('an access token is refused at once after signing out, though the guard has just seen it', async () => {
    const staff = await addStaff(app, adminToken);
    const laptop = await signIn(staff, CHROME_ON_LINUX);
    expect((await me(laptop.token)).statusCode).toBe(200);
    const out = await app.inject({
      method: 'POST',
      url: '/auth/logout',
      cookies: { [REFRESH_COOKIE]: laptop.cookie },
    });
    expect(out.statusCode).toBe(200);
    expect((await me(laptop.token)).statusCode).toBe(401);
  });

  it('a reused refresh token ends its session: audited, and the access token is refused', async () => {
    const staff = await addStaff(app, adminToken);
    const laptop = await signIn(staff, CHROME_ON_LINUX);
    expect((await me(laptop.token)).statusCode).toBe(200);
    expect((await refresh(laptop.cookie)).statusCode).toBe(200);
    // The first cookie again: someone else holds a copy of it.
    expect((await refresh(laptop.cookie)).statusCode).toBe(401);
    expect(await statusWithinMoments(laptop.token)).toBe(401);
    const records = await app.database.db
      .select({ action: auditLog.action, details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.clinicId, clinicId), eq(auditLog.userId, staff.id)));
    expect(records).toContainEqual({
      action: 'session_ended',
      details: { ip: '127.0.0.1', reason: 'token_reused', sessions: 1 },
    });
  });

  it('signing out on one API process is refused on the other within moments (PostgreSQL)', async () => {
    const second = await createSecondApp(app, { loginRateLimit: 1000 });
    if (!second) return; // PGlite: one process owns the database.
    try {
      const staff = await addStaff(app, adminToken);
      const laptop = await signIn(staff, CHROME_ON_LINUX, false, second);
      expect((await me(laptop.token, second)).statusCode).toBe(200);
      const out = await app.inject({
        method: 'POST',
        url: '/auth/logout',
        cookies: { [REFRESH_COOKIE]: laptop.cookie },
      });
      expect(out.statusCode).toBe(200);
      expect(await statusWithinMoments(laptop.token, second)).toBe(401);
    } finally {
      await second.close();
    }
  });

  it("lets an admin sign a user out everywhere, in the admin's clinic only", async () => {
    const staff = await addStaff(app, adminToken);
    const sessions = [await signIn(staff, CHROME_ON_LINUX), await signIn(staff, FIREFOX_ON_WINDOWS)];
    const receptionist = await login(app, 'receptionist', 'receptionist123');
    const refused = await app.inject({
      method: 'DELETE',
      url: `/api/users/${staff.id}/sessions`,
      headers: authHeader(receptionist.token),
    });
    expect(refused.statusCode).toBe(403);
    const harbor = await login(app, 'harbor.admin', 'harbor123');
    const otherClinic = await app.inject({
      method: 'DELETE',
      url: `/api/users/${staff.id}/sessions`,
      headers: authHeader(harbor.token),
    });
    expect(otherClinic.statusCode).toBe(404);
    for (const session of sessions) expect((await me(session.token)).statusCode).toBe(200);

    const ended = await app.inject({
      method: 'DELETE',
      url: `/api/users/${staff.id}/sessions`,
      headers: authHeader(adminToken),
    });
    expect(ended.statusCode).toBe(200);
    expect(ended.json().ended).toBe(2);
    for (const session of sessions) {
      expect((await me(session.token)).statusCode).toBe(401);
      expect((await refresh(session.cookie)).statusCode).toBe(401);
    }
    // They sign in again as usual.
    expect((await signIn(staff, CHROME_ON_LINUX)).token).toEqual(expect.any(String));
  });

  it('is refused on every API process at once when ended on one (PostgreSQL)', async () => {
    const second = await createSecondApp(app, { loginRateLimit: 1000 });
    if (!second) return; // PGlite: one process owns the database.
    try {
      const staff = await addStaff(app, adminToken);
      // Each test app signs its own tokens: the laptop's session is held through the second process.
      const laptop = await signIn(staff, CHROME_ON_LINUX, false, second);
      const desk = await signIn(staff, FIREFOX_ON_WINDOWS);
      expect((await me(laptop.token, second)).statusCode).toBe(200);
      const ended = await app.inject({
        method: 'DELETE',
        url: `/auth/sessions/${laptop.session}`,
        headers: authHeader(desk.token),
      });
      expect(ended.statusCode).toBe(200);
      // The other process hears of it through the clinic's events channel within moments.
      expect(await statusWithinMoments(laptop.token, second)).toBe(401);
    } finally {
      await second.close();
    }
  });
});
