import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { type Database, MIGRATIONS_FOLDER, onOneConnection, openDatabase } from './client';

describe('the embedded database', () => {
  const sharedBuffers = async (pgliteSharedBuffersMb?: number) => {
    const database = await openDatabase({ databaseUrl: null, dataDir: null, pgliteSharedBuffersMb });
    try {
      const { rows } = await database.db.execute(sql`show shared_buffers`);
      // A statement with a parameter goes through the prepared path as well.
      const { rows: echoed } = await database.db.execute(sql`select ${'prepared'}::text as word`);
      return [(rows[0] as { shared_buffers: string }).shared_buffers, (echoed[0] as { word: string }).word];
    } finally {
      await database.close();
    }
  };

  it("keeps PGlite's own buffer cache unless told, and takes the size it is given", async () => {
    expect(await sharedBuffers()).toEqual(['128MB', 'prepared']);
    expect(await sharedBuffers(64)).toEqual(['64MB', 'prepared']);
  }, 60_000);

  it('vacuums an existing database after a migration, since PGlite has no autovacuum', async () => {
    const scratch = await mkdtemp(path.join(os.tmpdir(), 'dental-pglite-'));
    const vacuumed = async (dataDir: string) => {
      const database = await openDatabase({ databaseUrl: null, dataDir });
      try {
        const { rows } = await database.db.execute(
          sql`select last_vacuum is not null as vacuumed from pg_stat_user_tables where relname = 'appointments'`,
        );
        return (rows[0] as { vacuumed: boolean }).vacuumed;
      } finally {
        await database.close();
      }
    };
    try {
      // A new database: migrated from nothing, nothing to vacuum.
      expect(await vacuumed(path.join(scratch, 'new'))).toBe(false);
      // A database of the release before: every migration but the newest, whichever that is.
      const before = path.join(scratch, 'migrations-before');
      await cp(MIGRATIONS_FOLDER, before, { recursive: true });
      const journalPath = path.join(before, 'meta', '_journal.json');
      const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: unknown[] };
      journal.entries.pop();
      await writeFile(journalPath, JSON.stringify(journal));
      const older = path.join(scratch, 'older');
      const raw = new PGlite(older, { extensions: { btree_gist, pg_trgm } });
      await migrate(drizzle(raw), { migrationsFolder: before });
      await raw.close();
      expect(await vacuumed(older)).toBe(true);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('a read of several statements on PGlite (onOneConnection)', () => {
  let database: Awaited<ReturnType<typeof openDatabase>>;
  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: null, dataDir: null });
  }, 60_000);
  afterAll(async () => database.close());

  /** Resolves once another statement is waiting for the pool's one connection. */
  const someoneWaits = async (db: Database) => {
    const pool = (db as unknown as { $client: { waitingCount: number } }).$client;
    while (pool.waitingCount === 0) await new Promise((resolve) => setImmediate(resolve));
  };

  it("keeps the connection from its first statement to its last: another request's statement waits", async () => {
    const { db } = database;
    const order: string[] = [];
    let other: Promise<unknown> = Promise.resolve();
    const read = onOneConnection(db, async (connection) => {
      await connection.execute(sql`select ${1}::int as step`);
      order.push('read: first statement');
      other = db.execute(sql`select 2 as other`).then(() => order.push('another request'));
      // Without the held connection the other statement would run (and finish) now.
      await Promise.race([other, someoneWaits(db)]);
      await connection.execute(sql`select ${3}::int as step`);
      order.push('read: last statement');
      return 'read';
    });
    expect(await read).toBe('read');
    await other;
    expect(order).toEqual(['read: first statement', 'read: last statement', 'another request']);
  }, 60_000);

  it('passes a failed statement on, and the next read gets a working connection', async () => {
    const { db } = database;
    await expect(
      onOneConnection(db, (connection) => connection.execute(sql`select 1 / ${0}::int as broken`)),
    ).rejects.toMatchObject({ cause: { message: 'division by zero' } });
    const { rows } = await onOneConnection(db, (connection) =>
      connection.execute(sql`select ${'again'}::text as word`),
    );
    expect(rows).toEqual([{ word: 'again' }]);
  }, 60_000);
});
