import { hasPermission, type Permission } from '@dental/shared/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { recordRefusal } from '../db/auditLog';
import type { Database } from '../db/client';
import type { ClinicVersions } from '../plugins/clinicVersions';
import { accessClaimsOf, bearerToken } from './accessClaims';
import { findSignedInStaff, type Staff } from './staff';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the guard on every authenticated route. */
    staff: Staff | null;
  }
}

export const AUTHENTICATION_REQUIRED = 'Authentication required';
export const PASSWORD_CHANGED = 'Your password was changed. Please sign in again.';
/** The session was signed out, ended from another device or by an administrator, or is past its lifetime. */
export const SESSION_ENDED = 'You were signed out. Please sign in again.';

export interface Guard {
  /** Any signed-in, active staff member. */
  authenticated: onRequestAsyncHookHandler;
  /** A staff member whose role holds the permission (docs/product.md, Roles and permissions); refusals are audited. */
  permitted: (permission: Permission, action: string) => onRequestAsyncHookHandler;
  /** The staff member of a request that passed the guard. */
  staffOf: (request: FastifyRequest) => Staff;
  /**
   * A session of the clinic ended in this request (signing out, idle): what this process remembers
   * of the clinic's sessions is read again on the next request. Other processes hear the ending on
   * the clinic's channel (migration 0027).
   */
  sessionsEnded: (clinicId: number) => void;
}

/** Staff and session lookups made per request are reused while their clinic's version holds. */
const STAFF_CACHE_MAX = 10_000;

export function createGuard(app: FastifyInstance, db: Database, versions: ClinicVersions): Guard {
  app.decorateRequest('staff', null);
  const signedInCache = new Map<string, { version: string; staff: Staff | null; sessionLive: boolean }>();

  // A deactivated or deleted account, or an ended session, is refused on its next request: the
  // change moved the clinic's version (ending a session is audited and so announced to every API
  // process), and the account and session are read again, in one lookup.
  const signedIn = async (clinicId: number, userId: number, session: string | null) => {
    const version = await versions.current(clinicId);
    const key = `${clinicId}:${userId}:${session ?? ''}`;
    const cached = signedInCache.get(key);
    if (cached?.version === version) return cached;
    const found = { version, ...(await findSignedInStaff(db, clinicId, userId, session)) };
    if (signedInCache.size >= STAFF_CACHE_MAX) signedInCache.clear();
    signedInCache.set(key, found);
    return found;
  };

  const authenticate = async (request: FastifyRequest, reply: FastifyReply): Promise<Staff | null> => {
    if (!bearerToken(request)) {
      await reply.code(401).send({ message: AUTHENTICATION_REQUIRED });
      return null;
    }
    const claims = accessClaimsOf(app, request);
    if (!claims) {
      await reply.code(401).send({ message: 'Your session has expired. Please sign in again.' });
      return null;
    }
    const { staff, sessionLive } = await signedIn(claims.cid, Number(claims.sub), claims.sid ?? null);
    if (!staff?.isActive) {
      await reply.code(401).send({ message: AUTHENTICATION_REQUIRED });
      return null;
    }
    if (staff.sessionsSince && (claims.at ?? (claims.iat ?? 0) * 1000) < staff.sessionsSince.getTime()) {
      await reply.code(401).send({ message: PASSWORD_CHANGED });
      return null;
    }
    if (!sessionLive) {
      await reply.code(401).send({ message: SESSION_ENDED });
      return null;
    }
    request.staff = staff;
    return staff;
  };

  return {
    authenticated: async (request: FastifyRequest, reply: FastifyReply) => {
      await authenticate(request, reply);
    },
    permitted: (permission, action) => async (request: FastifyRequest, reply: FastifyReply) => {
      const staff = await authenticate(request, reply);
      if (!staff) return;
      if (hasPermission(staff.role, permission)) return;
      await recordRefusal(db, request, staff, { permission });
      await reply.code(403).send({ message: `You don't have permission to ${action}.` });
    },
    sessionsEnded: (clinicId) => versions.changed(clinicId),
    staffOf: (request) => {
      if (!request.staff) throw new Error('Route is missing its guard');
      return request.staff;
    },
  };
}
