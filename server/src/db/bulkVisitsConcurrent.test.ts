import { sql, TransactionRollbackError } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { createTestApp } from '../test/testApp';
import type { Transaction } from './client';

/**
 * Visits written in bulk by two transactions at once, each its share of the patients, as the large
 * seed writes them on a PostgreSQL server (docs/architecture.md, "Database rules"; migration 0043):
 * the second waits for the first only at the day counts, which they share, after writing its search
 * words and recalls, and together they derive what one statement derives.
 */
describe('visits written in bulk by two transactions at once', () => {
  let app: FastifyInstance;
  const db = () => app.database.db;

  beforeAll(async () => {
    app = await createTestApp();
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  /**
   * Two visits for each of the first clinic's first 24 patients, with one dentist in his chair: a
   * completed cleaning in 2001 and a booked one in 2099, three patients' visits on each day (half's
   * patients and the other's share days), each patient at its own time of the day.
   */
  const insertVisits = (tx: Transaction, share: 'even' | 'odd' | 'all') =>
    tx.execute(
      sql.raw(`
      insert into appointments (clinic_id, patient_id, patient_name, patient_phone, dentist_id, chair_id, date,
        time, duration, treatment, status)
      select p.clinic_id, p.id, p.name, p.phone, chair.default_dentist_id, chair.id,
        visit.first_day + p.n % 3, to_char(time '08:00' + (p.n / 3) * interval '30 minutes', 'HH24:MI'), 30,
        'Regular Cleaning', visit.status
      from (
        select clinic_id, id, name, phone, (row_number() over (order by id) - 1)::int as n from patients
        where clinic_id = (select min(id) from clinics) order by id limit 24
      ) as p
      cross join lateral (
        select id, default_dentist_id from chairs
        where clinic_id = p.clinic_id and in_service and retired_at is null and default_dentist_id is not null
        order by id limit 1
      ) as chair
      cross join (values (date '2001-01-10', 'completed'), (date '2099-01-10', 'pending')) as visit (first_day, status)
      where ${share === 'all' ? 'true' : `p.n % 2 = ${share === 'even' ? 0 : 1}`}
      order by p.id`),
    );

  const writeInBulk = async (tx: Transaction, share: 'even' | 'odd' | 'all') => {
    await tx.execute(sql.raw("select set_config('dental.bulk_visits', 'on', true)"));
    await insertVisits(tx, share);
  };

  /** What the visits derive, without ids (each way gives its visits other ids). */
  const derived = async (tx: Transaction) => {
    const lines = async (query: string) =>
      ((await tx.execute(sql.raw(query))).rows as Array<{ line: string }>).map((row) => row.line);
    return {
      searchTerms: await lines(`
        select (t.patient_id, t.prefix, t.terms, t.date, t.time, t.status, t.treatment)::text as line
        from appointment_search_terms t join appointments a on a.clinic_id = t.clinic_id and a.id = t.appointment_id
        where a.date < '2002-01-01' or a.date > '2098-01-01' order by 1`),
      recalls: await lines(`
        select (r.patient_id, r.recall_type_id, r.last_visit, r.last_dentist_id, r.due_date, r.booked_until)::text
          as line
        from patient_recalls r where r.clinic_id = (select min(id) from clinics) order by 1`),
      dayCounts: await lines(`
        select (d.clinic_id, d.status, d.date, d.total)::text as line from appointment_day_counts d
        where (d.date < '2002-01-01' or d.date > '2098-01-01') and d.total <> 0 order by 1`),
    };
  };

  /**
   * The transaction that waits for a lock, with the tables it has written to by then; null if
   * `settled` says it finished without waiting.
   */
  const waitingWriter = async (settled: () => boolean) => {
    while (!settled()) {
      const waiting = await db().execute(sql`
        select a.pid, array(
          select c.relname::text from pg_locks l join pg_class c on c.oid = l.relation and c.relkind = 'r'
          where l.pid = a.pid and l.locktype = 'relation' and l.mode = 'RowExclusiveLock' and l.granted
          order by 1
        ) as written
        from pg_stat_activity a
        where a.datname = current_database() and a.wait_event_type = 'Lock' and a.query ilike '%insert into appointments%'
      `);
      const row = waiting.rows[0] as { pid: number; written: string[] } | undefined;
      if (row) return row;
      await new Promise((resolve) => setImmediate(resolve));
    }
    return null;
  };

  it('waits only at the shared day counts and writes what one statement writes', async () => {
    if (app.database.kind !== 'postgres') return; // PGlite is one connection: one transaction at a time.
    let oneStatement: Awaited<ReturnType<typeof derived>> | undefined;
    await db()
      .transaction(async (tx) => {
        await writeInBulk(tx, 'all');
        oneStatement = await derived(tx);
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof TransactionRollbackError)) throw error;
      });
    // Most of the patients' cleaning recalls now follow the visits of 2001 and are booked to 2099.
    expect(
      oneStatement?.recalls.filter((line) => /,2001-01-1\d,.*,2099-01-1\d\)$/.test(line)).length,
    ).toBeGreaterThan(10);

    let releaseFirst = () => {};
    const released = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    let firstWritten = () => {};
    const written = new Promise<void>((resolve) => {
      firstWritten = resolve;
    });
    const first = db().transaction(async (tx) => {
      await writeInBulk(tx, 'even');
      firstWritten();
      await released;
    });
    await Promise.race([written, first]);
    let secondSettled = false;
    const second = db()
      .transaction((tx) => writeInBulk(tx, 'odd'))
      .finally(() => {
        secondSettled = true;
      });
    try {
      const waiting = await waitingWriter(() => secondSettled);
      // It has written its visits' search words and its patients' recalls, and waits at the day counts.
      expect(waiting?.written).toEqual(
        expect.arrayContaining(['appointment_day_counts', 'appointment_search_terms', 'patient_recalls']),
      );
    } finally {
      releaseFirst();
      await first;
      await second;
    }

    const together = await db().transaction((tx) => derived(tx));
    expect(together.dayCounts.length).toBeGreaterThan(0);
    expect(together).toEqual(oneStatement);
  });
});
