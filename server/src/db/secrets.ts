import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from './client';
import { serverSecrets } from './schema';

/**
 * A secret every API process on this database agrees on: the first process to start creates it,
 * the rest read it (insert-if-absent, then read, so two processes starting at once agree too).
 */
export async function sharedSecret(db: Database, name: string): Promise<string> {
  await db
    .insert(serverSecrets)
    .values({ name, value: randomBytes(48).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, name));
  if (!row) throw new Error(`Secret ${name} could not be stored`);
  return row.value;
}

/** A secret the database keeps, or null when none was ever made (nothing is created). */
export async function storedSecret(db: Database, name: string): Promise<string | null> {
  const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, name));
  return row?.value ?? null;
}
