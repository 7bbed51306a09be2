import { createHash } from 'node:crypto';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { Client, Pool, type PoolClient } from 'pg';
import { PgliteThread } from './pgliteThread';
import { PgliteWire } from './pgliteWire';
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
  /**
   * Where the audit trail writes its records of reads (plugins/readTrail.ts): on PostgreSQL a
   * connection of its own, so a reader's record never queues behind other desks' reads for a pooled
   * connection; on PGlite its one connection.
   */
  trailDb: Database;
  kind: 'pglite' | 'postgres';
  /** Hears the channel's notifications (LISTEN), each as its payload; see `Listening`. */
  listen: (channel: string, listening: Listening) => Promise<() => Promise<void>>;
  close: () => Promise<void>;
}

/**
 * What a LISTEN tells: each notification's payload, and `onGap` whenever notifications may have been
 * missed (the connection broke; it is made again and LISTENs again by itself).
 */
export interface Listening {
  onNotification: (payload: string) => void;
  onGap: () => void;
}

/** A broken listening connection is made again after this long. */
const RELISTEN_MS = 1_000;

/**
 * LISTEN on a PostgreSQL server: a connection of its own, outside the pool (a pooled one would be
 * handed to other statements, and it must stay for as long as the API runs).
 */
function listenOnServer(databaseUrl: string) {
  return async (channel: string, listening: Listening) => {
    let client: Client | null = null;
    let closed = false;
    let retry: NodeJS.Timeout | undefined;
    const connect = async (): Promise<void> => {
      const connection = new Client({ connectionString: databaseUrl });
      connection.on('notification', (message) => {
        if (message.channel === channel) listening.onNotification(message.payload ?? '');
      });
      connection.on('error', () => {
        if (client !== connection) return;
        client = null;
        void connection.end().catch(() => {});
        listening.onGap();
        if (!closed) retry = setTimeout(() => void reconnect(), RELISTEN_MS);
      });
      await connection.connect();
      await connection.query(`listen ${JSON.stringify(channel)}`);
      client = connection;
    };
    const reconnect = async () => {
      try {
        await connect();
        // Anything may have happened while no one listened.
        listening.onGap();
      } catch {
        if (!closed) retry = setTimeout(() => void reconnect(), RELISTEN_MS);
      }
    };
    await connect();
    return async () => {
      closed = true;
      clearTimeout(retry);
      const connection = client;
      client = null;
      await connection?.end().catch(() => {});
    };
  };
}

/**
 * LISTEN on PGlite: its one backend serves the pool's one connection, which hears its own
 * notifications at each commit. A connection the pool makes again (after a break) LISTENs again.
 */
function listenInProcess(pool: Pool) {
  return async (channel: string, listening: Listening) => {
    const listened = new WeakSet<PoolClient>();
    const hear = async (client: PoolClient) => {
      if (listened.has(client)) return;
      listened.add(client);
      client.on('notification', (message) => {
        if (message.channel === channel) listening.onNotification(message.payload ?? '');
      });
      await client.query(`listen ${JSON.stringify(channel)}`);
    };
    const onConnect = (client: PoolClient) => {
      listening.onGap();
      void hear(client).catch(() => {});
    };
    const client = await pool.connect();
    try {
      await hear(client);
    } finally {
      client.release();
    }
    pool.on('connect', onConnect);
    return async () => {
      pool.off('connect', onConnect);
    };
  };
}

/** The migrations, in the order the journal lists them. */
export const MIGRATIONS_FOLDER = path.join(__dirname, '..', '..', 'drizzle');

/** Statement texts seen, by the name their prepared statement has on every connection ('' for none). */
const statementNames = new Map<string, string>();
const STATEMENT_NAMES_MAX = 5_000;

/**
 * A read of a few index entries takes PostgreSQL a twentieth of a millisecond to run and ten times
 * that to parse and plan. A statement with parameters is therefore prepared once per connection,
 * under a name derived from its text, and only bound and run afterwards; PostgreSQL keeps planning
 * it with the actual values while that plan is better than a generic one (plan_cache_mode auto).
 * Statements without parameters (settings, DDL) are left as sent, and so are the searches (`like`):
 * their best plan depends on the term, which a generic plan cannot know.
 */
function preparesItsStatements(client: PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const prepared = (...args: unknown[]) => {
    const [config, second] = args;
    if (config && typeof config === 'object' && !('name' in config && config.name)) {
      const { text, values = second } = config as { text?: unknown; values?: unknown };
      if (typeof text === 'string' && Array.isArray(values) && values.length > 0) {
        let name = statementNames.get(text);
        if (name === undefined) {
          name = /\blike\b/i.test(text)
            ? ''
            : `s${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
          if (statementNames.size >= STATEMENT_NAMES_MAX) statementNames.clear();
          statementNames.set(text, name);
        }
        if (name) args[0] = { ...config, name };
      }
    }
    return query(...args);
  };
  // node-postgres types query() as a set of overloads; the wrapper passes every form through.
  client.query = prepared as PoolClient['query'];
}

/** The driver drizzle was made on (its $client, which the Database type leaves out): a pool or one connection. */
const driverOf = (db: Reader): unknown => (db as { $client?: unknown }).$client;

/** The query APIs of PGlite, the database inside the API's process (openDatabase, onOneConnection). */
const inProcessDatabases = new WeakSet<Reader>();

/**
 * Whether the database should write a long answer's JSON itself (row_to_json) rather than the API
 * parse its rows and write them again. A PostgreSQL server should: it does so on its own processes,
 * and a dentist's calendar month cost the API's one thread 3.2 ms as rows against 1.7 ms as JSON
 * (bench/mix.mjs, ALONE=1). PGlite should not: it shares the API's process, and its WebAssembly
 * wrote the month slower than the API did (5.5 -> 6.0 ms of the process's CPU). A transaction
 * answers false: its rows are read as rows.
 */
export function writesJsonForTheApi(db: Reader): boolean {
  // One connection: bench/explain.mjs.
  const driver = driverOf(db);
  return !inProcessDatabases.has(db) && (driver instanceof Pool || driver instanceof Client);
}

/** Each pooled connection's query API, made once: a connection lives as long as its pool keeps it. */
const connectionDatabases = new WeakMap<PoolClient, Database>();

/**
 * Runs `read` with all its statements on one connection, held from the first statement to the last,
 * when the pool has a single connection (PGlite: one backend for all). A read of several statements
 * (a searched list: the matching dentists, then the page) then waits for the connection once instead
 * of once per statement behind every other request's, which made a busy list the slowest request.
 * A pool of several connections (a PostgreSQL server) keeps taking one per statement: measured with
 * bench/mix.mjs, holding them idle while the API prepares the next statement cost a fifth of the
 * throughput. Inside a transaction, or on a held connection, `read` runs where it is.
 */
export async function onOneConnection<T>(
  db: Database,
  read: (connection: Database) => Promise<T>,
): Promise<T> {
  const pool = driverOf(db);
  if (!(pool instanceof Pool) || pool.options.max !== 1) return read(db);
  const client = await pool.connect();
  let connection = connectionDatabases.get(client);
  if (!connection) {
    connection = drizzlePg(client, { schema });
    connectionDatabases.set(client, connection);
    inProcessDatabases.add(connection);
  }
  // A connection that breaks while held says so here (unheard, its 'error' would end the process).
  let broken: Error | undefined;
  const onBroken = (error: Error) => {
    broken = error;
  };
  client.on('error', onBroken);
  try {
    const result = await read(connection);
    client.removeListener('error', onBroken);
    client.release(broken);
    return result;
  } catch (error) {
    client.removeListener('error', onBroken);
    // As the pool's own query() does: a connection whose statement failed is closed, not reused.
    client.release(broken ?? (error instanceof Error ? error : true));
    throw error;
  }
}

/** `read` as a function whose every call runs on one connection (onOneConnection). */
export function onOneConnectionEachCall<Rest extends unknown[], T>(
  read: (db: Database, ...rest: Rest) => Promise<T>,
): (db: Database, ...rest: Rest) => Promise<T> {
  return (db, ...rest) => onOneConnection(db, (connection) => read(connection, ...rest));
}

/** How many migrations the database has taken (0 for a new one). */
export async function appliedMigrations(db: Database): Promise<number> {
  const { rows } = await db.execute(
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
  );
  if (!(rows[0] as { present: boolean }).present) return 0;
  const counted = await db.execute(sql`select count(*)::int as taken from drizzle.__drizzle_migrations`);
  return (counted.rows[0] as { taken: number }).taken;
}

/**
 * The database a command-line script works on (migrate, import, prune…): the server's, DATABASE_URL
 * else DATA_DIR, without the serving limits (pool size, statement time-out).
 */
export function openScriptDatabase(config: {
  databaseUrl: string | null;
  databaseOwnerUrl: string | null;
  dataDir: string | null;
}): Promise<DatabaseHandle> {
  return openDatabase({
    databaseUrl: config.databaseUrl,
    databaseOwnerUrl: config.databaseOwnerUrl,
    dataDir: config.dataDir,
  });
}

/**
 * What the role that serves requests may do when it is not the tables' owner (DATABASE_OWNER_URL):
 * read and write clinic data, and add audit records and their HMACs, never change or remove them
 * (sealing runs as the owner: seal_audit_records is SECURITY DEFINER). Granted at every start, after
 * the migrations, so tables a migration adds are covered.
 */
async function grantServingRole(owner: Pool, role: string): Promise<void> {
  const name = `"${role.replaceAll('"', '""')}"`;
  await owner.query(`
    grant usage on schema public to ${name};
    grant select, insert, update, delete on all tables in schema public to ${name};
    revoke update, delete, truncate, references, trigger on audit_log, audit_log_macs from ${name};
    grant usage, select, update on all sequences in schema public to ${name};
    revoke all on function seal_audit_records() from public;
    grant execute on function seal_audit_records() to ${name};
  `);
}

export async function openDatabase(options: {
  databaseUrl: string | null;
  /**
   * The tables' owner, for migrations (DATABASE_OWNER_URL); DATABASE_URL's role then serves requests
   * without the right to change audit records. Unset: DATABASE_URL's role does both.
   */
  databaseOwnerUrl?: string | null;
  dataDir: string | null;
  /** Connections to the PostgreSQL server (10 unless told). */
  dbPoolSize?: number;
  /** Per-statement limit on the PostgreSQL server, in ms; 0 or unset for none (seeds, imports). */
  statementTimeoutMs?: number;
  /** PGlite's buffer cache in MB; 0 or unset for its own default. */
  pgliteSharedBuffersMb?: number;
  /** Told when the server drops an idle connection (a restart, an administrator). */
  onIdleConnectionError?: (error: Error) => void;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    // Migrations (an index build, a backfill) may take longer than any request may: they run on a
    // connection of their own, without the statement time-out.
    const migrator = new Pool({ connectionString: options.databaseOwnerUrl ?? options.databaseUrl, max: 1 });
    try {
      await migratePg(drizzlePg(migrator, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
      if (options.databaseOwnerUrl) {
        await grantServingRole(migrator, decodeURIComponent(new URL(options.databaseUrl).username));
      }
    } finally {
      await migrator.end();
    }
    // Two cores answer a few statements at a time: more connections only make each one slower,
    // while the requests beyond them wait their turn in the pool.
    const servingPool = (max: number) => {
      const pool = new Pool({
        connectionString: options.databaseUrl ?? undefined,
        max,
        ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
      });
      pool.on('connect', preparesItsStatements);
      // An idle connection the server closes is dropped from the pool and replaced on demand; unheard,
      // the pool's 'error' event would end the process.
      pool.on('error', (error) => options.onIdleConnectionError?.(error));
      return pool;
    };
    const pool = servingPool(options.dbPoolSize ?? 10);
    const db = drizzlePg(pool, { schema });
    const trailPool = servingPool(1);
    return {
      db,
      trailDb: drizzlePg(trailPool, { schema }),
      kind: 'postgres',
      listen: listenOnServer(options.databaseUrl),
      close: async () => {
        await Promise.all([pool.end(), trailPool.end()]);
      },
    };
  }
  const thread = await PgliteThread.start({
    dataDir: options.dataDir,
    sharedBuffersMb: options.pgliteSharedBuffersMb,
  });
  // One connection, kept: PGlite is one backend, serving one statement at a time.
  const pool = new Pool({ max: 1, idleTimeoutMillis: 0, stream: () => new PgliteWire(thread) });
  pool.on('connect', preparesItsStatements);
  const db = drizzlePg(pool, { schema });
  inProcessDatabases.add(db);
  const before = await appliedMigrations(db);
  await migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER });
  // PGlite runs without autovacuum: a migration that rewrote rows of an existing database (0013
  // filled a column of every appointment) would leave their old versions for every read to step
  // over, and the planner's figures stale.
  if (before > 0 && (await appliedMigrations(db)) > before) await db.execute(sql`vacuum (analyze)`);
  return {
    db,
    trailDb: db,
    kind: 'pglite',
    listen: listenInProcess(pool),
    close: async () => {
      await pool.end();
      await thread.close();
    },
  };
}
