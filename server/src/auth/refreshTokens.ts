import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Database } from '../db/client';
import { refreshTokens } from '../db/schema';

export const REFRESH_COOKIE = 'dental_refresh';
/**
 * A session's absolute lifetime from its sign-in, however active it is: remembered, this long; else
 * 12 hours (its cookie also ends with the browser). After it, a new sign-in is required.
 */
export const REMEMBERED_SESSION_SECONDS = 30 * 24 * 60 * 60;
const BROWSER_SESSION_SECONDS = 12 * 60 * 60;

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export interface IssuedRefreshToken {
  token: string;
  remember: boolean;
  /** The session: every token a sign-in's rotations issue shares it. */
  family: string;
}

export async function issueRefreshToken(
  db: Database,
  owner: {
    clinicId: number;
    userId: number;
    remember: boolean;
    family?: string;
    /** When the session ends, whatever its rotations: set by its sign-in, kept by each rotation. */
    expiresAt?: Date;
  },
): Promise<IssuedRefreshToken> {
  const token = randomBytes(32).toString('base64url');
  const family = owner.family ?? randomUUID();
  const lifetime = owner.remember ? REMEMBERED_SESSION_SECONDS : BROWSER_SESSION_SECONDS;
  await db.insert(refreshTokens).values({
    tokenHash: hashToken(token),
    clinicId: owner.clinicId,
    userId: owner.userId,
    family,
    remember: owner.remember,
    expiresAt: owner.expiresAt ?? new Date(Date.now() + lifetime * 1000),
  });
  return { token, remember: owner.remember, family };
}

/**
 * Trades a refresh token for a new one. A token that was already used (revoked) means it leaked:
 * its whole family is revoked and the caller must sign in again.
 */
export async function rotateRefreshToken(
  db: Database,
  token: string,
): Promise<{ clinicId: number; userId: number; lastUsedAt: Date; next: IssuedRefreshToken } | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, hashToken(token)))
      .for('update');
    if (!row) return null;
    if (row.revokedAt) {
      await tx
        .update(refreshTokens)
        .set({ revokedAt: new Date() })
        .where(and(eq(refreshTokens.family, row.family), isNull(refreshTokens.revokedAt)));
      return null;
    }
    if (row.expiresAt.getTime() <= Date.now()) return null;
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

/** Revokes a live refresh token; answers whose session it was, or null when it was not live. */
export async function revokeRefreshToken(
  db: Database,
  token: string,
): Promise<{ clinicId: number; userId: number } | null> {
  const [revoked] = await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.tokenHash, hashToken(token)), isNull(refreshTokens.revokedAt)))
    .returning({ clinicId: refreshTokens.clinicId, userId: refreshTokens.userId });
  return revoked ?? null;
}

/** Ends every session of a user (deactivation, deletion, password reset). */
export async function revokeUserSessions(db: Pick<Database, 'update'>, clinicId: number, userId: number) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(refreshTokens.clinicId, clinicId),
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
      ),
    );
}

/** Whether the session of this refresh token was remembered ("Remember me"); false for an unknown one. */
export async function sessionIsRemembered(db: Database, token: string): Promise<boolean> {
  const [row] = await db
    .select({ remember: refreshTokens.remember })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(token)));
  return row?.remember ?? false;
}

/** Of these sessions (families), the ones still signed in: a token of theirs neither revoked nor expired. */
export async function liveSessions(db: Database, clinicId: number, families: string[]): Promise<Set<string>> {
  if (families.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ family: refreshTokens.family })
    .from(refreshTokens)
    .where(
      and(
        eq(refreshTokens.clinicId, clinicId),
        inArray(refreshTokens.family, families),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, new Date()),
      ),
    );
  return new Set(rows.map((row) => row.family));
}
