/**
 * `npm run seed:large`: a clinic at realistic volume for the budgets of the benchmarks, plus three
 * small clinics, in the database the server uses (DATABASE_URL, else DATA_DIR's PGlite).
 *
 *   Large Clinic: 60 dentists, 100,000 patients, 1,000,000 appointments from two years back to one
 *   year ahead (one per dentist and time: nobody is double-booked), availability for the next 90 days.
 *   Sign in as large.admin / large123 (also large.reception, large.dentist).
 *
 * Every table is filled with set-based statements (seedLargeRows.ts). The visits take the bulk path
 * (migration 0038, docs/architecture.md "Database rules"): each visit carries its patient's card and
 * its clinic's defaults (no kept group, dentist part or turnover), which the database checks, and
 * their recalls are kept by one statement, not row by row.
 *
 * On PGlite (and with SEED_SESSIONS=1) all of it is one transaction. On a PostgreSQL server the
 * Large Clinic's visits are written by SEED_SESSIONS (default 2) transactions at once, each its share
 * of the patients, after the rest has been committed and without the visits' secondary indexes: the
 * exclusion constraints' checks, most of the seed's time, then use every core. Its accounts come
 * last, so a Large Clinic without them is one whose seed stopped part way, which a later run reports
 * instead of seeding around it.
 * `--scale 0.1` makes a smaller copy (patients and appointments scaled) for trying it out.
 */
import { type SQL, sql } from 'drizzle-orm';
import { hashPassword } from '../auth/passwords';
import { loadConfig } from '../config';
import { type Database, openDatabase, type Transaction } from './client';
import { localDate, localTime, serverTimeZone } from './clinicTime';
import { seedDemoData } from './seedDemo';
import {
  addAccounts,
  addAvailability,
  addClinic,
  addVisits,
  type ClinicPlan,
  prepareLookups,
  type SeedDay,
} from './seedLargeRows';

const LARGE_CLINIC = 'Large Clinic';
const PASSWORD = 'large123';
/** Sessions writing the Large Clinic's visits on a PostgreSQL server: the budget's machine has two cores. */
const VISIT_SESSIONS = 2;

function plans(scale: number): ClinicPlan[] {
  const scaled = (count: number) => Math.max(1, Math.round(count * scale));
  const large: ClinicPlan = {
    name: LARGE_CLINIC,
    accountPrefix: 'large',
    emailDomain: 'largeclinic.example',
    dentists: 60,
    patients: scaled(100_000),
    appointments: scaled(1_000_000),
    pastDays: 730,
    futureDays: 365,
    availabilityDays: 90,
  };
  const small = [1, 2, 3].map(
    (index): ClinicPlan => ({
      name: `Small Clinic ${index}`,
      accountPrefix: `small${index}`,
      emailDomain: `small${index}.example`,
      dentists: 2 + index,
      patients: 300 * index,
      appointments: 1500 * index,
      pastDays: 365,
      futureDays: 90,
      availabilityDays: 30,
    }),
  );
  return [large, ...small];
}

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  console.log(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

async function count(db: Database, query: SQL): Promise<number> {
  const result = await db.execute(query);
  return Number((result.rows[0] as { total?: string | number } | undefined)?.total ?? 0);
}

/** What dropSecondaryIndexes dropped, as the statements that make it again. */
interface Dropped {
  indexes: string[];
  /** Made after the indexes: their checks and the later queries use them. */
  foreignKeys: string[];
}

/**
 * Bulk loads run without the tables' secondary indexes and foreign keys, which are made again once
 * at the end from their own definitions: one sorted build beats a million index insertions (and a
 * million foreign-key lookups and row locks).
 */
async function dropSecondaryIndexes(tx: Transaction, tables: string[]): Promise<Dropped> {
  const dropped: Dropped = { indexes: [], foreignKeys: [] };
  for (const table of tables) {
    const foreignKeys = await tx.execute(sql`
      select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
      where conrelid = ${table}::regclass and contype = 'f'
    `);
    for (const row of foreignKeys.rows as Array<{ name: string; definition: string }>) {
      await tx.execute(sql.raw(`alter table "${table}" drop constraint "${row.name}"`));
      dropped.foreignKeys.push(`alter table "${table}" add constraint "${row.name}" ${row.definition}`);
    }
    const indexes = await tx.execute(sql`
      select indexname as name, indexdef as definition from pg_indexes
      where schemaname = current_schema() and tablename = ${table}
        and indexname not in (select conname from pg_constraint where conrelid = ${table}::regclass)
    `);
    for (const row of indexes.rows as Array<{ name: string; definition: string }>) {
      await tx.execute(sql.raw(`drop index "${row.name}"`));
      dropped.indexes.push(row.definition);
    }
  }
  return dropped;
}

async function runStatements(tx: Transaction, statements: string[]) {
  await tx.execute(sql.raw("set local maintenance_work_mem = '512MB'"));
  for (const statement of statements) await tx.execute(sql.raw(statement));
}

/**
 * What dropSecondaryIndexes dropped, made again by `sessions` transactions at once, the indexes
 * shared out between them (each build's own parallel workers only sort in parallel), then the
 * foreign keys. If a build fails, every statement is printed, to run what is missing by hand.
 */
async function remakeInSessions(db: Database, sessions: number, dropped: Dropped) {
  await timed('rebuild indexes and foreign keys', async () => {
    const built = await Promise.allSettled(
      Array.from({ length: sessions }, (_, index) =>
        db.transaction((tx) =>
          runStatements(
            tx,
            dropped.indexes.filter((_, position) => position % sessions === index),
          ),
        ),
      ),
    );
    const failed = built.find((outcome) => outcome.status === 'rejected');
    if (failed) {
      const all = [...dropped.indexes, ...dropped.foreignKeys];
      throw new Error(`Some indexes were not made again; run what is missing of:\n${all.join(';\n')}`, {
        cause: failed.reason,
      });
    }
    await db.transaction((tx) => runStatements(tx, dropped.foreignKeys));
  });
}

/** The work without the tables' secondary indexes, all in the one transaction. */
async function withoutSecondaryIndexes<T>(
  tx: Transaction,
  tables: string[],
  work: () => Promise<T>,
): Promise<T> {
  const dropped = await dropSecondaryIndexes(tx, tables);
  const result = await work();
  await timed('rebuild indexes and foreign keys', () =>
    runStatements(tx, [...dropped.indexes, ...dropped.foreignKeys]),
  );
  return result;
}

/** What every transaction of the seed writes under: the visits' bulk path, no wait for the disk. */
async function bulkTransaction(tx: Transaction) {
  await tx.execute(sql.raw("set local work_mem = '256MB'"));
  await tx.execute(sql.raw('set local synchronous_commit = off'));
  // The visits' rules kept per statement, not per row (migration 0038): see the header.
  await tx.execute(sql.raw("select set_config('dental.bulk_visits', 'on', true)"));
}

/** A clinic's availability and accounts, after its visits (prepareLookups first). */
async function finishClinic(
  tx: Transaction,
  plan: ClinicPlan,
  clinicId: number,
  day: SeedDay,
  passwordHash: string,
) {
  await timed('availability', () => addAvailability(tx, plan, clinicId, day.today));
  await addAccounts(tx, plan, clinicId, passwordHash);
}

/** A clinic's visits, availability and accounts, in the transaction that made the clinic. */
async function fillClinic(
  tx: Transaction,
  plan: ClinicPlan,
  clinicId: number,
  day: SeedDay,
  passwordHash: string,
) {
  await timed('appointments', () => addVisits(tx, plan, clinicId, day, { index: 0, of: 1 }));
  await finishClinic(tx, plan, clinicId, day, passwordHash);
}

/**
 * The Large Clinic's visits by `sessions` transactions at once, then its availability and accounts.
 * The visits' tables go without their secondary indexes meanwhile (committed: the sessions are
 * transactions of their own), and get them back whatever happens, unless the process is killed. A
 * session that fails leaves the clinic without accounts (the others may have committed theirs).
 */
async function fillInSessions(
  db: Database,
  sessions: number,
  plan: ClinicPlan,
  clinicId: number,
  day: SeedDay,
  passwordHash: string,
) {
  const dropped = await db.transaction((tx) =>
    dropSecondaryIndexes(tx, ['appointments', 'appointment_search_terms']),
  );
  // Ctrl-C while the sessions write: their statements are cancelled (the server rolls them back)
  // and the indexes made again before the process ends; a second Ctrl-C ends it at once.
  const sessionPids: number[] = [];
  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(130);
    stopping = true;
    console.log(
      'Stopping: the visits are rolled back and the indexes made again (Ctrl-C again to leave now).',
    );
    for (const pid of sessionPids) {
      void db.execute(sql`select pg_cancel_backend(${pid})`).catch(() => {});
    }
  };
  process.on('SIGINT', stop);
  let outcomes: PromiseSettledResult<void>[];
  try {
    outcomes = await timed(`appointments (${sessions} sessions)`, () =>
      Promise.allSettled(
        Array.from({ length: sessions }, (_, index) =>
          timed(`session ${index + 1}`, () =>
            db.transaction(async (tx) => {
              const backend = await tx.execute(sql`select pg_backend_pid() as pid`);
              sessionPids.push(Number((backend.rows[0] as { pid: number }).pid));
              if (stopping) throw new Error('stopped');
              await bulkTransaction(tx);
              await prepareLookups(tx, clinicId);
              await addVisits(tx, plan, clinicId, day, { index, of: sessions });
            }),
          ),
        ),
      ),
    );
  } finally {
    await remakeInSessions(db, sessions, dropped);
    process.off('SIGINT', stop);
  }
  const failed = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failed) {
    throw new Error(`'${plan.name}' (clinic ${clinicId}) is incomplete: seed a fresh database`, {
      cause: failed.reason,
    });
  }
  await db.transaction(async (tx) => {
    await bulkTransaction(tx);
    await prepareLookups(tx, clinicId);
    await finishClinic(tx, plan, clinicId, day, passwordHash);
  });
}

/**
 * `--scale 0.1` after the workspace's script (`npm run seed:large -w server -- --scale 0.1`). The
 * root script runs `npm run seed:large -w server` with what follows its `--` appended, and that npm
 * takes `--scale` as a flag of its own, leaving the script the number alone: a lone number is the
 * scale too, so `npm run seed:large -- --scale 0.1` works from the root as well.
 */
function scaleArgument(argv: string[]): number {
  const index = argv.indexOf('--scale');
  const given = index >= 0 ? argv[index + 1] : argv.length === 1 ? argv[0] : undefined;
  const value = given === undefined ? 1 : Number(given);
  if (!Number.isFinite(value) || value <= 0 || value > 1) throw new Error('--scale takes a number in (0, 1]');
  return value;
}

/**
 * SEED_SESSIONS: how many transactions write the Large Clinic's visits on PostgreSQL (a variable, not
 * a flag: the root script's npm would take a flag as its own, as it does `--scale`).
 */
function visitSessions(): number {
  const given = process.env.SEED_SESSIONS;
  if (given === undefined || given === '') return VISIT_SESSIONS;
  const value = Number(given);
  if (!Number.isInteger(value) || value < 1 || value > 16) {
    throw new Error('SEED_SESSIONS takes a whole number from 1 to 16');
  }
  return value;
}

async function main() {
  const argv = process.argv.slice(2);
  const scale = scaleArgument(argv);
  const config = loadConfig();
  const started = performance.now();
  console.log(
    `Seeding the large data set into ${config.databaseUrl ? 'the PostgreSQL server of DATABASE_URL' : `PGlite in ${config.dataDir}`}${scale < 1 ? ` at scale ${scale}` : ''}`,
  );
  const database = await timed('open and migrate', () => openDatabase({ ...config, statementTimeoutMs: 0 }));
  const { db } = database;
  // PGlite is one connection: one transaction writes everything there.
  const sessions = database.kind === 'postgres' ? visitSessions() : 1;
  try {
    // The demo clinics come first: the server seeds them only into an empty database.
    await timed('demo clinics', () => seedDemoData(db));
    if (await largeClinicIsThere(db)) return;
    const passwordHash = await hashPassword(PASSWORD);
    const timeZone = serverTimeZone();
    const now = new Date();
    const day: SeedDay = { today: localDate(timeZone, now), nowTime: localTime(timeZone, now) };
    const large = await db.transaction(async (tx) => {
      await bulkTransaction(tx);
      // Two seeds at once on one database would both find no Large Clinic.
      await tx.execute(sql.raw('select pg_advisory_xact_lock(7315002)'));
      const again = await count(
        tx as unknown as Database,
        sql`select count(*) as total from clinics where name = ${LARGE_CLINIC}`,
      );
      if (again > 0) return null;
      return withoutSecondaryIndexes(
        tx,
        [
          'appointments',
          'appointment_search_terms',
          'patients',
          'patient_search_terms',
          'patient_search_pairs',
        ],
        async () => {
          let later: { plan: ClinicPlan; clinicId: number } | null = null;
          for (const plan of plans(scale)) {
            console.log(
              `${plan.name}: ${plan.dentists} dentists, ${plan.patients} patients, ${plan.appointments} appointments`,
            );
            const clinicId = await timed('dentists and patients', () => addClinic(tx, plan, timeZone));
            await prepareLookups(tx, clinicId);
            if (plan.name === LARGE_CLINIC && sessions > 1) later = { plan, clinicId };
            else await fillClinic(tx, plan, clinicId, day, passwordHash);
          }
          return later;
        },
      );
    });
    if (large) await fillInSessions(db, sessions, large.plan, large.clinicId, day, passwordHash);
    // Fresh statistics for the planner, and a visibility map so counts can be index-only.
    await timed('vacuum analyze', async () => {
      for (const table of [
        'dentists',
        'patients',
        'patient_search_terms',
        'patient_search_pairs',
        'patient_status_counts',
        'appointments',
        'appointment_search_terms',
        'appointment_day_counts',
        'availability',
        'users',
      ]) {
        await db.execute(sql.raw(`vacuum (analyze) ${table}`));
      }
    });
    console.log(
      `Done in ${((performance.now() - started) / 1000).toFixed(1)} s. Sign in as large.admin / ${PASSWORD}.`,
    );
  } finally {
    await database.close();
  }
}

/** True when the Large Clinic is there already (nothing to do); an incomplete one is an error. */
async function largeClinicIsThere(db: Database): Promise<boolean> {
  const clinics = await count(db, sql`select count(*) as total from clinics where name = ${LARGE_CLINIC}`);
  if (clinics === 0) return false;
  const accounts = await count(
    db,
    sql`select count(*) as total from users join clinics on clinics.id = users.clinic_id
      where clinics.name = ${LARGE_CLINIC} and users.username = 'large.admin'`,
  );
  if (accounts === 0) {
    throw new Error(
      `'${LARGE_CLINIC}' has no accounts: its seed is still running or stopped part way. Seed a fresh database.`,
    );
  }
  console.log(`'${LARGE_CLINIC}' is already there: nothing to do.`);
  return true;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
