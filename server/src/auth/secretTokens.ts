import { createHash, randomBytes } from 'node:crypto';

/**
 * A secret that stands for its holder in a URL or a cookie (a session, a calendar feed, an online
 * booking's hold or manage link): `bytes` random bytes (at least 128 bits), base64url.
 */
export const newSecretToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** What the database keeps of such a secret: its SHA-256, so a copy of the tables opens nothing. */
export const hashSecretToken = (token: string): string =>
  createHash('sha256').update(token).digest('base64url');
