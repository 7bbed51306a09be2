import { randomUUID } from 'node:crypto';
import { MFA_TOKEN_SECONDS } from '@dental/shared/domain';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccessTokenClaims, MfaTokenClaims } from '../../auth/accessClaims';
import { hashPassword } from '../../auth/passwords';
import {
  REFRESH_COOKIE,
  REMEMBERED_SESSION_SECONDS,
  type SignInFactor,
  startSession,
} from '../../auth/refreshTokens';
import { findStaff, type Staff, toWireUser } from '../../auth/staff';
import { recordAudit } from '../../db/auditLog';
import type { Database } from '../../db/client';
import { spentSignInSteps, users } from '../../db/schema';
import { TooManyTries } from '../../domain/errors';

export const ACCESS_TOKEN_SECONDS = 15 * 60;
export const MAX_FAILED_LOGINS = 5;
export const LOCKOUT_MINUTES = 15;

/** What a password or code asked again while signed in is for (the security log says it). */
export type Recheck = 'password_change' | 'factor_setup' | 'factor_off' | 'recovery_codes';

/** The account a sign-in step acts on. */
export interface SigningIn {
  clinicId: number;
  id: number;
  lockedUntil: Date | null;
}

const lockedMessage = (minutes: number) =>
  `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;

/**
 * The steps every way of signing in shares (a password, then maybe a code or a recovery code): the
 * lock after failed attempts, which a wrong password and a wrong code count alike; the session, its
 * refresh cookie and the access token.
 */
export function signInSteps(app: FastifyInstance, db: Database, httpsOnly: boolean) {
  const setRefreshCookie = (
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
    remember: boolean,
  ) => {
    reply.setCookie(REFRESH_COOKIE, token, {
      httpOnly: true,
      sameSite: 'strict',
      // Over https only, never over plain http, whatever a request's protocol says.
      secure: httpsOnly || request.protocol === 'https',
      path: '/auth',
      // Without Max-Age the cookie, and so the session, ends with the browser session.
      ...(remember ? { maxAge: REMEMBERED_SESSION_SECONDS } : {}),
    });
  };
  const clearRefreshCookie = (reply: FastifyReply) => reply.clearCookie(REFRESH_COOKIE, { path: '/auth' });

  const grant = (staff: Staff, session: string) => {
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

  return {
    setRefreshCookie,
    clearRefreshCookie,
    grant,

    /** The refusal for a locked account, or null when it may try. */
    lockRefusal(account: SigningIn): string | null {
      if (!account.lockedUntil || account.lockedUntil.getTime() <= Date.now()) return null;
      return lockedMessage(Math.ceil((account.lockedUntil.getTime() - Date.now()) / 60000));
    },

    /**
     * Counts a failed attempt (a wrong password or code); the fifth in a row locks the account. A
     * check asked again while signed in (`recheck`: changing the password or a factor) counts alike, so
     * a stolen access token buys no guesses of its own.
     */
    async countFailure(
      request: FastifyRequest,
      account: Pick<SigningIn, 'clinicId' | 'id'>,
      factor: SignInFactor,
      recheck?: Recheck,
    ): Promise<void> {
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
        details: { ip: request.ip, factor, ...(recheck ? { recheck } : {}) },
      });
    },

    /** A check asked again while signed in is refused while the account is locked (429). */
    async refuseWhileLocked(account: { clinicId: number; id: number }): Promise<void> {
      const [row] = await db
        .select({ lockedUntil: users.lockedUntil })
        .from(users)
        .where(and(eq(users.clinicId, account.clinicId), eq(users.id, account.id)));
      const refusal = row ? this.lockRefusal({ ...account, lockedUntil: row.lockedUntil }) : null;
      if (refusal) throw new TooManyTries(refusal);
    },

    /**
     * Clears the failures of an account whose last step succeeded, unless failures sent alongside it
     * have just locked it: then the refusal to answer.
     */
    async open(account: SigningIn): Promise<string | null> {
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
      return opened ? null : lockedMessage(LOCKOUT_MINUTES);
    },

    /** The token of the second step (a code, or setting up the factor the clinic requires). */
    secondStepToken(account: SigningIn, purpose: MfaTokenClaims['purpose'], remember: boolean): string {
      const claims: MfaTokenClaims = {
        sub: String(account.id),
        cid: account.clinicId,
        purpose,
        remember,
        jti: randomUUID(),
      };
      return app.jwt.sign(claims, { expiresIn: MFA_TOKEN_SECONDS });
    },

    /**
     * Hashes a signed-in password anew at the server's cost (PASSWORD_HASH_COST), unless it changed
     * meanwhile. The same password: no session, feed or lock is touched (migration 0031).
     */
    async raiseHashCost(account: SigningIn & { passwordHash: string }, password: string): Promise<void> {
      const raised = await hashPassword(password);
      await db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('dental.password_rehash', 'on', true)`);
        await tx
          .update(users)
          .set({ passwordHash: raised })
          .where(
            and(
              eq(users.clinicId, account.clinicId),
              eq(users.id, account.id),
              eq(users.passwordHash, account.passwordHash),
            ),
          );
      });
    },

    /** Whether a second-step token has signed someone in already (or names no id): it opens nothing. */
    async secondStepSpent(claims: MfaTokenClaims): Promise<boolean> {
      if (!claims.jti) return true;
      const [spent] = await db
        .select({ jti: spentSignInSteps.jti })
        .from(spentSignInSteps)
        .where(eq(spentSignInSteps.jti, claims.jti));
      return spent !== undefined;
    },

    /**
     * Spends a second-step token as it signs someone in: false when it was spent already (or names no
     * id), so a copy of it opens nothing. Spent tokens past their lifetime are cleared as it goes.
     */
    async spendSecondStep(claims: MfaTokenClaims): Promise<boolean> {
      if (!claims.jti || !claims.exp) return false;
      await db.delete(spentSignInSteps).where(lt(spentSignInSteps.expiresAt, sql`now()`));
      const spent = await db
        .insert(spentSignInSteps)
        .values({ jti: claims.jti, expiresAt: new Date(claims.exp * 1000) })
        .onConflictDoNothing()
        .returning({ jti: spentSignInSteps.jti });
      return spent.length > 0;
    },

    /** The sign-in succeeded: it is recorded, a session starts, and the browser gets its tokens. */
    async finish(
      request: FastifyRequest,
      reply: FastifyReply,
      account: SigningIn,
      remember: boolean,
      factor: SignInFactor,
    ) {
      await recordAudit(db, {
        clinicId: account.clinicId,
        userId: account.id,
        action: 'login',
        entity: 'user',
        entityId: account.id,
        details: { ip: request.ip, factor, remember },
      });
      const staff = await findStaff(db, account.clinicId, account.id);
      if (!staff) throw new Error('Signed-in user vanished');
      const refresh = await startSession(db, {
        clinicId: staff.clinicId,
        userId: staff.id,
        remember,
        userAgent: request.headers['user-agent'] ?? '',
        ip: request.ip,
        factor,
      });
      setRefreshCookie(request, reply, refresh.token, remember);
      return grant(staff, refresh.family);
    },
  };
}

export type SignInSteps = ReturnType<typeof signInSteps>;
