import {
  MFA_NOW_REQUIRED_MESSAGE,
  MFA_TOKEN_EXPIRED_MESSAGE,
  RECOVERY_CODE_COUNT,
  WRONG_CODE_MESSAGE,
} from '@dental/shared/domain';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { FACTOR_KEY_UNAVAILABLE, factorKeyIdOf, factorSealOf } from '../../auth/factorSeal';
import { REFRESH_COOKIE } from '../../auth/refreshTokens';
import { resealStoredKeys } from '../../auth/secondFactor';
import { auditLog } from '../../db/schema';
import { sharedSecret } from '../../db/secrets';
import { addStaff, authHeader, createTestApp, fieldErrorsOf, login } from '../../test/testApp';

/** A second factor, as a user turns it on and signs in with it, and as an attacker tries it. */
describe('second factor (authenticator app)', () => {
  let app: FastifyInstance;
  let adminToken: string;
  let clinicId: number;

  const post = (url: string, payload: object, token?: string) =>
    app.inject({ method: 'POST', url, payload, headers: token ? authHeader(token) : {} });
  const signInWithPassword = (username: string, password: string) =>
    post('/auth/login', { username, password });
  /** The code an authenticator app shows for this key, `steps` periods from now. */
  const codeOf = (secret: string, steps = 0) =>
    new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
      timestamp: Date.now() + steps * 30_000,
    });
  /** Six digits that are none of the key's codes around now. */
  const wrongCodeOf = (secret: string) => {
    const valid = new Set([-1, 0, 1].map((steps) => codeOf(secret, steps)));
    let guess = 100_000;
    while (valid.has(String(guess))) guess += 1;
    return String(guess);
  };
  const lastAudit = async (userId: number, action: string) => {
    const [row] = await app.database.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.clinicId, clinicId),
          eq(auditLog.entityId, String(userId)),
          eq(auditLog.action, action),
        ),
      )
      .orderBy(desc(auditLog.id))
      .limit(1);
    return row;
  };

  /** A signed-in receptionist who turns the authenticator on: answers its key and recovery codes. */
  const staffWithFactor = async () => {
    const staff = await addStaff(app, adminToken);
    const { token } = await login(app, staff.username, staff.password);
    const setup = await post('/auth/mfa/totp/setup', { password: staff.password }, token);
    expect(setup.statusCode).toBe(200);
    const { secret } = setup.json() as { secret: string };
    const firstCode = codeOf(secret);
    const enabled = await post('/auth/mfa/totp/enable', { code: firstCode }, token);
    expect(enabled.statusCode).toBe(200);
    return { ...staff, token, secret, firstCode, recoveryCodes: enabled.json().recovery_codes as string[] };
  };

  beforeAll(async () => {
    // Many sign-ins a minute from one address: the per-address limit is the sign-in tests' to check.
    app = await createTestApp({ loginRateLimit: 1000 });
    const admin = await login(app, 'admin', 'admin123');
    adminToken = admin.token;
    clinicId = admin.user.clinic_id;
  });
  afterAll(async () => {
    await app.close();
  });

  it('is set up from a key and a first code, after the password, and gives ten recovery codes once', async () => {
    const staff = await addStaff(app, adminToken);
    const { token } = await login(app, staff.username, staff.password);

    const noPassword = await post('/auth/mfa/totp/setup', {}, token);
    expect(noPassword.statusCode).toBe(400);
    expect(fieldErrorsOf(noPassword)).toEqual([
      { field: 'password', message: 'Enter your current password' },
    ]);
    const wrongPassword = await post('/auth/mfa/totp/setup', { password: 'not-it-at-all' }, token);
    expect(wrongPassword.statusCode).toBe(400);
    expect(fieldErrorsOf(wrongPassword)[0]?.field).toBe('password');

    const setup = await post('/auth/mfa/totp/setup', { password: staff.password }, token);
    expect(setup.statusCode).toBe(200);
    const { secret, otpauth_url: url } = setup.json() as { secret: string; otpauth_url: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(url).toContain(`secret=${secret}`);
    expect(url).toContain(`:${staff.username}?`);
    expect(url).toContain('issuer=Bright%20Smile%20Dental');

    // Until a code confirms it, the key is not on: signing in still takes the password alone.
    expect((await signInWithPassword(staff.username, staff.password)).json().access_token).toEqual(
      expect.any(String),
    );

    const wrong = await post('/auth/mfa/totp/enable', { code: wrongCodeOf(secret) }, token);
    expect(wrong.statusCode).toBe(400);
    expect(fieldErrorsOf(wrong)).toEqual([{ field: 'code', message: WRONG_CODE_MESSAGE }]);

    const enabled = await post('/auth/mfa/totp/enable', { code: codeOf(secret) }, token);
    expect(enabled.statusCode).toBe(200);
    const codes = enabled.json().recovery_codes as string[];
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);

    const status = await app.inject({ method: 'GET', url: '/auth/mfa', headers: authHeader(token) });
    expect(status.json()).toEqual({
      totp: true,
      enabled_at: expect.any(String),
      recovery_codes_left: RECOVERY_CODE_COUNT,
      required: false,
    });
    // Stored only as salted hashes: no code is in the database as text.
    const stored = await app.database.db.execute(
      sql`select code_hash, salt from recovery_codes where clinic_id = ${clinicId} and user_id = ${staff.id}`,
    );
    const storedText = JSON.stringify(stored.rows);
    for (const code of codes) {
      expect(storedText).not.toContain(code);
      expect(storedText).not.toContain(code.replace(/-/g, ''));
    }
    expect(await lastAudit(staff.id, 'mfa_enabled')).toBeDefined();
  });

  it('keeps the key sealed in the database, and seals a key kept as text at the next start', async () => {
    const staff = await staffWithFactor();
    const storedKey = async () => {
      const stored = await app.database.db.execute<{ totp_secret: string }>(
        sql`select totp_secret from user_factors where clinic_id = ${clinicId} and user_id = ${staff.id}`,
      );
      return stored.rows[0]?.totp_secret ?? '';
    };
    const databaseKey = await sharedSecret(app.database.db, 'factors');
    const sealedUnder = new RegExp(`^v2\\.${factorKeyIdOf(databaseKey)}\\.`);
    expect(await storedKey()).toMatch(sealedUnder);
    expect(await storedKey()).not.toContain(staff.secret);
    const signInWithCode = async (steps: number) => {
      const challenge = (await signInWithPassword(staff.username, staff.password)).json();
      return post('/auth/mfa/verify', { mfa_token: challenge.mfa_token, code: codeOf(staff.secret, steps) });
    };
    expect((await signInWithCode(1)).statusCode).toBe(200);

    // A database from before sealing keeps the key as text: it still signs in, and a start seals it.
    await app.database.db.execute(
      sql`update user_factors set totp_secret = ${staff.secret}, totp_last_step = 0
          where clinic_id = ${clinicId} and user_id = ${staff.id}`,
    );
    expect((await signInWithCode(-1)).statusCode).toBe(200);
    expect(await resealStoredKeys(app.database.db, factorSealOf(databaseKey))).toEqual({
      resealed: 1,
      unopened: 0,
    });
    expect(await storedKey()).toMatch(sealedUnder);
    expect((await signInWithCode(0)).statusCode).toBe(200);

    // Rotated to a new key this server does not know: its code step says so clearly, not a 500.
    const newKey = 'a new factor key of at least thirty-two characters';
    const rotated = await resealStoredKeys(app.database.db, factorSealOf(newKey, [databaseKey]));
    expect(rotated.resealed).toBeGreaterThanOrEqual(1);
    expect(rotated.unopened).toBe(0);
    expect(await storedKey()).toMatch(new RegExp(`^v2\\.${factorKeyIdOf(newKey)}\\.`));
    const refused = await signInWithCode(1);
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({ message: FACTOR_KEY_UNAVAILABLE });
    // This server's key cannot open it, so its own resealing leaves it and counts it.
    expect(await resealStoredKeys(app.database.db, factorSealOf(databaseKey))).toEqual({
      resealed: 0,
      unopened: rotated.resealed,
    });
    // Rotated back (the old key current, the new one previous): it signs in again.
    await resealStoredKeys(app.database.db, factorSealOf(databaseKey, [newKey]));
    expect((await signInWithCode(1)).statusCode).toBe(200);
  });

  it('makes the password only the first step, and takes each code once', async () => {
    const staff = await staffWithFactor();
    const first = await signInWithPassword(staff.username, staff.password);
    expect(first.statusCode).toBe(200);
    const challenge = first.json();
    expect(challenge).toEqual({ mfa_required: true, mfa_token: expect.any(String) });
    expect(first.cookies.find((cookie) => cookie.name === REFRESH_COOKIE)).toBeUndefined();
    // The challenge's token opens nothing else.
    const asAccess = await app.inject({
      method: 'GET',
      url: '/auth/me',
      headers: authHeader(challenge.mfa_token),
    });
    expect(asAccess.statusCode).toBe(401);

    // The code that confirmed the key was used up by it; the next period's code signs in.
    const replayOfEnrolment = await post('/auth/mfa/verify', {
      mfa_token: challenge.mfa_token,
      code: staff.firstCode,
    });
    expect(replayOfEnrolment.statusCode).toBe(401);
    expect(replayOfEnrolment.json().message).toBe(WRONG_CODE_MESSAGE);
    const next = codeOf(staff.secret, 1);
    const verified = await post('/auth/mfa/verify', { mfa_token: challenge.mfa_token, code: next });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().user.username).toBe(staff.username);
    expect(verified.cookies.find((cookie) => cookie.name === REFRESH_COOKIE)?.value).toEqual(
      expect.any(String),
    );
    const me = await app.inject({
      method: 'GET',
      url: '/auth/me',
      headers: authHeader(verified.json().access_token),
    });
    expect(me.statusCode).toBe(200);
    expect((await lastAudit(staff.id, 'login'))?.details).toMatchObject({ factor: 'totp' });

    // The same code again, in a second sign-in, is refused: it was seen.
    const again = await signInWithPassword(staff.username, staff.password);
    const replay = await post('/auth/mfa/verify', { mfa_token: again.json().mfa_token, code: next });
    expect(replay.statusCode).toBe(401);
    expect((await lastAudit(staff.id, 'login_failed'))?.details).toMatchObject({ factor: 'totp' });
  });

  it('signs in once per second-step token: a copy of it opens nothing, even with a good code', async () => {
    const staff = await staffWithFactor();
    const challenge = (await signInWithPassword(staff.username, staff.password)).json();
    const first = await post('/auth/mfa/verify', {
      mfa_token: challenge.mfa_token,
      code: codeOf(staff.secret, 1),
    });
    expect(first.statusCode).toBe(200);
    // The same token again, with a recovery code nobody has used: refused, and the code stays unused.
    const copy = await post('/auth/mfa/verify', {
      mfa_token: challenge.mfa_token,
      recovery_code: staff.recoveryCodes[1],
    });
    expect(copy.statusCode).toBe(401);
    expect(copy.json().message).toBe(MFA_TOKEN_EXPIRED_MESSAGE);
    expect(copy.cookies.find((cookie) => cookie.name === REFRESH_COOKIE)).toBeUndefined();
    const fresh = (await signInWithPassword(staff.username, staff.password)).json();
    expect(
      (await post('/auth/mfa/verify', { mfa_token: fresh.mfa_token, recovery_code: staff.recoveryCodes[1] }))
        .statusCode,
    ).toBe(200);
  });

  it('signs in with a recovery code once, typed with or without its dashes', async () => {
    const staff = await staffWithFactor();
    const [code] = staff.recoveryCodes;
    const challenge = (await signInWithPassword(staff.username, staff.password)).json();
    const verified = await post('/auth/mfa/verify', {
      mfa_token: challenge.mfa_token,
      recovery_code: code?.toUpperCase().replace(/-/g, ' '),
    });
    expect(verified.statusCode).toBe(200);
    expect((await lastAudit(staff.id, 'login'))?.details).toMatchObject({ factor: 'recovery_code' });

    const second = (await signInWithPassword(staff.username, staff.password)).json();
    const reused = await post('/auth/mfa/verify', { mfa_token: second.mfa_token, recovery_code: code });
    expect(reused.statusCode).toBe(401);
    const status = await app.inject({
      method: 'GET',
      url: '/auth/mfa',
      headers: authHeader(verified.json().access_token),
    });
    expect(status.json().recovery_codes_left).toBe(RECOVERY_CODE_COUNT - 1);
  });

  it('locks the account after five wrong codes, as after five wrong passwords', async () => {
    const staff = await staffWithFactor();
    const { mfa_token: mfaToken } = (await signInWithPassword(staff.username, staff.password)).json();
    const wrong = wrongCodeOf(staff.secret);
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expect((await post('/auth/mfa/verify', { mfa_token: mfaToken, code: wrong })).statusCode).toBe(401);
    }
    expect(await lastAudit(staff.id, 'login_locked')).toBeDefined();
    const right = await post('/auth/mfa/verify', { mfa_token: mfaToken, code: codeOf(staff.secret, 1) });
    expect(right.statusCode).toBe(429);
    // A right password does not clear the failures of the code step.
    expect((await signInWithPassword(staff.username, staff.password)).statusCode).toBe(429);
  });

  it('counts a wrong password or code asked again while signed in toward the same lock, and logs it', async () => {
    const staff = await staffWithFactor();
    // Turning the factor off with a wrong code, then a wrong password: each counted, each on the log.
    const wrongCode = await app.inject({
      method: 'DELETE',
      url: '/auth/mfa/totp',
      headers: authHeader(staff.token),
      payload: { password: staff.password, code: wrongCodeOf(staff.secret) },
    });
    expect(wrongCode.statusCode).toBe(400);
    expect((await lastAudit(staff.id, 'login_failed'))?.details).toMatchObject({
      factor: 'totp',
      recheck: 'factor_off',
    });
    for (const url of ['/auth/mfa/recovery-codes', '/auth/mfa/totp/setup']) {
      const wrong = await post(
        url,
        { password: 'not-the-password', code: codeOf(staff.secret) },
        staff.token,
      );
      expect(wrong.statusCode).toBe(400);
      expect(fieldErrorsOf(wrong)).toEqual([{ field: 'password', message: expect.any(String) }]);
    }
    const wrongCurrent = await post(
      '/auth/change-password',
      { current_password: 'not-the-password', new_password: 'a-new-long-secret' },
      staff.token,
    );
    expect(wrongCurrent.statusCode).toBe(400);
    // The fifth wrong answer in a row locked the account: sign-in and every re-check are refused.
    const fifth = await post('/auth/mfa/totp/enable', { code: wrongCodeOf(staff.secret) }, staff.token);
    expect(fifth.statusCode).toBe(400);
    expect((await lastAudit(staff.id, 'login_locked'))?.details).toMatchObject({ recheck: 'factor_setup' });
    const signIn = await signInWithPassword(staff.username, staff.password);
    expect(signIn.statusCode).toBe(429);
    const rightNow = await post(
      '/auth/mfa/recovery-codes',
      { password: staff.password, code: codeOf(staff.secret) },
      staff.token,
    );
    expect(rightNow.statusCode).toBe(429);
    expect(rightNow.json().message).toMatch(/^Too many failed sign-in attempts/);
    const change = await post(
      '/auth/change-password',
      { current_password: staff.password, new_password: 'a-new-long-secret' },
      staff.token,
    );
    expect(change.statusCode).toBe(429);
  });

  it('refuses a forged, expired or other kind of second-step token', async () => {
    const access = await login(app, 'receptionist', 'receptionist123');
    const asChallenge = await post('/auth/mfa/verify', { mfa_token: access.token, code: '123456' });
    expect(asChallenge.statusCode).toBe(401);
    const garbage = await post('/auth/mfa/verify', { mfa_token: 'not.a.token', code: '123456' });
    expect(garbage.statusCode).toBe(401);
    const both = await post('/auth/mfa/verify', { mfa_token: 'x', code: '123456', recovery_code: 'abcd' });
    expect(both.statusCode).toBe(400);
  });

  it('is turned off with the password and a code, and then the password signs in alone', async () => {
    const staff = await staffWithFactor();
    const withoutCode = await app.inject({
      method: 'DELETE',
      url: '/auth/mfa/totp',
      headers: authHeader(staff.token),
      payload: { password: staff.password },
    });
    expect(withoutCode.statusCode).toBe(400);
    expect(fieldErrorsOf(withoutCode)[0]?.field).toBe('code');
    const off = await app.inject({
      method: 'DELETE',
      url: '/auth/mfa/totp',
      headers: authHeader(staff.token),
      payload: { password: staff.password, code: codeOf(staff.secret, 1) },
    });
    expect(off.statusCode).toBe(200);
    expect((await signInWithPassword(staff.username, staff.password)).json().access_token).toEqual(
      expect.any(String),
    );
    expect(await lastAudit(staff.id, 'mfa_disabled')).toBeDefined();
  });

  it('renews recovery codes: the old ones stop working', async () => {
    const staff = await staffWithFactor();
    const renewed = await post(
      '/auth/mfa/recovery-codes',
      { password: staff.password, code: codeOf(staff.secret, 1) },
      staff.token,
    );
    expect(renewed.statusCode).toBe(200);
    const fresh = renewed.json().recovery_codes as string[];
    expect(fresh).toHaveLength(RECOVERY_CODE_COUNT);
    const challenge = (await signInWithPassword(staff.username, staff.password)).json();
    expect(
      (
        await post('/auth/mfa/verify', {
          mfa_token: challenge.mfa_token,
          recovery_code: staff.recoveryCodes[0],
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (await post('/auth/mfa/verify', { mfa_token: challenge.mfa_token, recovery_code: fresh[0] }))
        .statusCode,
    ).toBe(200);
  });

  describe("the clinic's policy", () => {
    const setPolicy = async (mfaRequired: 'none' | 'admins' | 'all') => {
      const response = await app.inject({
        method: 'PUT',
        url: '/api/settings',
        headers: authHeader(adminToken),
        payload: { mfaRequired },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().mfaRequired).toBe(mfaRequired);
    };
    afterEach(async () => {
      await setPolicy('none');
    });

    it("ends a covered user's password-only sessions when the policy is saved; a session with a code goes on", async () => {
      const passwordOnly = await addStaff(app, adminToken);
      const signedIn = await signInWithPassword(passwordOnly.username, passwordOnly.password);
      expect(signedIn.statusCode).toBe(200);
      const cookieOf = (response: { cookies: Array<{ name: string; value: string }> }) =>
        response.cookies.find((each) => each.name === REFRESH_COOKIE)?.value ?? '';
      const refresh = (cookie: string) =>
        app.inject({ method: 'POST', url: '/auth/refresh', cookies: { [REFRESH_COOKIE]: cookie } });

      const withFactor = await staffWithFactor();
      const challenge = (await signInWithPassword(withFactor.username, withFactor.password)).json();
      const verified = await post('/auth/mfa/verify', {
        mfa_token: challenge.mfa_token,
        code: codeOf(withFactor.secret, 1),
      });
      expect(verified.statusCode).toBe(200);

      await setPolicy('all');
      // Ended at the save: its access token opens nothing from now on, and its refresh says why.
      const refused = await app.inject({
        method: 'GET',
        url: '/api/patients',
        headers: authHeader(signedIn.json().access_token),
      });
      expect(refused.statusCode).toBe(401);
      const ended = await refresh(cookieOf(signedIn));
      expect(ended.statusCode).toBe(401);
      expect(ended.json()).toEqual({ message: MFA_NOW_REQUIRED_MESSAGE });
      expect((await lastAudit(passwordOnly.id, 'session_ended'))?.details).toMatchObject({
        reason: 'mfa_required',
      });
      // Its next sign-in is the enrolment step.
      const again = await signInWithPassword(passwordOnly.username, passwordOnly.password);
      expect(again.json()).toMatchObject({ mfa_enrollment_required: true });
      // Signed in with a code: the policy is met.
      expect((await refresh(cookieOf(verified))).statusCode).toBe(200);
      // The admin who saved the policy is not signed out in the middle of the form.
      expect(
        (await app.inject({ method: 'GET', url: '/api/settings', headers: authHeader(adminToken) }))
          .statusCode,
      ).toBe(200);
    });

    it('leads a covered user without a factor through enrolment before anything else', async () => {
      const staff = await addStaff(app, adminToken);
      await setPolicy('admins');
      // Receptionists are not covered by "admins".
      expect((await signInWithPassword(staff.username, staff.password)).json().access_token).toEqual(
        expect.any(String),
      );

      await setPolicy('all');
      const first = await signInWithPassword(staff.username, staff.password);
      expect(first.statusCode).toBe(200);
      const { mfa_enrollment_required: enrol, mfa_token: enrolToken } = first.json();
      expect(enrol).toBe(true);
      expect(first.cookies.find((cookie) => cookie.name === REFRESH_COOKIE)).toBeUndefined();
      // The enrolment token opens nothing but enrolment.
      const patients = await app.inject({
        method: 'GET',
        url: '/api/patients',
        headers: authHeader(enrolToken),
      });
      expect(patients.statusCode).toBe(401);
      const asChallenge = await post('/auth/mfa/verify', { mfa_token: enrolToken, code: '123456' });
      expect(asChallenge.statusCode).toBe(401);

      const setup = await post('/auth/mfa/totp/setup', {}, enrolToken);
      expect(setup.statusCode).toBe(200);
      const { secret } = setup.json();
      const enabled = await post('/auth/mfa/totp/enable', { code: codeOf(secret) }, enrolToken);
      expect(enabled.statusCode).toBe(200);
      const body = enabled.json();
      expect(body.recovery_codes).toHaveLength(RECOVERY_CODE_COUNT);
      expect(body.user.username).toBe(staff.username);
      expect(enabled.cookies.find((cookie) => cookie.name === REFRESH_COOKIE)?.value).toEqual(
        expect.any(String),
      );
      const status = await app.inject({
        method: 'GET',
        url: '/auth/mfa',
        headers: authHeader(body.access_token),
      });
      expect(status.json()).toMatchObject({ totp: true, required: true });

      // While the clinic requires it, the factor cannot be turned off.
      const off = await app.inject({
        method: 'DELETE',
        url: '/auth/mfa/totp',
        headers: authHeader(body.access_token),
        payload: { password: staff.password, code: codeOf(secret, 1) },
      });
      expect(off.statusCode).toBe(409);
      // The next sign-in asks for a code.
      expect((await signInWithPassword(staff.username, staff.password)).json().mfa_required).toBe(true);
    });

    it("is the admin's: others cannot set it, and it takes only the three policies", async () => {
      const receptionist = await login(app, 'receptionist', 'receptionist123');
      const refused = await app.inject({
        method: 'PUT',
        url: '/api/settings',
        headers: authHeader(receptionist.token),
        payload: { mfaRequired: 'none' },
      });
      expect(refused.statusCode).toBe(403);
      const bad = await app.inject({
        method: 'PUT',
        url: '/api/settings',
        headers: authHeader(adminToken),
        payload: { mfaRequired: 'everyone' },
      });
      expect(bad.statusCode).toBe(400);
      expect(fieldErrorsOf(bad)[0]?.field).toBe('mfaRequired');
    });
  });

  it("lets an admin reset a user's factor: their sessions end and they sign in with the password again", async () => {
    const staff = await staffWithFactor();
    const receptionist = await login(app, 'receptionist', 'receptionist123');
    const refused = await app.inject({
      method: 'DELETE',
      url: `/api/users/${staff.id}/mfa`,
      headers: authHeader(receptionist.token),
    });
    expect(refused.statusCode).toBe(403);

    const reset = await app.inject({
      method: 'DELETE',
      url: `/api/users/${staff.id}/mfa`,
      headers: authHeader(adminToken),
    });
    expect(reset.statusCode).toBe(200);
    expect(
      (await app.inject({ method: 'GET', url: '/auth/me', headers: authHeader(staff.token) })).statusCode,
    ).toBe(401);
    expect((await signInWithPassword(staff.username, staff.password)).json().access_token).toEqual(
      expect.any(String),
    );
    const record = await lastAudit(staff.id, 'mfa_reset');
    expect(record?.userId).not.toBe(staff.id);

    const harbor = await login(app, 'harbor.admin', 'harbor123');
    const otherClinic = await app.inject({
      method: 'DELETE',
      url: `/api/users/${staff.id}/mfa`,
      headers: authHeader(harbor.token),
    });
    expect(otherClinic.statusCode).toBe(404);
  });
});

describe('the admin who tightens the two-step policy', () => {
  it('keeps the session they saved it from until its next refresh, which then says why it ends', async () => {
    const app = await createTestApp();
    try {
      const signedIn = await app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { username: 'admin', password: 'admin123' },
      });
      const token = signedIn.json().access_token as string;
      const cookie = signedIn.cookies.find((each) => each.name === REFRESH_COOKIE)?.value ?? '';
      const saved = await app.inject({
        method: 'PUT',
        url: '/api/settings',
        headers: authHeader(token),
        payload: { mfaRequired: 'admins' },
      });
      expect(saved.statusCode).toBe(200);
      expect(
        (await app.inject({ method: 'GET', url: '/api/settings', headers: authHeader(token) })).statusCode,
      ).toBe(200);
      const refreshed = await app.inject({
        method: 'POST',
        url: '/auth/refresh',
        cookies: { [REFRESH_COOKIE]: cookie },
      });
      expect(refreshed.statusCode).toBe(401);
      expect(refreshed.json()).toEqual({ message: MFA_NOW_REQUIRED_MESSAGE });
    } finally {
      await app.close();
    }
  });
});
