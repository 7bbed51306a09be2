import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** What a sealed key starts with; a stored key without it was kept before sealing began. */
export const SEALED_PREFIX = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Authenticator keys as the database keeps them: sealed with AES-256-GCM under the server's factor
 * key (FACTOR_KEY, or one kept in the database when none is configured) and bound to their user, so
 * a copy of the table alone gives no codes, and a key moved to another user's row does not open.
 */
export interface FactorSeal {
  seal(secret: string, owner: { clinicId: number; userId: number }): string;
  /** The key as the authenticator app has it; a key kept before sealing began is answered as it is. */
  open(stored: string, owner: { clinicId: number; userId: number }): string;
}

export const isSealed = (stored: string): boolean => stored.startsWith(SEALED_PREFIX);

const ownerOf = (owner: { clinicId: number; userId: number }) =>
  Buffer.from(`${owner.clinicId}:${owner.userId}`);

/** The seal of this key material (any text: it is hashed to the cipher's 256-bit key). */
export function factorSealOf(keyMaterial: string): FactorSeal {
  const key = createHash('sha256').update(`factor-seal:${keyMaterial}`).digest();
  return {
    seal(secret, owner) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(ownerOf(owner));
      const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
    },
    open(stored, owner) {
      if (!isSealed(stored)) return stored;
      const bytes = Buffer.from(stored.slice(SEALED_PREFIX.length), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
      decipher.setAAD(ownerOf(owner));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}
