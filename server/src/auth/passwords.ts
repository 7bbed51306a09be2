import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { DEFAULT_PASSWORD_HASH_COST } from '../config';

/*
 * scrypt with r 8, p 1 and the server's cost (PASSWORD_HASH_COST, log2 N; config.ts). Stored hashes
 * name their own cost, and one below the server's is raised at its owner's next sign-in.
 */
const R = 8;
const P = 1;
const KEY_LENGTH = 64;

let cost = DEFAULT_PASSWORD_HASH_COST;

/** The cost new hashes are made with (buildApp sets it from the configuration before anything hashes). */
export function usePasswordHashCost(log2N: number): void {
  cost = log2N;
}

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_LENGTH, { N: n, r, p, maxmem: 2 * 128 * r * n + 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** `scrypt$N$r$p$salt$hash`, so parameters can be raised later without breaking stored hashes. */
export async function hashPassword(password: string): Promise<string> {
  const n = 2 ** cost;
  const salt = randomBytes(16);
  const key = await derive(password, salt, n, R, P);
  return `scrypt$${n}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

const MAX_STORED_N = 2 ** 18;

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  // A stored hash naming a cost no server sets would hold the process's memory: not tried.
  if (Number(n) > MAX_STORED_N || Number(r) !== R || Number(p) !== P) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Whether a stored hash was made at a lower cost than the server's: its next sign-in raises it. */
export function needsRehash(stored: string): boolean {
  const n = Number(stored.split('$')[1]);
  return !Number.isFinite(n) || n < 2 ** cost;
}

/** Hashes of nothing anyone knows, one per cost, so an unknown username costs what a wrong password does. */
const dummies = new Map<number, Promise<string>>();
export function dummyPasswordHash(): Promise<string> {
  let dummy = dummies.get(cost);
  if (!dummy) {
    dummy = hashPassword(randomBytes(16).toString('hex'));
    dummies.set(cost, dummy);
  }
  return dummy;
}
