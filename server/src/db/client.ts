import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { Pool } from 'pg';
import * as schema from './schema';

/**
 * One query API over both databases. The PGlite and node-postgres drizzle databases build the same
 * SQL and both answer `execute()` with `{ rows }`; the node-postgres type stands for both.
 */
export type Database = NodePgDatabase<typeof schema>;
/** The handle inside `db.transaction(async (tx) => …)`. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Reads work the same on the database or inside a transaction. */
export type Reader = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  close: () => Promise<void>;
}

const MIGRATIONS_FOLDER = path.join(__dirname, '..', '..', 'drizzle');

export async function openDatabase(options: {
  databaseUrl: string | null;
  dataDir: string | null;
  /** Told when the server drops an idle connection (a restart, an administrator). */
  onIdleConnectionError?: (error: Error) => void;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new Pool({ connectionString: options.databaseUrl, max: 20 });
    // An idle connection the server closes is dropped from the pool and replaced on demand; unheard,
    // the pool's 'error' event would end the process.
    pool.on('error', (error) => options.onIdleConnectionError?.(error));
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER });
    return { db, kind: 'postgres', close: () => pool.end() };
  }
  // pg_trgm serves the substring searches of patient lists.
  const extensions = { pg_trgm };
  const client = options.dataDir ? new PGlite(options.dataDir, { extensions }) : new PGlite({ extensions });
  await client.waitReady;
  const pgliteDb = drizzlePglite(client, { schema });
  await migratePglite(pgliteDb, { migrationsFolder: MIGRATIONS_FOLDER });
  // Same query builder and result shape (see Database above).
  const db = pgliteDb as unknown as Database;
  return { db, kind: 'pglite', close: () => client.close() };
}
