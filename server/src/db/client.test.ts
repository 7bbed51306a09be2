import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { openDatabase } from './client';

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
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dental-pglite-'));
    const vacuumed = async () => {
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
      expect(await vacuumed()).toBe(false);
      // As if the newest migration had not been taken yet.
      const raw = new PGlite(dataDir);
      await raw.exec(`
        drop index appointments_patient_name_idx;
        drop index appointments_created_idx;
        delete from drizzle.__drizzle_migrations
        where created_at = (select max(created_at) from drizzle.__drizzle_migrations);
      `);
      await raw.close();
      expect(await vacuumed()).toBe(true);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
