import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { WireUser } from '@dental/shared/domain';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Client } from 'pg';
import { buildApp } from '../app';
import { type AppConfig, testConfig } from '../config';
import { clinicToday } from '../db/clinicTime';
import { dentists, patients } from '../db/schema';
import { postgresTemplateName, templatesFolder } from './runTemplates';

/**
 * One app per test file (beforeAll), on a copy of the demo clinics migrated and seeded once per jest
 * run: an embedded PGlite data folder copied from the run's template (reopening a folder takes under
 * a second, migrating and seeding a new database four), or, when TEST_DATABASE_URL names a PostgreSQL
 * server, a database made from the run's template database. The copy goes when the app closes
 * (afterAll → app.close()). An app that must start without the demo data gets a database of its own.
 */
export async function createTestApp(
  overrides: Partial<AppConfig> = {},
  /**
   * On PostgreSQL, serve requests as this login role rather than as the tables' owner (the owner
   * migrates: DATABASE_OWNER_URL); made if the server has none. PGlite has one role.
   */
  servingRole?: string,
): Promise<FastifyInstance> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const fromTemplate = overrides.seedDemo !== false;
  if (!serverUrl) {
    if (!fromTemplate) return buildApp(testConfig({ apiRateLimit: 1_000_000, ...overrides }));
    const dataDir = await pgliteCopyOfTemplate();
    const app = await buildApp(testConfig({ apiRateLimit: 1_000_000, ...overrides, dataDir }));
    return removingOnClose(app, () => rm(dataDir, { recursive: true, force: true }));
  }

  const name = `test_${randomBytes(6).toString('hex')}`;
  const template = fromTemplate ? await postgresTemplate(serverUrl) : null;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  // TEST_SERVING_ROLE runs every suite so (a check that the grants cover everything the API does).
  const role = servingRole ?? process.env.TEST_SERVING_ROLE;
  const serving = role ? await servingUrlOf(url, role) : null;
  const app = await buildApp(
    testConfig({
      apiRateLimit: 1_000_000,
      ...overrides,
      databaseUrl: serving ?? url.toString(),
      databaseOwnerUrl: serving ? url.toString() : null,
    }),
  );
  serverDatabases.set(app, url.toString());
  // The database goes once the app has closed its pool.
  return removingOnClose(app, async () => {
    const dropper = new Client({ connectionString: serverUrl });
    await dropper.connect();
    try {
      await dropper.query(`drop database if exists ${name} with (force)`);
    } finally {
      await dropper.end();
    }
  });
}

/** The URL of `owner`'s database as the login role `role`, made if the server has none. */
async function servingUrlOf(owner: URL, role: string): Promise<string> {
  const admin = new Client({ connectionString: owner.toString() });
  await admin.connect();
  try {
    // Two test files may make it at once: the second finds it made.
    await admin.query(
      `do $$ begin create role ${role} login; exception when duplicate_object then null; end $$`,
    );
  } finally {
    await admin.end();
  }
  const url = new URL(owner.toString());
  url.username = role;
  return url.toString();
}

/** The owner's URL of a test app's PostgreSQL database, or null on PGlite. */
export const ownerDatabaseUrlOf = (app: FastifyInstance): string | null => serverDatabases.get(app) ?? null;

/** app.close() closes the app, then removes what was made for it. */
function removingOnClose(app: FastifyInstance, remove: () => Promise<unknown>): FastifyInstance {
  const closeApp = app.close.bind(app);
  const closeAndRemove = async () => {
    await closeApp();
    await remove();
  };
  // Only the promise form is used by tests; the callback overloads are not offered.
  app.close = closeAndRemove as unknown as FastifyInstance['close'];
  return app;
}

/**
 * A new copy of the run's PGlite template, made by the first test file that asks. Two jest workers
 * asking at once each build one; the first to move theirs into place wins, the other's is dropped.
 */
async function pgliteCopyOfTemplate(): Promise<string> {
  const folder = templatesFolder();
  const template = path.join(folder, 'pglite');
  if (!(await exists(template))) {
    const building = await mkdtemp(path.join(folder, 'pglite-building-'));
    const app = await buildApp(testConfig({ dataDir: building }));
    await app.close();
    await rename(building, template).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
      await rm(building, { recursive: true, force: true });
    });
  }
  const copy = await mkdtemp(path.join(folder, 'pglite-copy-'));
  await cp(template, copy, { recursive: true });
  return copy;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/**
 * The name of the run's template database on the PostgreSQL server, made (migrated and seeded) by
 * the first test file that asks; an advisory lock makes the other workers wait for it.
 */
async function postgresTemplate(serverUrl: string): Promise<string> {
  const name = postgresTemplateName(templatesFolder());
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`select pg_advisory_lock(hashtextextended($1, 0))`, [name]);
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      await admin.query(`create database ${name}`);
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      const app = await buildApp(testConfig({ databaseUrl: url.toString() }));
      await app.close();
    }
    return name;
  } finally {
    await admin.end();
  }
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

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A suite's requests as `token`'s (none: signed out), a write naming the version it saw in
 * `If-Match`. Takes the app as a getter: a suite makes its app in beforeAll, after this is made.
 */
export function apiSender(app: () => FastifyInstance) {
  return (token: string | null, method: Method, url: string, payload?: unknown, ifMatch?: number) =>
    app().inject({
      method,
      url,
      headers: {
        ...(token ? authHeader(token) : {}),
        ...(ifMatch === undefined ? {} : { 'if-match': `"${ifMatch}"` }),
      },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
}

/** The demo clinic as the booking suites start from it. */
export interface DemoClinic {
  app: FastifyInstance;
  adminToken: string;
  receptionistToken: string;
  clinicId: number;
  /** Its active dentists, in id order. */
  dentists: Array<{ id: number; name: string }>;
  /** The clinic's today, which the suites book their days from. */
  today: string;
}

/** A test app with the demo clinic's admin and receptionist signed in. */
export async function openDemoClinic(): Promise<DemoClinic> {
  const app = await createTestApp();
  try {
    const db = app.database.db;
    const admin = await login(app, 'admin', 'admin123');
    const clinicId = admin.user.clinic_id;
    const receptionist = await login(app, 'receptionist', 'receptionist123');
    const active = await db
      .select({ id: dentists.id, name: dentists.name })
      .from(dentists)
      .where(and(eq(dentists.clinicId, clinicId), eq(dentists.status, 'active')))
      .orderBy(dentists.id);
    return {
      app,
      adminToken: admin.token,
      receptionistToken: receptionist.token,
      clinicId,
      dentists: active,
      today: await clinicToday(db, clinicId),
    };
  } catch (error) {
    // The suite never gets the app to close in its afterAll: its copied database goes here.
    await app.close();
    throw error;
  }
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

let patientsAdded = 0;

/**
 * A new patient of the clinic, straight into the database, for a test's visit of its own: one
 * patient is never booked twice at one time, so visits of a shared patient would meet.
 */
export async function addPatient(
  app: FastifyInstance,
  clinicId: number,
  name = 'Test Patient',
): Promise<number> {
  patientsAdded += 1;
  const [patient] = await app.database.db
    .insert(patients)
    .values({
      clinicId,
      name: `${name} ${patientsAdded}`,
      phone: `555 6${String(patientsAdded).padStart(6, '0')}`,
      status: 'active',
    })
    .returning({ id: patients.id });
  if (!patient) throw new Error('The patient was not added');
  return patient.id;
}

/** The field errors of a 400 answer, as `{ field, message }`. */
export function fieldErrorsOf(response: { json: () => unknown }): Array<{ field: string; message: string }> {
  return ((response.json() as { errors?: Array<{ field: string; message: string }> }).errors ?? []).map(
    ({ field, message }) => ({ field, message }),
  );
}

let staffAdded = 0;

/** A new member of staff of the admin's clinic, made through the API; answers their id and sign-in. */
export async function addStaff(
  app: FastifyInstance,
  adminToken: string,
  role: 'admin' | 'receptionist' | 'dentist' = 'receptionist',
): Promise<{ id: number; username: string; password: string }> {
  staffAdded += 1;
  const tag = `${Date.now().toString(36)}${staffAdded}`;
  const body = {
    name: `Staff Member ${tag}`,
    username: `staff.${tag}`,
    email: `staff.${tag}@example.com`,
    // Nothing of the account's names: a password that holds them is refused.
    password: 'a-long-secret-of-theirs',
    role,
  };
  const response = await app.inject({
    method: 'POST',
    url: '/api/users',
    headers: authHeader(adminToken),
    payload: body,
  });
  if (response.statusCode !== 201) throw new Error(`Adding ${body.username} failed: ${response.body}`);
  return { id: (response.json() as { id: number }).id, username: body.username, password: body.password };
}

/**
 * Every field of an appointment as the API answers it (docs/product.md, Records and their fields),
 * sorted: the tests that check a list or a record's shape compare its keys with these.
 */
export const APPOINTMENT_WIRE_KEYS = [
  'chair_id',
  'chair_name',
  'confirmed_by',
  'created_at',
  'date',
  'dentist_from',
  'dentist_id',
  'dentist_name',
  'dentist_to',
  'duration',
  'end_time',
  'id',
  'notes',
  'outside_hours',
  'outside_hours_reason',
  'overlapping',
  'patient',
  'patient_id',
  'phone',
  'series',
  'source',
  'status',
  'time',
  'treatment',
  'turnover',
  'updated_at',
  'version',
];
