import {
  authResponseSchema,
  idleSignOutMessage,
  LOGIN_REQUIRED_MESSAGE,
  loginRequestSchema,
  PASSWORD_CHANGED_MESSAGE,
  passwordChangeSchema,
  WRONG_CURRENT_PASSWORD,
  wireUserSchema,
} from '@dental/shared/domain';
import { and, eq, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AccessTokenClaims } from '../../auth/accessClaims';
import { requireUncommonPassword } from '../../auth/commonPasswords';
import type { Guard } from '../../auth/guard';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from '../../auth/passwords';
import {
  issueRefreshToken,
  REFRESH_COOKIE,
  REMEMBERED_SESSION_SECONDS,
  revokeRefreshToken,
  revokeUserSessions,
  rotateRefreshToken,
  sessionIsRemembered,
} from '../../auth/refreshTokens';
import { findStaff, type Staff, toWireUser } from '../../auth/staff';
import type { AppConfig } from '../../config';
import { recordAudit } from '../../db/auditLog';
import type { Database } from '../../db/client';
import { users } from '../../db/schema';
import { errorBodySchema, errorResponses, HttpError } from '../../plugins/errors';
import { readSettings } from '../settings/settingsData';

export const ACCESS_TOKEN_SECONDS = 15 * 60;
export const MAX_FAILED_LOGINS = 5;
export const LOCKOUT_MINUTES = 15;
const INVALID_CREDENTIALS = 'Invalid username or password';
const SESSION_EXPIRED = 'Session expired. Please sign in again.';

export function registerAuthRoutes(
  app: FastifyInstance,
  db: Database,
  guard: Guard,
  config: AppConfig,
): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  const setRefreshCookie = (
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
    remember: boolean,
  ) => {
    reply.setCookie(REFRESH_COOKIE, token, {
      httpOnly: true,
      sameSite: 'strict',
      secure: request.protocol === 'https',
      path: '/auth',
      // Without Max-Age the cookie, and so the session, ends with the browser session.
      ...(remember ? { maxAge: REMEMBERED_SESSION_SECONDS } : {}),
    });
  };
  const clearRefreshCookie = (reply: FastifyReply) => reply.clearCookie(REFRESH_COOKIE, { path: '/auth' });

  const grant = async (staff: Staff, session: string) => {
    const claims: AccessTokenClaims = {
      sub: String(staff.id),
      cid: staff.clinicId,
      role: staff.role,
      at: Date.now(),
      sid: session,
    };
    return {
      access_token: app.jwt.sign(claims, { expiresIn: ACCESS_TOKEN_SECONDS }),
      token_type: 'Bearer' as const,
      expires_in: ACCESS_TOKEN_SECONDS,
      user: toWireUser(staff),
    };
  };

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
        response: { 200: authResponseSchema, ...errorResponses(400, 401, 403, 429) },
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

      if (account?.lockedUntil && account.lockedUntil.getTime() > Date.now()) {
        const minutes = Math.ceil((account.lockedUntil.getTime() - Date.now()) / 60000);
        return reply.code(429).send({
          message: `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        });
      }

      const valid = await verifyPassword(password, account?.passwordHash ?? (await DUMMY_PASSWORD_HASH));
      if (!account || !valid) {
        if (account) {
          // One statement counts the failure, so attempts sent all at once each count.
          const [counted] = await db
            .update(users)
            .set({
              failedLoginCount: sql`case when ${users.failedLoginCount} + 1 >= ${MAX_FAILED_LOGINS} then 0 else ${users.failedLoginCount} + 1 end`,
              lockedUntil: sql`case when ${users.failedLoginCount} + 1 >= ${MAX_FAILED_LOGINS} then now() + make_interval(mins => ${LOCKOUT_MINUTES}) else ${users.lockedUntil} end`,
            })
            .where(and(eq(users.clinicId, account.clinicId), eq(users.id, account.id)))
            .returning({ lockedUntil: users.lockedUntil });
          const locked = Boolean(counted?.lockedUntil && counted.lockedUntil.getTime() > Date.now());
          await recordAudit(db, {
            clinicId: account.clinicId,
            userId: account.id,
            action: locked ? 'login_locked' : 'login_failed',
            entity: 'user',
            entityId: account.id,
            details: { ip: request.ip, factor: 'password' },
          });
        }
        return reply.code(401).send({ message: INVALID_CREDENTIALS });
      }
      if (!account.isActive) {
        return reply
          .code(403)
          .send({ message: 'This account is deactivated. Ask your clinic administrator.' });
      }

      // The right password opens no account that failures sent alongside it have just locked.
      const [opened] = await db
        .update(users)
        .set({ failedLoginCount: 0, lockedUntil: null, lastLogin: new Date() })
        .where(
          and(
            eq(users.clinicId, account.clinicId),
            eq(users.id, account.id),
            sql`(${users.lockedUntil} is null or ${users.lockedUntil} <= now())`,
          ),
        )
        .returning({ id: users.id });
      if (!opened) {
        return reply
          .code(429)
          .send({ message: `Too many failed sign-in attempts. Try again in ${LOCKOUT_MINUTES} minutes.` });
      }
      await recordAudit(db, {
        clinicId: account.clinicId,
        userId: account.id,
        action: 'login',
        entity: 'user',
        entityId: account.id,
        details: { ip: request.ip, factor: 'password', remember },
      });
      const staff = await findStaff(db, account.clinicId, account.id);
      if (!staff) throw new Error('Signed-in user vanished');
      const refresh = await issueRefreshToken(db, { clinicId: staff.clinicId, userId: staff.id, remember });
      setRefreshCookie(request, reply, refresh.token, remember);
      return grant(staff, refresh.family);
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
      const rotated = token ? await rotateRefreshToken(db, token) : null;
      const staff = rotated ? await findStaff(db, rotated.clinicId, rotated.userId) : null;
      if (!rotated || !staff?.isActive) {
        clearRefreshCookie(reply);
        return reply.code(401).send({ message: SESSION_EXPIRED });
      }
      // An active browser refreshes at least once an access token's lifetime; a session silent for
      // longer than the clinic's idle time and that lifetime was left idle, and is over.
      const { idleTimeoutMinutes } = await readSettings(db, staff.clinicId);
      const silentMs = Date.now() - rotated.lastUsedAt.getTime();
      if (silentMs > (idleTimeoutMinutes * 60 + ACCESS_TOKEN_SECONDS) * 1000) {
        await revokeRefreshToken(db, rotated.next.token);
        clearRefreshCookie(reply);
        return reply.code(401).send({ message: idleSignOutMessage(idleTimeoutMinutes) });
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
        security: [{ bearerAuth: [] }],
        body: passwordChangeSchema,
        response: {
          200: authResponseSchema.extend({ message: z.string() }),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request, reply) => {
      const staff = guard.staffOf(request);
      const { current_password: current, new_password: next } = request.body;
      const [account] = await db
        .select({ passwordHash: users.passwordHash })
        .from(users)
        .where(and(eq(users.clinicId, staff.clinicId), eq(users.id, staff.id)));
      if (!account || !(await verifyPassword(current, account.passwordHash))) {
        throw new HttpError(400, `Invalid current_password: ${WRONG_CURRENT_PASSWORD}`, [
          { field: 'current_password', message: WRONG_CURRENT_PASSWORD },
        ]);
      }
      requireUncommonPassword(next, 'new_password');
      const passwordHash = await hashPassword(next);
      const cookie = request.cookies[REFRESH_COOKIE];
      const remember = cookie ? await sessionIsRemembered(db, cookie) : false;
      const sessionsSince = new Date();
      const refresh = await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ passwordHash, sessionsSince, failedLoginCount: 0, lockedUntil: null, updatedAt: new Date() })
          .where(and(eq(users.clinicId, staff.clinicId), eq(users.id, staff.id)));
        await revokeUserSessions(tx, staff.clinicId, staff.id);
        await recordAudit(tx, {
          clinicId: staff.clinicId,
          userId: staff.id,
          action: 'update',
          entity: 'user',
          entityId: staff.id,
          details: { name: staff.name, changed: ['password'] },
        });
        return issueRefreshToken(tx as unknown as Database, {
          clinicId: staff.clinicId,
          userId: staff.id,
          remember,
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
        security: [{ bearerAuth: [] }],
        response: { 200: z.object({ user: wireUserSchema }), ...errorResponses(401) },
      },
    },
    async (request) => ({ user: toWireUser(guard.staffOf(request)) }),
  );
}
