import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { RECOVERY_CODE_COUNT, TOTP_DIGITS, TOTP_PERIOD_SECONDS } from '@dental/shared/domain';
import { and, eq, isNull, lt, notLike, or, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { Database } from '../db/client';
import { ofUser } from '../db/ownedBy';
import { recoveryCodes, userFactors } from '../db/schema';
import { FactorKeyUnavailable, type FactorSeal } from './factorSeal';

type Writer = Pick<Database, 'insert' | 'update' | 'delete' | 'select'>;

/** A user's second factor as the sign-in and Settings → Security read it. */
export interface FactorState {
  /** The key in use as stored (sealed: FactorSeal opens it). */
  totpSecret: string | null;
  totpPendingSecret: string | null;
  enabledAt: Date | null;
  lastStep: number;
  recoveryCodesLeft: number;
}

const totpOf = (secret: string, label = 'user', issuer = 'Dental Clinic') =>
  new TOTP({
    issuer,
    label,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  });

/** A new authenticator key: 160 bits (RFC 4226's recommendation), base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://` address a QR code carries: the app shows the clinic and the username. */
export function otpauthUrl(secret: string, username: string, clinicName: string): string {
  return totpOf(secret, username, clinicName).toString();
}

/**
 * The time step a code belongs to, within one step either side of now (a phone's clock a little
 * off), or null when it is no code of this key's.
 */
export function totpStepOf(secret: string, code: string, now = Date.now()): number | null {
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return null;
  return Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

export async function readFactor(db: Database, clinicId: number, userId: number): Promise<FactorState> {
  const [row] = await db
    .select({
      totpSecret: userFactors.totpSecret,
      totpPendingSecret: userFactors.totpPendingSecret,
      enabledAt: userFactors.totpEnabledAt,
      lastStep: userFactors.totpLastStep,
      recoveryCodesLeft: sql<number>`(select count(*)::int from ${recoveryCodes} r
        where r.clinic_id = ${clinicId} and r.user_id = ${userId} and r.used_at is null)`,
    })
    .from(userFactors)
    .where(ofUser(userFactors, clinicId, userId));
  return (
    row ?? { totpSecret: null, totpPendingSecret: null, enabledAt: null, lastStep: 0, recoveryCodesLeft: 0 }
  );
}

/**
 * Accepts a code of the user's key once: the step it belongs to must come after the last accepted
 * one, and taking it is one conditional update, so the same code sent twice at once is accepted once.
 */
export async function acceptTotpCode(
  db: Writer,
  seal: FactorSeal,
  clinicId: number,
  userId: number,
  secret: string,
  code: string,
): Promise<boolean> {
  const step = totpStepOf(seal.open(secret, { clinicId, userId }), code);
  if (step === null) return false;
  const taken = await db
    .update(userFactors)
    .set({ totpLastStep: step })
    .where(
      and(
        ofUser(userFactors, clinicId, userId),
        eq(userFactors.totpSecret, secret),
        lt(userFactors.totpLastStep, step),
      ),
    )
    .returning({ step: userFactors.totpLastStep });
  return taken.length > 0;
}

/** Keeps a new key waiting for its first code, sealed; the key in use (if any) stays until then. */
export async function startTotpSetup(
  db: Writer,
  seal: FactorSeal,
  clinicId: number,
  userId: number,
  secret: string,
) {
  const sealed = seal.seal(secret, { clinicId, userId });
  await db
    .insert(userFactors)
    .values({ clinicId, userId, totpPendingSecret: sealed })
    .onConflictDoUpdate({
      target: [userFactors.clinicId, userFactors.userId],
      set: { totpPendingSecret: sealed, updatedAt: new Date() },
    });
}

/** The waiting key becomes the user's key, confirmed by its first code (which is then used up). */
export async function confirmTotpSetup(
  db: Writer,
  seal: FactorSeal,
  clinicId: number,
  userId: number,
  code: string,
): Promise<boolean> {
  const [row] = await db
    .select({ pending: userFactors.totpPendingSecret })
    .from(userFactors)
    .where(ofUser(userFactors, clinicId, userId));
  const step = row?.pending ? totpStepOf(seal.open(row.pending, { clinicId, userId }), code) : null;
  if (!row?.pending || step === null) return false;
  const confirmed = await db
    .update(userFactors)
    .set({
      totpSecret: row.pending,
      totpPendingSecret: null,
      totpEnabledAt: new Date(),
      totpLastStep: step,
      updatedAt: new Date(),
    })
    .where(and(ofUser(userFactors, clinicId, userId), eq(userFactors.totpPendingSecret, row.pending)))
    .returning({ clinicId: userFactors.clinicId });
  return confirmed.length > 0;
}

/** Turns the factor off: the key, a waiting key and the recovery codes go. */
export async function removeFactor(db: Writer, clinicId: number, userId: number): Promise<void> {
  await db.delete(userFactors).where(ofUser(userFactors, clinicId, userId));
  await db.delete(recoveryCodes).where(ofUser(recoveryCodes, clinicId, userId));
}

const hashRecoveryCode = (salt: string, code: string) =>
  createHash('sha256').update(`${salt}:${code}`).digest('base64url');

/** Written as shown: lowercase letters and digits in groups of four, dashes between. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function newRecoveryCode(): string {
  // 12 characters of a 31-letter alphabet: about 59 bits, beyond guessing at the sign-in's limits.
  const bytes = randomBytes(12);
  const letters = [...bytes].map((byte) => RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length]).join('');
  return `${letters.slice(0, 4)}-${letters.slice(4, 8)}-${letters.slice(8, 12)}`;
}

/**
 * A fresh set of recovery codes replaces the old: answered once, stored only as salted hashes (the
 * codes are random and long, so one fast hash with its own salt each is enough).
 */
export async function renewRecoveryCodes(db: Writer, clinicId: number, userId: number): Promise<string[]> {
  await db.delete(recoveryCodes).where(ofUser(recoveryCodes, clinicId, userId));
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.insert(recoveryCodes).values(
    codes.map((code) => {
      const salt = randomBytes(16).toString('base64url');
      return { clinicId, userId, salt, codeHash: hashRecoveryCode(salt, code.replace(/-/g, '')) };
    }),
  );
  return codes;
}

/** Uses up one of the user's recovery codes (typed without dashes, lowercase); false when none fits. */
export async function useRecoveryCode(
  db: Writer,
  clinicId: number,
  userId: number,
  typed: string,
): Promise<boolean> {
  const unused = await db
    .select({ id: recoveryCodes.id, salt: recoveryCodes.salt, codeHash: recoveryCodes.codeHash })
    .from(recoveryCodes)
    .where(and(ofUser(recoveryCodes, clinicId, userId), isNull(recoveryCodes.usedAt)));
  const match = unused.find((row) => {
    const expected = Buffer.from(row.codeHash);
    const actual = Buffer.from(hashRecoveryCode(row.salt, typed));
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  });
  if (!match) return false;
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(recoveryCodes.id, match.id), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return used.length > 0;
}

/** What resealing the stored authenticator keys did. */
export interface Resealing {
  /** Keys now sealed under the current key (kept as text, or under an earlier key, before). */
  resealed: number;
  /** Keys none of this server's keys opens: they stay as they are, and their codes are refused. */
  unopened: number;
}

/**
 * Seals every stored authenticator key under the current factor key: keys a database kept as text
 * before sealing began, and keys sealed under an earlier key this server still knows (a rotation,
 * FACTOR_KEY_PREVIOUS). Run at every start and by `npm run keys:rotate`; only the rows that need it
 * are read. Each is replaced only while it is still the one read, so processes starting together
 * reseal it once.
 */
export async function resealStoredKeys(db: Database, seal: FactorSeal): Promise<Resealing> {
  const current = `v2.${seal.keyId}.%`;
  const rows = await db
    .select({
      clinicId: userFactors.clinicId,
      userId: userFactors.userId,
      secret: userFactors.totpSecret,
      pending: userFactors.totpPendingSecret,
    })
    .from(userFactors)
    .where(or(notLike(userFactors.totpSecret, current), notLike(userFactors.totpPendingSecret, current)));
  const done: Resealing = { resealed: 0, unopened: 0 };
  for (const row of rows) {
    const owner = { clinicId: row.clinicId, userId: row.userId };
    const mine = ofUser(userFactors, row.clinicId, row.userId);
    for (const column of ['totpSecret', 'totpPendingSecret'] as const) {
      const stored = column === 'totpSecret' ? row.secret : row.pending;
      if (stored === null || seal.isCurrent(stored)) continue;
      let opened: string;
      try {
        opened = seal.open(stored, owner);
      } catch (error) {
        if (!(error instanceof FactorKeyUnavailable)) throw error;
        done.unopened += 1;
        continue;
      }
      await db
        .update(userFactors)
        .set({ [column]: seal.seal(opened, owner) })
        .where(and(mine, eq(userFactors[column], stored)));
      done.resealed += 1;
    }
  }
  return done;
}
