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
});
