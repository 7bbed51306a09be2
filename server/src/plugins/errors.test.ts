import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { databaseError, QUERY_CANCELED } from '../db/databaseErrors';
import { createTestApp } from '../test/testApp';
import { registerErrorHandling } from './errors';

describe('a statement past its time-out', () => {
  it('answers 503 with a message to try again, not a 500', async () => {
    const app = Fastify();
    registerErrorHandling(app);
    // What drizzle throws when node-postgres reports PostgreSQL's query_canceled.
    app.get('/slow', async () => {
      throw Object.assign(new Error('Failed query: select …'), {
        cause: Object.assign(new Error('canceling statement due to statement timeout'), {
          code: QUERY_CANCELED,
        }),
      });
    });
    const response = await app.inject({ method: 'GET', url: '/slow' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ message: 'The database took too long to answer: please try again' });
    await app.close();
  });

  const onPostgres = process.env.TEST_DATABASE_URL ? it : it.skip;
  onPostgres(
    'is cancelled by PostgreSQL after STATEMENT_TIMEOUT_MS, and the connection serves the next',
    async () => {
      const app = await createTestApp({ statementTimeoutMs: 200, dbPoolSize: 1 });
      const { db } = app.database;
      const failure = await db.execute(sql`select pg_sleep(${2})`).then(
        () => null,
        (error: unknown) => error,
      );
      expect(databaseError(failure, [QUERY_CANCELED])).not.toBeNull();
      const after = await db.execute(sql`select ${41} + 1 as answer`);
      expect(Number((after.rows[0] as { answer: number }).answer)).toBe(42);
      await app.close();
    },
  );
});

describe('an address the router cannot read', () => {
  it('is refused as a bad url field, with the same shape as every refusal and the path not echoed', async () => {
    const app = await createTestApp();
    try {
      const malformed = await app.inject({ method: 'GET', url: '/api/patients/%E0%A4%A' });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toEqual({
        message: 'Invalid url: the address is malformed',
        errors: [{ field: 'url', message: 'the address is malformed' }],
      });
      expect(malformed.body).not.toContain('%E0');
      const long = await app.inject({
        method: 'POST',
        url: `/public/holds/${'a'.repeat(5000)}/code`,
        payload: {},
      });
      expect(long.statusCode).toBe(414);
      expect(long.json().errors).toEqual([{ field: 'url', message: 'a part of the address is too long' }]);
    } finally {
      await app.close();
    }
  });
});
