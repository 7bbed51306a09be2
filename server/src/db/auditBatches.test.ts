import { sql } from 'drizzle-orm';
import { auditBatchWriter } from './auditBatches';
import type { AuditEntry } from './auditLog';
import { type DatabaseHandle, openDatabase } from './client';

describe('audit records written in batches', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: null, dataDir: null });
  }, 60_000);
  afterAll(() => database.close());

  const read = (entity: string, reader: number): AuditEntry => ({
    clinicId: 1,
    userId: null,
    action: 'view',
    entity,
    entityId: null,
    details: { reader },
  });
  /** The records of `entity`, in the order written, with the transaction each was committed in. */
  const written = async (entity: string) => {
    const { rows } = await database.db.execute(
      sql`select details->>'reader' as reader, xmin::text as committed_in from audit_log
          where entity = ${entity} order by id`,
    );
    return rows as Array<{ reader: string; committed_in: string }>;
  };

  it('writes a lone record at once, and records that arrive together in fewer commits, in order', async () => {
    const write = auditBatchWriter(database.db);
    await write(read('lone', 0));
    expect((await written('lone')).map((row) => row.reader)).toEqual(['0']);

    const readers = Array.from({ length: 30 }, (_, reader) => reader);
    await Promise.all(readers.map((reader) => write(read('together', reader))));
    const rows = await written('together');
    expect(rows.map((row) => Number(row.reader))).toEqual(readers);
    // The first goes alone; the others arrived while it was being written and share the next insert.
    expect(new Set(rows.map((row) => row.committed_in)).size).toBeLessThanOrEqual(2);
  });

  it('fails only the caller whose record cannot be written; the others are on the trail', async () => {
    await database.db.execute(sql`
      create function refuse_reader_7() returns trigger language plpgsql as $$
      begin
        if new.details->>'reader' = '7' then raise exception 'the trail is unavailable'; end if;
        return new;
      end $$`);
    await database.db.execute(
      sql`create trigger refuse_reader_7 before insert on audit_log for each row execute function refuse_reader_7()`,
    );
    try {
      const write = auditBatchWriter(database.db);
      const outcomes = await Promise.allSettled(
        Array.from({ length: 12 }, (_, reader) => write(read('partly', reader))),
      );
      expect(outcomes.map((outcome) => outcome.status)).toEqual(
        Array.from({ length: 12 }, (_, reader) => (reader === 7 ? 'rejected' : 'fulfilled')),
      );
      expect((await written('partly')).map((row) => Number(row.reader))).toEqual([
        0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11,
      ]);
    } finally {
      await database.db.execute(sql`drop trigger refuse_reader_7 on audit_log`);
      await database.db.execute(sql`drop function refuse_reader_7()`);
    }
    // The writer goes on after a refusal.
    const write = auditBatchWriter(database.db);
    await write(read('after', 1));
    expect(await written('after')).toHaveLength(1);
  });
});
