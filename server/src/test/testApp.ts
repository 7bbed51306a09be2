import { randomBytes } from 'node:crypto';
import type { WireUser } from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import { Client } from 'pg';
import { buildApp } from '../app';
import { type AppConfig, testConfig } from '../config';

/**
 * One app per test file (beforeAll): in-memory PGlite, or, when TEST_DATABASE_URL names a PostgreSQL
 * server, a fresh database on it that is dropped when the app closes (afterAll → app.close()).
 * The demo clinics are seeded unless the overrides say otherwise.
 */
export async function createTestApp(overrides: Partial<AppConfig> = {}): Promise<FastifyInstance> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return buildApp(testConfig({ apiRateLimit: 1_000_000, ...overrides }));

  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const app = await buildApp(
    testConfig({ apiRateLimit: 1_000_000, ...overrides, databaseUrl: url.toString() }),
  );
  serverDatabases.set(app, url.toString());
  // The database goes once the app has closed its pool: app.close() waits for both.
  const closeApp = app.close.bind(app);
  const closeAndDrop = async () => {
    await closeApp();
    const dropper = new Client({ connectionString: serverUrl });
    await dropper.connect();
    try {
      await dropper.query(`drop database if exists ${name} with (force)`);
    } finally {
      await dropper.end();
    }
  };
  // Only the promise form is used by tests; the callback overloads are not offered.
  app.close = closeAndDrop as unknown as FastifyInstance['close'];
  return app;
}

/** The PostgreSQL database of each test app on a server, for a second API instance beside it. */
const serverDatabases = new WeakMap<FastifyInstance, string>();

/**
 * A second API instance on the same PostgreSQL database as `first` (its own pool, its own sender),
 * as a second API process behind a load balancer would be; null on PGlite, which one process owns.
 * Close it before `first`, which drops the database.
 */
export async function createSecondApp(
  first: FastifyInstance,
  overrides: Partial<AppConfig> = {},
): Promise<FastifyInstance | null> {
  const databaseUrl = serverDatabases.get(first);
  if (!databaseUrl) return null;
  return buildApp(testConfig({ apiRateLimit: 1_000_000, ...overrides, databaseUrl }));
}

export interface SignedIn {
  token: string;
  user: WireUser;
}

export async function login(app: FastifyInstance, username: string, password: string): Promise<SignedIn> {
  const response = await app.inject({ method: 'POST', url: '/auth/login', payload: { username, password } });
  if (response.statusCode !== 200) {
    throw new Error(`Sign-in of ${username} failed: ${response.statusCode} ${response.body}`);
  }
  const body = response.json() as { access_token: string; user: WireUser };
  return { token: body.access_token, user: body.user };
}

export function authHeader(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

interface ListPage {
  data: unknown[];
  next_cursor?: string;
}

/**
 * Walks a list page by page, each page asked by its number and again `after` the page before's
 * next_cursor, and expects the two answers to be the same (rows, total, cursor), the cursor to be
 * `cursorOf` the page's last row, and a short last page to carry none. Resolves to the pages walked.
 */
export async function expectSeekingAsNumbered<Row>(
  pageOf: (page: number, after?: string) => Promise<ListPage>,
  limit: number,
  cursorOf: (row: Row) => string,
  maxPages = 8,
): Promise<number> {
  let cursor: string | undefined;
  let pages = 0;
  for (let page = 1; page <= maxPages; page += 1) {
    const byNumber = await pageOf(page);
    const byCursor = page === 1 ? byNumber : await pageOf(page, cursor);
    expect(byCursor).toEqual(byNumber);
    pages += 1;
    cursor = byCursor.next_cursor;
    if (byCursor.data.length < limit) expect(cursor).toBeUndefined();
    if (!cursor) break;
    expect(cursor).toBe(cursorOf(byCursor.data[limit - 1] as Row));
  }
  return pages;
}
