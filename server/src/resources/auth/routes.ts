import { createHash } from 'node:crypto';
import {
  AUTH_URLS,
  authResponseSchema,
  choosePasswordSchema,
  idleSignOutMessage,
  LOGIN_REQUIRED_MESSAGE,
  loginRequestSchema,
  MFA_NOW_REQUIRED_MESSAGE,
  MFA_TOKEN_EXPIRED_MESSAGE,
  mfaChallengeSchema,
  mfaPolicyCovers,
  PASSWORD_CHANGED_MESSAGE,
  passwordChangeSchema,
  type Role,
  WRONG_CURRENT_PASSWORD,
  wireUserSchema,
} from '@dental/shared/domain';
import { and, eq, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { mfaClaimsOf } from '../../auth/accessClaims';
import { passwordContextOf, requireUnguessablePassword } from '../../auth/commonPasswords';
import type { FactorSeal } from '../../auth/factorSeal';
import type { Guard } from '../../auth/guard';
import { dummyPasswordHash, hashPassword, needsRehash, verifyPassword } from '../../auth/passwords';
import {
  endingToTell,
  REFRESH_COOKIE,
  recordSessionEnded,
  revokeRefreshToken,
  revokeUserSessions,
  rotateRefreshToken,
  type SessionEndReason,
  sessionOf,
  startSession,
} from '../../auth/refreshTokens';
import { readFactor } from '../../auth/secondFactor';
import { findStaff, toWireUser } from '../../auth/staff';
import type { AppConfig } from '../../config';
import { recordAudit } from '../../db/auditLog';
import type { Database } from '../../db/client';
import { clinics, users } from '../../db/schema';
import { SECURITY } from '../../plugins/apiDocs';
import { errorBodySchema, errorResponses } from '../../plugins/errors';
import { readSettings } from '../settings/settingsData';
import { registerSecondFactorRoutes } from './secondFactorRoutes';
import { registerSessionRoutes } from './sessionRoutes';
import { ACCESS_TOKEN_SECONDS, type SigningIn, signInSteps } from './signIn';

const INVALID_CREDENTIALS = 'Invalid username or password';
const ONE_TIME_PASSWORD_AGAIN = 'Choose a password of your own, not the one you were given';

/** A short, stable fingerprint of a name: the same name tried again shows, its text does not. */
const fingerprintOf = (text: string) =>
  createHash('sha256').update(`sign-in-name:${text}`).digest('hex').slice(0, 16);
const SESSION_EXPIRED = 'Session expired. Please sign in again.';

export function registerAuthRoutes(
  app: FastifyInstance,
  db: Database,
  guard: Guard,
  config: AppConfig,
  factorSeal: FactorSeal,
): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const steps = signInSteps(app, db, config.httpsOnly);
  const { setRefreshCookie, clearRefreshCookie, grant } = steps;
  registerSecondFactorRoutes(app, db, guard, config, steps, factorSeal);
  registerSessionRoutes(app, db, guard, steps);

  routes.post(
    '/auth/login',
    {
      config: { rateLimit: { max: config.loginRateLimit, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a username or e-mail address and a password (public)',
        // Fields are checked in the handler so that a missing one answers the product's own message.
        body: z.object({
          username: z.string().max(254).optional(),
          password: z.string().max(1024).optional(),
          remember: z.boolean().optional(),
        }),
        response: {
          200: z.union([authResponseSchema, mfaChallengeSchema]),
          ...errorResponses(400, 401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      const parsed = loginRequestSchema.safeParse(request.body);
      if (!parsed.success) {
        return reply.code(400).send({
          message: LOGIN_REQUIRED_MESSAGE,
          errors: parsed.error.issues.map((issue) => ({
            field: issue.path.join('.'),
            message: issue.message,
          })),
        });
      }
      const { username, password, remember } = parsed.data;
      const identifier = username.toLowerCase();
      const [account] = await db
        .select()
        .from(users)
        .where(or(sql`lower(${users.username}) = ${identifier}`, sql`lower(${users.email}) = ${identifier}`))
        .limit(1);

      // The password is checked before the lock is looked at: a locked account answers no sooner than
      // a wrong password does, so the time taken tells nothing of the account.
      const valid = await verifyPassword(password, account?.passwordHash ?? (await dummyPasswordHash()));
      const locked = account ? steps.lockRefusal(account) : null;
      if (locked) return reply.code(429).send({ message: locked });

      if (!account || !valid) {
        if (account) await steps.countFailure(request, account, 'password');
        // A name no clinic knows has no clinic's audit log to go to: the server's log keeps its
        // fingerprint, never the text, which may be a password typed into the wrong field.
        else
          request.log.warn(
            {
              usernameFingerprint: fingerprintOf(identifier),
              usernameLength: identifier.length,
              ip: request.ip,
            },
            'sign-in with an unknown name',
          );
        return reply.code(401).send({ message: INVALID_CREDENTIALS });
      }
      if (!account.isActive) {
        return reply
          .code(403)
          .send({ message: 'This account is deactivated. Ask your clinic administrator.' });
      }
      // A hash made at a lower cost than the server's is raised while the password is at hand.
      if (needsRehash(account.passwordHash)) await steps.raiseHashCost(account, password);

      // A password someone else chose (an import's one-time password) opens only the choice of the
      // account's own (POST /auth/password/choose), before any other step.
      if (account.passwordMustChange) {
        return {
          password_change_required: true as const,
          mfa_token: steps.secondStepToken(account, 'password', remember),
        };
      }
      return continueSignIn(request, reply, account, remember);
    },
  );

  /**
   * The sign-in after the password (or the account's own password chosen): the code step when a
   * factor is on, the enrolment step when the clinic requires one, else a session.
   */
  const continueSignIn = async (
    request: FastifyRequest,
    reply: FastifyReply,
    account: SigningIn & { role: string },
    remember: boolean,
  ) => {
    // With a factor on, the password only opens the second step: the failures it would clear are
    // the code's too, so they stay until the code is right.
    const factor = await readFactor(db, account.clinicId, account.id);
    if (factor.totpSecret) {
      return { mfa_required: true as const, mfa_token: steps.secondStepToken(account, 'mfa', remember) };
    }
    const refused = await steps.open(account);
    if (refused) return reply.code(429).send({ message: refused });
    const { mfaRequired } = await readSettings(db, account.clinicId);
    if (mfaPolicyCovers(mfaRequired, account.role as Role)) {
      return {
        mfa_enrollment_required: true as const,
        mfa_token: steps.secondStepToken(account, 'enroll', remember),
      };
    }
    return steps.finish(request, reply, account, remember, 'password');
  };

  routes.post(
    AUTH_URLS.choosePassword,
    {
      config: { rateLimit: { max: config.loginRateLimit, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary:
          "Choose your own password when the one you signed in with was chosen by someone else (an imported clinic's one-time password): the sign-in's `mfa_token` and `new_password` (8-128 characters, not a common one, none of your names, not the one-time password). Then the sign-in goes on: a session, or the code or enrolment step (public)",
        body: choosePasswordSchema,
        response: {
          200: z.union([authResponseSchema, mfaChallengeSchema]),
          ...errorResponses(400, 401, 429),
        },
      },
    },
    async (request, reply) => {
      const claims = mfaClaimsOf(app, request.body.mfa_token, 'password');
      const [account] = claims
        ? await db
            .select()
            .from(users)
            .where(and(eq(users.clinicId, claims.cid), eq(users.id, Number(claims.sub))))
        : [];
      if (
        !claims ||
        !account?.isActive ||
        !account.passwordMustChange ||
        (await steps.secondStepSpent(claims))
      ) {
        return reply.code(401).send({ message: MFA_TOKEN_EXPIRED_MESSAGE });
      }
      const next = request.body.new_password;
      if (await verifyPassword(next, account.passwordHash)) {
        throw app.httpErrors.createError(400, `Invalid new_password: ${ONE_TIME_PASSWORD_AGAIN}`, {
          errors: [{ field: 'new_password', message: ONE_TIME_PASSWORD_AGAIN }],
        });
      }
      const [clinic] = await db
        .select({ name: clinics.name })
        .from(clinics)
        .where(eq(clinics.id, account.clinicId));
      requireUnguessablePassword(next, passwordContextOf(account, clinic?.name), 'new_password');
      const passwordHash = await hashPassword(next);
      if (!(await steps.spendSecondStep(claims))) {
        return reply.code(401).send({ message: MFA_TOKEN_EXPIRED_MESSAGE });
      }
      await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ passwordHash, passwordMustChange: false, sessionsSince: new Date(), updatedAt: new Date() })
          .where(and(eq(users.clinicId, account.clinicId), eq(users.id, account.id)));
        await recordAudit(tx, {
          clinicId: account.clinicId,
          userId: account.id,
          action: 'update',
          entity: 'user',
          entityId: account.id,
          details: { name: account.name, changed: ['password'], ip: request.ip },
        });
      });
      return continueSignIn(request, reply, account, claims.remember);
    },
  );

  routes.post(
    '/auth/refresh',
    {
      schema: {
        tags: ['auth'],
        summary: 'Trade the refresh cookie for a new access token; the cookie is rotated (public)',
        response: { 200: authResponseSchema, ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      const token = request.cookies[REFRESH_COOKIE];
      const rotated = token ? await rotateRefreshToken(db, token, request.ip) : null;
      const staff = rotated ? await findStaff(db, rotated.clinicId, rotated.userId) : null;
      if (!rotated || !staff?.isActive) {
        clearRefreshCookie(reply);
        // A session the clinic's new two-step policy ended at its save says so, as one ended here does.
        const told = !rotated && token ? await endingToTell(db, token) : null;
        return reply.code(401).send({ message: told ?? SESSION_EXPIRED });
      }
      /** The session ends here, with why: audited, forgotten by every API process, the cookie cleared. */
      const endAtRefresh = async (reason: SessionEndReason, message: string) => {
        await db.transaction(async (tx) => {
          await revokeRefreshToken(tx as unknown as Database, rotated.next.token, reason);
          await recordSessionEnded(tx, rotated, request.ip, reason);
        });
        guard.sessionsEnded(rotated.clinicId);
        clearRefreshCookie(reply);
        return reply.code(401).send({ message });
      };
      // An active browser refreshes at least once an access token's lifetime; a session silent for
      // longer than the clinic's idle time and that lifetime was left idle, and is over.
      const { idleTimeoutMinutes, mfaRequired } = await readSettings(db, staff.clinicId);
      const silentMs = Date.now() - rotated.lastUsedAt.getTime();
      if (silentMs > (idleTimeoutMinutes * 60 + ACCESS_TOKEN_SECONDS) * 1000) {
        return endAtRefresh('idle', idleSignOutMessage(idleTimeoutMinutes));
      }
      // A password-only session the clinic's policy now covers goes no further than its access
      // token: the next sign-in sets up the second factor (docs/security.md "Sessions").
      if (mfaPolicyCovers(mfaRequired, staff.role as Role)) {
        const session = await sessionOf(db, staff.clinicId, rotated.next.family);
        if (session?.factor === 'password') return endAtRefresh('mfa_required', MFA_NOW_REQUIRED_MESSAGE);
      }
      setRefreshCookie(request, reply, rotated.next.token, rotated.next.remember);
      return grant(staff, rotated.next.family);
    },
  );

  routes.post(
    '/auth/change-password',
    {
      onRequest: guard.authenticated,
      schema: {
        tags: ['auth'],
        summary:
          'Change your own password (any role) with `{ current_password, new_password }`: the current one must be right; the new one 8-128 characters, not among the most common, not the same. Your other sessions end; this one gets a new token',
        security: SECURITY,
        body: passwordChangeSchema,
        response: {
          200: authResponseSchema.extend({ message: z.string() }),
          ...errorResponses(400, 401, 429),
        },
      },
    },
    async (request, reply) => {
      const staff = guard.staffOf(request);
      const { current_password: current, new_password: next } = request.body;
      await steps.refuseWhileLocked(staff);
      const [account] = await db
        .select({ passwordHash: users.passwordHash })
        .from(users)
        .where(and(eq(users.clinicId, staff.clinicId), eq(users.id, staff.id)));
      if (!account || !(await verifyPassword(current, account.passwordHash))) {
        // Counted toward the sign-in's lock: a stolen access token buys no guesses of its own.
        await steps.countFailure(request, staff, 'password', 'password_change');
        throw app.httpErrors.createError(400, `Invalid current_password: ${WRONG_CURRENT_PASSWORD}`, {
          errors: [{ field: 'current_password', message: WRONG_CURRENT_PASSWORD }],
        });
      }
      requireUnguessablePassword(next, passwordContextOf(staff, staff.clinicName), 'new_password');
      const passwordHash = await hashPassword(next);
      const replaced = await sessionOf(
        db,
        staff.clinicId,
        request.accessClaims ? request.accessClaims.sid : undefined,
      );
      const sessionsSince = new Date();
      const refresh = await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ passwordHash, sessionsSince, failedLoginCount: 0, lockedUntil: null, updatedAt: new Date() })
          .where(and(eq(users.clinicId, staff.clinicId), eq(users.id, staff.id)));
        await revokeUserSessions(tx, staff.clinicId, staff.id, 'password_changed');
        await recordAudit(tx, {
          clinicId: staff.clinicId,
          userId: staff.id,
          action: 'update',
          entity: 'user',
          entityId: staff.id,
          details: { name: staff.name, changed: ['password'] },
        });
        // This browser stays signed in, in a new session that signed in as the one it replaces did.
        return startSession(tx as unknown as Database, {
          clinicId: staff.clinicId,
          userId: staff.id,
          remember: replaced?.remember ?? false,
          userAgent: request.headers['user-agent'] ?? '',
          ip: request.ip,
          factor: replaced?.factor ?? 'password',
        });
      });
      setRefreshCookie(request, reply, refresh.token, refresh.remember);
      return { ...(await grant(staff, refresh.family)), message: PASSWORD_CHANGED_MESSAGE };
    },
  );

  routes.post(
    '/auth/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'End the session: the refresh cookie is revoked and cleared (public)',
        response: { 200: errorBodySchema.pick({ message: true }) },
      },
    },
    async (request, reply) => {
      const token = request.cookies[REFRESH_COOKIE];
      const ended = token ? await revokeRefreshToken(db, token) : null;
      if (ended) {
        await recordAudit(db, {
          clinicId: ended.clinicId,
          userId: ended.userId,
          action: 'logout',
          entity: 'user',
          entityId: ended.userId,
          details: { ip: request.ip },
        });
        guard.sessionsEnded(ended.clinicId);
      }
      clearRefreshCookie(reply);
      return { message: 'Signed out' };
    },
  );

  routes.get(
    '/auth/me',
    {
      onRequest: guard.authenticated,
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user (any role)',
        security: SECURITY,
        response: { 200: z.object({ user: wireUserSchema }), ...errorResponses(401) },
      },
    },
    async (request) => ({ user: toWireUser(guard.staffOf(request)) }),
  );
}
