import { randomUUID } from 'node:crypto';
import { MFA_NOW_REQUIRED_MESSAGE } from '@dental/shared/domain';
import { and, desc, eq, gt, inArray, isNull, ne, type SQL } from 'drizzle-orm';
import { recordAudit } from '../db/auditLog';
import type { Database } from '../db/client';
import { ofUser } from '../db/ownedBy';
import { refreshTokens, userSessions } from '../db/schema';
import { hashSecretToken, newSecretToken } from './secretTokens';

export const REFRESH_COOKIE = 'dental_refresh';
/**
 * A session's absolute lifetime from its sign-in, however active it is: remembered, this long; else
 * 12 hours (its cookie also ends with the browser). After it, a new sign-in is required.
 */
export const REMEMBERED_SESSION_SECONDS = 30 * 24 * 60 * 60;
const BROWSER_SESSION_SECONDS = 12 * 60 * 60;

export interface IssuedRefreshToken {
  token: string;
  remember: boolean;
  /** The session: every token a sign-in's rotations issue shares it. */
  family: string;
}

/** A refresh token of a session (its family), ending when the session does. */
async function issueRefreshToken(
  db: Database,
  owner: { clinicId: number; userId: number; remember: boolean; family: string; expiresAt: Date },
): Promise<IssuedRefreshToken> {
  const token = newSecretToken(32);
  await db.insert(refreshTokens).values({
    tokenHash: hashSecretToken(token),
    clinicId: owner.clinicId,
    userId: owner.userId,
    family: owner.family,
    remember: owner.remember,
    expiresAt: owner.expiresAt,
  });
  return { token, remember: owner.remember, family: owner.family };
}

/** Why a session ended, kept on its row. */
export type SessionEndReason =
  | 'signed_out'
  | 'ended_by_user'
  | 'ended_by_admin'
  | 'password_changed'
  | 'account_changed'
  | 'factor_changed'
  | 'token_reused'
  | 'idle'
  | 'mfa_required';

export type SignInFactor = 'password' | 'totp' | 'recovery_code';

/** A new session: its row (where and how it signed in) and its first refresh token. */
export async function startSession(
  db: Database,
  start: {
    clinicId: number;
    userId: number;
    remember: boolean;
    userAgent: string;
    ip: string;
    factor: SignInFactor;
  },
): Promise<IssuedRefreshToken> {
  const family = randomUUID();
  const lifetime = start.remember ? REMEMBERED_SESSION_SECONDS : BROWSER_SESSION_SECONDS;
  const expiresAt = new Date(Date.now() + lifetime * 1000);
  await db.insert(userSessions).values({
    id: family,
    clinicId: start.clinicId,
    userId: start.userId,
    remember: start.remember,
    // What the list shows of the browser; a header longer than this is not a browser's.
    userAgent: start.userAgent.slice(0, 512),
    ip: start.ip,
    factor: start.factor,
    expiresAt,
  });
  return issueRefreshToken(db, {
    clinicId: start.clinicId,
    userId: start.userId,
    remember: start.remember,
    family,
    expiresAt,
  });
}

/** Marks sessions ended, with why; their refresh tokens are revoked by the caller's same statement set. */
async function endSessionRows(
  db: Pick<Database, 'update'>,
  where: SQL | undefined,
  reason: SessionEndReason,
): Promise<string[]> {
  const ended = await db
    .update(userSessions)
    .set({ endedAt: new Date(), endedReason: reason })
    .where(and(where, isNull(userSessions.endedAt)))
    .returning({ id: userSessions.id });
  return ended.map((row) => row.id);
}

/**
 * Trades a refresh token for a new one. A token that was already used (revoked) means it leaked:
 * its whole family is revoked, the ending is audited, and the caller must sign in again.
 */
export async function rotateRefreshToken(
  db: Database,
  token: string,
  ip: string,
): Promise<{ clinicId: number; userId: number; lastUsedAt: Date; next: IssuedRefreshToken } | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, hashSecretToken(token)))
      .for('update');
    if (!row) return null;
    if (row.revokedAt) {
      await tx
        .update(refreshTokens)
        .set({ revokedAt: new Date() })
        .where(and(eq(refreshTokens.family, row.family), isNull(refreshTokens.revokedAt)));
      const ended = await endSessionRows(tx, eq(userSessions.id, row.family), 'token_reused');
      if (ended.length > 0) {
        await recordSessionEnded(tx, { clinicId: row.clinicId, userId: row.userId }, ip, 'token_reused');
      }
      return null;
    }
    if (row.expiresAt.getTime() <= Date.now()) return null;
    await tx.update(userSessions).set({ lastUsedAt: new Date() }).where(eq(userSessions.id, row.family));
    await tx
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(eq(refreshTokens.tokenHash, row.tokenHash));
    const next = await issueRefreshToken(tx as unknown as Database, {
      clinicId: row.clinicId,
      userId: row.userId,
      remember: row.remember,
      family: row.family,
      // A session's lifetime is absolute (12 hours, or 30 days remembered), not renewed by use.
      expiresAt: row.expiresAt,
    });
    return { clinicId: row.clinicId, userId: row.userId, lastUsedAt: row.createdAt, next };
  });
}

/**
 * Ends the session of a live refresh token (signing out); answers whose session it was, or null when
 * the token was not live.
 */
export async function revokeRefreshToken(
  db: Database,
  token: string,
  reason: SessionEndReason = 'signed_out',
): Promise<{ clinicId: number; userId: number; session: string } | null> {
  const [revoked] = await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.tokenHash, hashSecretToken(token)), isNull(refreshTokens.revokedAt)))
    .returning({
      clinicId: refreshTokens.clinicId,
      userId: refreshTokens.userId,
      session: refreshTokens.family,
    });
  if (!revoked) return null;
  await endSessionRows(db, eq(userSessions.id, revoked.session), reason);
  return revoked;
}

/** An ending nobody asked for at a screen (idle, a reused token): the security log records it. */
export async function recordSessionEnded(
  db: Pick<Database, 'insert'>,
  owner: { clinicId: number; userId: number },
  ip: string,
  reason: SessionEndReason,
): Promise<void> {
  await recordAudit(db, {
    clinicId: owner.clinicId,
    userId: owner.userId,
    action: 'session_ended',
    entity: 'session',
    entityId: owner.userId,
    details: { ip, reason, sessions: 1 },
  });
}

/** Ends every session of a user (deactivation, deletion, password reset, a factor changed). */
export async function revokeUserSessions(
  db: Pick<Database, 'update'>,
  clinicId: number,
  userId: number,
  reason: SessionEndReason = 'account_changed',
  /** A session that stays signed in (the one that asked to end the others). */
  keep: string | null = null,
): Promise<string[]> {
  const ended = await endSessionRows(
    db,
    and(ofUser(userSessions, clinicId, userId), ...(keep ? [ne(userSessions.id, keep)] : [])),
    reason,
  );
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(
      and(
        ofUser(refreshTokens, clinicId, userId),
        isNull(refreshTokens.revokedAt),
        ...(keep ? [ne(refreshTokens.family, keep)] : []),
      ),
    );
  return ended;
}

/**
 * Ends the clinic's password-only sessions of `users` (the staff a tightened two-step policy now
 * covers), but for `keep`, the session that saved the policy: it ends at its own next refresh, so the
 * admin is not signed out in the middle of the settings form (docs/security.md, Sessions). Answers
 * how many sessions of each user ended, for the security log.
 */
export async function endPasswordOnlySessions(
  db: Pick<Database, 'update'>,
  clinicId: number,
  users: readonly number[],
  keep: string | null,
): Promise<Map<number, number>> {
  const ended = new Map<number, number>();
  if (users.length === 0) return ended;
  const rows = await db
    .update(userSessions)
    .set({ endedAt: new Date(), endedReason: 'mfa_required' satisfies SessionEndReason })
    .where(
      and(
        eq(userSessions.clinicId, clinicId),
        inArray(userSessions.userId, [...users]),
        eq(userSessions.factor, 'password' satisfies SignInFactor),
        isNull(userSessions.endedAt),
        ...(keep ? [ne(userSessions.id, keep)] : []),
      ),
    )
    .returning({ id: userSessions.id, userId: userSessions.userId });
  if (rows.length === 0) return ended;
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(
      and(
        inArray(
          refreshTokens.family,
          rows.map((row) => row.id),
        ),
        isNull(refreshTokens.revokedAt),
      ),
    );
  for (const row of rows) ended.set(row.userId, (ended.get(row.userId) ?? 0) + 1);
  return ended;
}

/**
 * What the browser of a refresh token that no longer rotates is told of its session's end, when it
 * ended for a reason staff should read (the clinic now requiring two-step sign-in); null otherwise.
 */
export async function endingToTell(db: Database, token: string): Promise<string | null> {
  const [row] = await db
    .select({ reason: userSessions.endedReason })
    .from(refreshTokens)
    .innerJoin(userSessions, eq(userSessions.id, refreshTokens.family))
    .where(eq(refreshTokens.tokenHash, hashSecretToken(token)));
  return row?.reason === ('mfa_required' satisfies SessionEndReason) ? MFA_NOW_REQUIRED_MESSAGE : null;
}

/** Ends one session of a user; false when it is not theirs or was over already. */
export async function endSession(
  db: Pick<Database, 'update'>,
  clinicId: number,
  userId: number,
  session: string,
  reason: SessionEndReason,
): Promise<boolean> {
  const ended = await endSessionRows(
    db,
    and(
      ofUser(userSessions, clinicId, userId),
      eq(userSessions.id, session),
      gt(userSessions.expiresAt, new Date()),
    ),
    reason,
  );
  if (ended.length === 0) return false;
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.family, session), isNull(refreshTokens.revokedAt)));
  return true;
}

/** A session still signed in: neither ended nor past its lifetime. */
const stillSignedIn = () => and(isNull(userSessions.endedAt), gt(userSessions.expiresAt, new Date()));

/** A user's sessions still signed in, newest first. */
export async function listLiveSessions(db: Database, clinicId: number, userId: number) {
  return db
    .select()
    .from(userSessions)
    .where(and(ofUser(userSessions, clinicId, userId), stillSignedIn()))
    .orderBy(desc(userSessions.lastUsedAt));
}

/** A session's row, when it is the clinic's; null for none (a token from before sessions were named). */
export async function sessionOf(db: Database, clinicId: number, session: string | undefined) {
  if (!session) return null;
  const [row] = await db
    .select()
    .from(userSessions)
    .where(and(eq(userSessions.clinicId, clinicId), eq(userSessions.id, session)));
  // The database's check keeps the factor to the three.
  return row ? { ...row, factor: row.factor as SignInFactor } : null;
}

/** Of these sessions, the ones still signed in: neither ended nor past their lifetime. */
export async function liveSessions(db: Database, clinicId: number, sessions: string[]): Promise<Set<string>> {
  if (sessions.length === 0) return new Set();
  const rows = await db
    .select({ id: userSessions.id })
    .from(userSessions)
    .where(and(eq(userSessions.clinicId, clinicId), inArray(userSessions.id, sessions), stillSignedIn()));
  return new Set(rows.map((row) => row.id));
}
