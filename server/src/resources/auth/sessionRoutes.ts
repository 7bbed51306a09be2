import { idParamsSchema, type SignedInSession, sessionListSchema } from '@dental/shared/domain';
import Bowser from 'bowser';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Guard } from '../../auth/guard';
import {
  endSession,
  listLiveSessions,
  REFRESH_COOKIE,
  revokeUserSessions,
  type SessionEndReason,
  type SignInFactor,
} from '../../auth/refreshTokens';
import { findStaff } from '../../auth/staff';
import { recordAudit } from '../../db/auditLog';
import type { Database } from '../../db/client';
import { SECURITY } from '../../plugins/apiDocs';
import { errorResponses } from '../../plugins/errors';
import type { SignInSteps } from './signIn';

const TAGS = ['auth'];
const SESSION_NOT_FOUND = 'That session is not signed in any more.';
const messageSchema = z.object({ message: z.string() });

/** "Chrome 140" and "Linux" from a User-Agent header; what a browser does not say stays unknown. */
function describeBrowser(userAgent: string): { browser: string; system: string } {
  if (!userAgent) return { browser: 'Unknown browser', system: 'Unknown system' };
  const parsed = Bowser.parse(userAgent);
  const major = parsed.browser.version?.split('.')[0];
  return {
    browser: parsed.browser.name ? [parsed.browser.name, major].filter(Boolean).join(' ') : 'Unknown browser',
    system: parsed.os.name
      ? [parsed.os.name, parsed.os.versionName].filter(Boolean).join(' ')
      : 'Unknown system',
  };
}

/**
 * Sessions a user can see and end (Settings → Security), and an administrator's "sign out
 * everywhere" for one of the clinic's users. An ended session's next call is refused (the guard)
 * and its event stream closes.
 */
export function registerSessionRoutes(
  app: FastifyInstance,
  db: Database,
  guard: Guard,
  steps: SignInSteps,
): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  const currentSessionOf = (request: FastifyRequest) =>
    request.accessClaims ? request.accessClaims.sid : undefined;

  /** Records that sessions ended; the record is announced, so every API process drops them at once. */
  const recordEnded = (
    writer: Pick<Database, 'insert'>,
    request: FastifyRequest,
    owner: { clinicId: number; id: number },
    ended: string[],
    reason: SessionEndReason,
  ) =>
    recordAudit(writer, {
      clinicId: owner.clinicId,
      userId: guard.staffOf(request).id,
      action: 'session_ended',
      entity: 'session',
      entityId: owner.id,
      details: { ip: request.ip, reason, sessions: ended.length },
    });

  /** Ending the session this request was made in is signing out: the browser's cookie goes too. */
  const forgetCookieIfCurrent = (request: FastifyRequest, reply: FastifyReply, ended: string[]) => {
    const current = currentSessionOf(request);
    if (current && ended.includes(current) && request.cookies[REFRESH_COOKIE])
      steps.clearRefreshCookie(reply);
  };

  routes.get(
    '/auth/sessions',
    {
      onRequest: guard.authenticated,
      schema: {
        tags: TAGS,
        summary:
          'Your signed-in sessions (any role), last used first: browser and system, address, when each began and was last used; `current` marks this one',
        security: SECURITY,
        response: { 200: sessionListSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      const staff = guard.staffOf(request);
      const current = currentSessionOf(request);
      const rows = await listLiveSessions(db, staff.clinicId, staff.id);
      const data: SignedInSession[] = rows.map((row) => ({
        id: row.id,
        ...describeBrowser(row.userAgent),
        ip: row.ip,
        created_at: row.createdAt.toISOString(),
        last_used_at: row.lastUsedAt.toISOString(),
        expires_at: row.expiresAt.toISOString(),
        remember: row.remember,
        // The database's check keeps the factor to the three.
        factor: row.factor as SignInFactor,
        current: row.id === current,
      }));
      return { data };
    },
  );

  routes.delete(
    '/auth/sessions/:id',
    {
      onRequest: guard.authenticated,
      schema: {
        tags: TAGS,
        summary: 'End one of your sessions (any role): that browser is signed out at its next call',
        security: SECURITY,
        params: z.object({ id: z.string().uuid('Not a session of yours') }),
        response: { 200: messageSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const staff = guard.staffOf(request);
      const ended = await db.transaction(async (tx) => {
        const endedOne = await endSession(tx, staff.clinicId, staff.id, request.params.id, 'ended_by_user');
        if (endedOne) await recordEnded(tx, request, staff, [request.params.id], 'ended_by_user');
        return endedOne;
      });
      if (!ended) throw app.httpErrors.notFound(SESSION_NOT_FOUND);
      forgetCookieIfCurrent(request, reply, [request.params.id]);
      return { message: 'The session was signed out.' };
    },
  );

  routes.delete(
    '/auth/sessions',
    {
      onRequest: guard.authenticated,
      schema: {
        tags: TAGS,
        summary: 'End all your other sessions (any role): this one stays signed in',
        security: SECURITY,
        response: { 200: messageSchema.extend({ ended: z.number().int() }), ...errorResponses(401) },
      },
    },
    async (request) => {
      const staff = guard.staffOf(request);
      const ended = await db.transaction(async (tx) => {
        const endedIds = await revokeUserSessions(
          tx,
          staff.clinicId,
          staff.id,
          'ended_by_user',
          currentSessionOf(request) ?? null,
        );
        if (endedIds.length > 0) await recordEnded(tx, request, staff, endedIds, 'ended_by_user');
        return endedIds;
      });
      return {
        message:
          ended.length === 1
            ? '1 other session was signed out.'
            : `${ended.length} other sessions were signed out.`,
        ended: ended.length,
      };
    },
  );

  routes.delete(
    '/api/users/:id/sessions',
    {
      onRequest: guard.permitted('all', 'end the sessions of users'),
      schema: {
        tags: ['users'],
        summary: "Sign one of the clinic's users out everywhere (admin): each of their sessions ends",
        security: SECURITY,
        params: idParamsSchema,
        response: {
          200: messageSchema.extend({ ended: z.number().int() }),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const admin = guard.staffOf(request);
      const user = await findStaff(db, admin.clinicId, request.params.id);
      if (!user) throw app.httpErrors.notFound('User not found');
      const ended = await db.transaction(async (tx) => {
        const endedIds = await revokeUserSessions(tx, admin.clinicId, user.id, 'ended_by_admin');
        await recordEnded(tx, request, user, endedIds, 'ended_by_admin');
        return endedIds;
      });
      forgetCookieIfCurrent(request, reply, ended);
      return {
        message: `${user.name} was signed out of ${ended.length === 1 ? '1 session' : `${ended.length} sessions`}.`,
        ended: ended.length,
      };
    },
  );
}
