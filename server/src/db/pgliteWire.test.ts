import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { PgliteThread } from './pgliteThread';
import { PgliteWire } from './pgliteWire';

describe('node-postgres over PgliteWire, PGlite on its own thread', () => {
  let pglite: PgliteThread;
  let pool: Pool;

  beforeAll(async () => {
    pglite = await PgliteThread.start({ dataDir: null });
    pool = new Pool({ max: 1, stream: () => new PgliteWire(pglite) });
    await pool.query('create table notes (id serial primary key, body text not null)');
  });

  afterAll(async () => {
    await pool.end();
    await pglite.close();
  });

  it('answers statements with parameters, named ones again and again', async () => {
    const insert = { name: 'insert-note', text: 'insert into notes (body) values ($1) returning id, body' };
    const first = await pool.query({ ...insert, values: ['first'] });
    const second = await pool.query({ ...insert, values: ['second'] });
    expect([first.rows, second.rows]).toEqual([[{ id: 1, body: 'first' }], [{ id: 2, body: 'second' }]]);
    const { rows } = await pool.query('select count(*)::int as count, $1::text as asked from notes', ['x']);
    expect(rows).toEqual([{ count: 2, asked: 'x' }]);
  });

  it('hands an answer larger than PGlite’s buffers over whole', async () => {
    const { rows } = await pool.query(
      "select n, repeat('x', 1000) as filler from generate_series(1, 20000) as n order by n",
    );
    expect(rows).toHaveLength(20_000);
    expect(rows[19_999]).toEqual({ n: 20_000, filler: 'x'.repeat(1000) });
  });

  it('starts each new connection as a new session: its statements prepared again, no open transaction', async () => {
    const other = new Pool({ max: 1, stream: () => new PgliteWire(pglite) });
    const countNotes = {
      name: 'count-notes',
      text: 'select count(*)::int as count from notes where id > $1',
      values: [0],
    };
    try {
      const abandoned = await other.connect();
      await abandoned.query(countNotes);
      await abandoned.query('begin');
      await abandoned.query('insert into notes (body) values ($1)', ['never committed']);
      abandoned.release(true);
      const next = await other.connect();
      try {
        const again = await next.query(countNotes);
        expect(again.rows).toEqual([{ count: 2 }]);
      } finally {
        next.release();
      }
    } finally {
      await other.end();
    }
  });

  it('reports an error and stays usable, inside a transaction too', async () => {
    await expect(pool.query('select * from no_such_table')).rejects.toThrow(
      'relation "no_such_table" does not exist',
    );
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query('insert into notes (body) values ($1)', ['rolled back']);
      await expect(client.query('insert into notes (body) values (null)')).rejects.toThrow(/not-null/);
      await client.query('rollback');
    } finally {
      client.release();
    }
    const { rows } = await pool.query('select body from notes order by id');
    expect(rows.map((row) => row.body)).toEqual(['first', 'second']);
  });

  it("runs a statement while the server's own thread goes on", async () => {
    const seen: string[] = [];
    const slow = pool.query('select pg_sleep(0.3)').then(() => seen.push('statement done'));
    // On the server's thread PGlite would hold this timer up until the statement ended.
    await new Promise<void>((resolve) =>
      setTimeout(() => {
        seen.push('timer fired');
        resolve();
      }, 0),
    );
    await slow;
    expect(seen).toEqual(['timer fired', 'statement done']);
  });
});

describe('PgliteThread', () => {
  it('says why a database cannot be opened', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'dental-pglite-'));
    const notAFolder = path.join(folder, 'file');
    writeFileSync(notAFolder, 'not a database');
    try {
      await expect(PgliteThread.start({ dataDir: notAFolder })).rejects.toThrow(
        /^PGlite could not open the database: /,
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('answers what was sent before it closed, then refuses', async () => {
    const thread = await PgliteThread.start({ dataDir: null });
    const pool = new Pool({ max: 1, stream: () => new PgliteWire(thread) });
    const asked = pool.query('select 41 + 1 as answer');
    const answered = await asked;
    expect(answered.rows).toEqual([{ answer: 42 }]);
    await pool.end();
    await thread.close();
    await expect(thread.exec(new Uint8Array([0x53, 0, 0, 0, 4]))).rejects.toThrow('The database is closed');
  });
});
