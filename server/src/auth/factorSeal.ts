import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { Unavailable } from '../domain/errors';

/**
 * A sealed key as the database keeps it: `v2.<key id>.<iv, tag and ciphertext>`. Seals of the first
 * release (`v1.<…>`) carry no key id: every key this server knows is tried on them.
 */
const SEALED_V1 = 'v1.';
const SEALED_V2 = 'v2.';
/** Matches every sealed key in SQL `like`: an authenticator key as text (base32) never starts so. */
export const SEALED_LIKE = 'v_.%';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What staff are told when this server's factor keys do not open a stored authenticator key. */
export const FACTOR_KEY_UNAVAILABLE =
  "Two-step sign-in can't check codes on this server right now: its factor key does not open the stored authenticator keys. Ask your administrator.";

/** A stored authenticator key none of this server's factor keys opens (FACTOR_KEY changed, not rotated). */
export class FactorKeyUnavailable extends Unavailable {
  constructor() {
    super(FACTOR_KEY_UNAVAILABLE);
  }
}

/**
 * Authenticator keys as the database keeps them: sealed with AES-256-GCM under the server's factor
 * key (FACTOR_KEY, or one kept in the database when none is configured) and bound to their user, so
 * a copy of the table alone gives no codes, and a key moved to another user's row does not open.
 * Each seal names its key by id, so keys can be rotated (`npm run keys:rotate`, docs/security.md).
 */
export interface FactorSeal {
  /** The id of the key new seals are made with. */
  readonly keyId: string;
  seal(secret: string, owner: { clinicId: number; userId: number }): string;
  /**
   * The key as the authenticator app has it; a key kept before sealing began is answered as it is.
   * Throws FactorKeyUnavailable when no key of this server opens it.
   */
  open(stored: string, owner: { clinicId: number; userId: number }): string;
  /** Whether a stored key is sealed under the current key already. */
  isCurrent(stored: string): boolean;
}

export const isSealed = (stored: string): boolean =>
  stored.startsWith(SEALED_V1) || stored.startsWith(SEALED_V2);

const ownerOf = (owner: { clinicId: number; userId: number }) =>
  Buffer.from(`${owner.clinicId}:${owner.userId}`);

/** A key's id: public, derived from the key material, never revealing it. */
export const factorKeyIdOf = (keyMaterial: string): string =>
  createHash('sha256').update(`factor-key-id:${keyMaterial}`).digest('hex').slice(0, 12);

interface CipherKey {
  id: string;
  key: Buffer;
}

const cipherKeyOf = (keyMaterial: string): CipherKey => ({
  id: factorKeyIdOf(keyMaterial),
  key: createHash('sha256').update(`factor-seal:${keyMaterial}`).digest(),
});

function openWith(key: Buffer, payload: string, owner: { clinicId: number; userId: number }): string {
  const bytes = Buffer.from(payload, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
  decipher.setAAD(ownerOf(owner));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
    'utf8',
  );
}

/**
 * The seal of this key material (any text: it is hashed to the cipher's 256-bit key); `previous`
 * keys still open what they sealed, so keys sealed before a rotation keep signing in until resealed.
 */
export function factorSealOf(keyMaterial: string, previous: readonly string[] = []): FactorSeal {
  const current = cipherKeyOf(keyMaterial);
  const known = [current, ...previous.map(cipherKeyOf)];
  return {
    keyId: current.id,
    seal(secret, owner) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current.key, iv);
      cipher.setAAD(ownerOf(owner));
      const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return `${SEALED_V2}${current.id}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
    },
    open(stored, owner) {
      if (!isSealed(stored)) return stored;
      if (stored.startsWith(SEALED_V2)) {
        const [keyId = '', payload = ''] = stored.slice(SEALED_V2.length).split('.');
        const key = known.find((each) => each.id === keyId);
        if (!key) throw new FactorKeyUnavailable();
        try {
          return openWith(key.key, payload, owner);
        } catch {
          throw new FactorKeyUnavailable();
        }
      }
      for (const key of known) {
        try {
          return openWith(key.key, stored.slice(SEALED_V1.length), owner);
        } catch {
          // Not this key: a first-release seal names none, so the next is tried.
        }
      }
      throw new FactorKeyUnavailable();
    },
    isCurrent: (stored) => stored.startsWith(`${SEALED_V2}${current.id}.`),
  };
}
