import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { createTestApp } from '../test/testApp';
import type { Transaction } from './client';

/** What a scenario leaves behind: every derived row of the demo clinics, each as one line of text. */
interface Derived {
  visits: string[];
  recalls: string[];
  searchTerms: string[];
  dayCounts: string[];
}

/** Thrown to roll a test's transaction back once it has looked. */
class RolledBack extends Error {}

/**
 * The bulk path of migration 0038 (docs/architecture.md, "Database rules") against the per-row
 * triggers, on the demo clinics: their visits are written again, once with `dental.bulk_visits` off
 * (every row through its triggers) and once with it on (the statement's trigger), from the same
 * state, and everything the triggers derive must come out the same. Written in an order that is not
 * the ids' (a statement's rows are followed in the order they were written), in two statements, with
 * a few visits added for the cases the demo lacks: two completed visits of a recall's treatment on
 * one day, an older completed visit written after a newer one, a cancelled and a booked visit, a
 * visit left without chair or length, and a treatment with a dentist part.
 */
describe('visits written in bulk keep every rule the per-row triggers keep', () => {
  let app: FastifyInstance;
  const db = () => app.database.db;

  beforeAll(async () => {
    app = await createTestApp();
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  /** `work` in a transaction that is rolled back: the demo clinics stay as they are for the next test. */
  const rolledBack = async <T>(work: (tx: Transaction) => Promise<T>): Promise<T> => {
    const outcome: { value?: T } = {};
    await db()
      .transaction(async (tx) => {
        outcome.value = await work(tx);
        throw new RolledBack();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      });
    if (!('value' in outcome)) throw new Error('the work did not finish');
    return outcome.value as T;
  };

  const lines = async (tx: Transaction, query: string) =>
    ((await tx.execute(sql.raw(query))).rows as Array<{ line: string }>).map((row) => row.line);

  const derived = async (tx: Transaction): Promise<Derived> => ({
    visits: await lines(
      tx,
      `select (a.clinic_id, a.id, a.patient_id, a.patient_name, a.patient_phone, a.dentist_id, a.chair_id, a.date,
         a.time, a.duration, a.end_time, a.treatment, a.status, a.overlap_group, a.turnover, a.dentist_from,
         a.dentist_to, a.span, a.chair_span, a.dentist_span, a.version, a.notes, a.outside_hours, a.series_id,
         a.series_position, a.source, a.created_at, a.updated_at)::text as line
       from appointments a join demo_clinics c on c.id = a.clinic_id order by a.clinic_id, a.id`,
    ),
    // Every column; of the version, whether it moved: the rows' triggers move it once for each visit
    // that changes the recall, the statement once for all of them (a version tells a desk that the
    // row changed since it read it, not how many times).
    recalls: await lines(
      tx,
      `select (r.clinic_id, r.patient_id, r.recall_type_id, r.last_visit, r.last_dentist_id, r.due_date,
         r.due_set_by_hand, r.snoozed_until, r.follow_up_on, r.active, r.note, r.last_contact_at, r.last_contact_kind,
         r.last_contact_note, r.auto_reminded_for, r.booked_until, r.updated_at,
         r.version is distinct from before.version)::text as line
       from patient_recalls r join demo_clinics c on c.id = r.clinic_id
       left join recalls_before before on before.clinic_id = r.clinic_id and before.patient_id = r.patient_id
         and before.recall_type_id = r.recall_type_id
       order by r.clinic_id, r.patient_id, r.recall_type_id`,
    ),
    searchTerms: await lines(
      tx,
      `select (t.clinic_id, t.appointment_id, t.prefix, t.terms, t.date, t.time, t.status, t.dentist_id,
         t.patient_id, t.treatment)::text as line
       from appointment_search_terms t join demo_clinics c on c.id = t.clinic_id
       order by t.clinic_id, t.appointment_id, t.prefix`,
    ),
    dayCounts: await lines(
      tx,
      `select (d.clinic_id, d.status, d.date, d.total)::text as line
       from appointment_day_counts d join demo_clinics c on c.id = d.clinic_id and d.total <> 0
       order by d.clinic_id, d.status, d.date`,
    ),
  });

  /**
   * The demo clinics' visits, kept aside with the added ones and deleted, as the large seed and an
   * import start.
   */
  const setAside = async (tx: Transaction) => {
    await tx.execute(sql.raw('create temporary table demo_clinics on commit drop as select id from clinics'));
    // A dentist part for one treatment, so the parts written are not all empty.
    await tx.execute(
      sql.raw(
        `update clinic_settings set dentist_parts = '{"Cavity Filling": {"from": 10, "to": 40}}'::jsonb`,
      ),
    );
    await tx.execute(
      sql.raw(`
      create temporary table visits_aside on commit drop as
        select clinic_id, id, patient_id, dentist_id, chair_id, date, time, duration, treatment, status, notes,
          outside_hours, outside_hours_reason, series_id, series_position, source, confirmed_by, created_at, updated_at,
          -- Written in the order of a hash of the ids (the first statement writes the negative ones).
          hashint4(id)::bigint as written
        from appointments`),
    );
    // Per clinic, its first two patients and two dentists with chairs, on days long before the demo's.
    await tx.execute(
      sql.raw(`
      insert into visits_aside (clinic_id, id, patient_id, dentist_id, chair_id, date, time, duration, treatment,
        status, notes, outside_hours, outside_hours_reason, series_id, series_position, source, confirmed_by,
        created_at, updated_at, written)
      select c.id, 1000000 + c.id * 100 + added.n, p.ids[added.patient], d.ids[added.dentist],
        case when added.chairless then null else d.chairs[added.dentist] end,
        added.date::date, added.time, case when added.lengthless then null else 30 end, added.treatment,
        added.status, null, false, null, null, null, 'desk', null, now() - interval '1 day', now() - interval '1 day',
        -- After the demo's, in their own order.
        3000000000 + added.written * 100 + c.id
      from demo_clinics c
      cross join lateral (select array_agg(id order by id) as ids from patients where clinic_id = c.id) p
      cross join lateral (
        select array_agg(ch.default_dentist_id order by ch.id) as ids, array_agg(ch.id order by ch.id) as chairs
        from chairs ch where ch.clinic_id = c.id and ch.default_dentist_id is not null and ch.in_service
      ) d
      cross join (values
        -- Two completed cleanings on one day: the one written last is the recall's visit, though its
        -- id is the lower (n, then the order written).
        (9, 1, 1, 1, '2001-01-10', '09:00', 'Regular Cleaning', 'completed', false, false),
        (8, 2, 1, 2, '2001-01-10', '11:00', 'Regular Cleaning', 'completed', false, false),
        -- A newer checkup, then an older one written after it: the recall stays on the newer.
        (4, 3, 1, 1, '2001-03-01', '09:00', 'Dental Checkup', 'completed', false, false),
        (3, 4, 1, 2, '2001-02-01', '09:00', 'Dental Checkup', 'completed', false, false),
        (5, 5, 2, 1, '2001-01-10', '10:00', 'Regular Cleaning', 'cancelled', false, false),
        (6, 6, 2, 2, '2099-05-05', '09:00', 'Dental Checkup', 'pending', false, false),
        -- No chair and no length: the row's trigger gives them, in bulk too.
        (7, 7, 2, 1, '2001-01-05', '09:00', 'Dental Checkup', 'completed', true, true),
        (10, 8, 2, 2, '2001-01-06', '09:00', 'Cavity Filling', 'confirmed', false, false)
      ) as added (n, written, patient, dentist, date, time, treatment, status, chairless, lengthless)`),
    );
    await tx.execute(sql.raw('delete from appointments'));
  };

  /** The visits set aside, written again in two statements, in bulk or row by row. */
  const writeAgain = async (tx: Transaction, bulk: boolean) => {
    await tx.execute(sql`select set_config('dental.bulk_visits', ${bulk ? 'on' : ''}, true)`);
    for (const half of ['<', '>=']) {
      // Row by row, the triggers fill the card, part and turnover in; in bulk, the writer does, from
      // the patient and the clinic's settings.
      await tx.execute(
        sql.raw(`
        insert into appointments (clinic_id, id, patient_id, patient_name, patient_phone, dentist_id, chair_id, date,
          time, duration, treatment, status, notes, outside_hours, outside_hours_reason, series_id, series_position,
          turnover, dentist_from, dentist_to, source, confirmed_by, created_at, updated_at)
        select v.clinic_id, v.id, v.patient_id, ${bulk ? `p.name, p.phone` : `'', ''`}, v.dentist_id, v.chair_id,
          v.date, v.time, v.duration, v.treatment, v.status, v.notes, v.outside_hours, v.outside_hours_reason,
          v.series_id, v.series_position, ${bulk ? 'coalesce(s.turnover_minutes, 0)' : '0'},
          ${bulk ? 'lower(part.part), upper(part.part)' : 'null, null'}, v.source, v.confirmed_by, v.created_at,
          v.updated_at
        from visits_aside v
        join patients p on p.clinic_id = v.clinic_id and p.id = v.patient_id
        left join clinic_settings s on s.clinic_id = v.clinic_id
        cross join lateral (select dentist_part_of((s.dentist_parts -> v.treatment ->> 'from')::integer,
          (s.dentist_parts -> v.treatment ->> 'to')::integer, v.duration) as part) part
        where v.written ${half} 0
        order by v.written`),
      );
    }
    await tx.execute(sql`select set_config('dental.bulk_visits', '', true)`);
  };

  /** Both ways from the state the transaction is in; the state is left as it was. */
  const bothWays = async (tx: Transaction) => {
    await tx.execute(sql.raw('savepoint before_writing'));
    await writeAgain(tx, false);
    const rowByRow = await derived(tx);
    await tx.execute(sql.raw('rollback to savepoint before_writing'));
    await writeAgain(tx, true);
    const inBulk = await derived(tx);
    await tx.execute(sql.raw('rollback to savepoint before_writing'));
    return { rowByRow, inBulk };
  };

  it('into clinics with no recalls yet, as the large seed and an import write them', async () => {
    const { rowByRow, inBulk } = await rolledBack(async (tx) => {
      await setAside(tx);
      await tx.execute(sql.raw('delete from patient_recalls'));
      await tx.execute(
        sql.raw('create temporary table recalls_before on commit drop as select * from patient_recalls'),
      );
      return bothWays(tx);
    });
    expect(rowByRow.visits.length).toBeGreaterThan(100);
    expect(rowByRow.recalls.length).toBeGreaterThan(10);
    expect(rowByRow.recalls.some((line) => /,t\)$/.test(line))).toBe(true);
    expect(inBulk).toEqual(rowByRow);
  });

  it('into clinics whose recalls were set by hand, snoozed, contacted, or follow a later visit', async () => {
    const { rowByRow, inBulk } = await rolledBack(async (tx) => {
      await setAside(tx);
      for (const change of [
        `update patient_recalls set due_set_by_hand = true, due_date = due_date + 30, snoozed_until = due_date + 60,
           last_contact_at = now() - interval '3 days', last_contact_kind = 'call',
           last_contact_note = 'left a message', note = 'prefers mornings'
         where patient_id % 3 = 0`,
        `update patient_recalls set last_visit = '2100-01-01' where patient_id % 3 = 1`,
        'update patient_recalls set last_visit = null, last_dentist_id = null where patient_id % 5 = 2',
        `update patient_recalls set booked_until = '2001-01-01' where patient_id % 7 = 3`,
      ]) {
        await tx.execute(sql.raw(change));
      }
      await tx.execute(
        sql.raw('create temporary table recalls_before on commit drop as select * from patient_recalls'),
      );
      return bothWays(tx);
    });
    expect(rowByRow.recalls.length).toBeGreaterThan(10);
    expect(inBulk).toEqual(rowByRow);
  });

  /** The message of the statement's refusal, in a transaction of its own. */
  const refusalOf = async (...writes: string[]) =>
    db()
      .transaction(async (tx) => {
        await tx.execute(sql`select set_config('dental.bulk_visits', 'on', true)`);
        for (const write of writes) await tx.execute(sql.raw(write));
        // Rolled back too: the next case starts from the demo clinics as they are.
        throw new RolledBack('written');
      })
      .catch((error: unknown) => {
        const cause = (error as { cause?: { message?: string } }).cause;
        return cause?.message ?? (error as Error).message;
      });

  /** A new visit of the first demo clinic copied from one of its live ones, with `changes`, as SQL. */
  const copyOfAVisit = (changes: Record<string, string>, day = "'2001-06-01'") => {
    const value = (column: string, otherwise: string) => changes[column] ?? otherwise;
    return `
      insert into appointments (clinic_id, patient_id, patient_name, patient_phone, dentist_id, chair_id, date, time,
        duration, treatment, status, turnover, dentist_from, dentist_to, overlap_group)
      select a.clinic_id, a.patient_id, ${value('patient_name', 'p.name')}, p.phone, a.dentist_id,
        ${value('chair_id', 'a.chair_id')}, ${value('date', day)}, a.time, a.duration, a.treatment, 'pending',
        ${value('turnover', 'a.turnover')}, a.dentist_from, a.dentist_to, ${value('overlap_group', 'null')}
      from appointments a join patients p on p.clinic_id = a.clinic_id and p.id = a.patient_id
      where a.clinic_id = (select min(id) from clinics) and a.status <> 'cancelled' and a.dentist_from is null
      order by a.id limit 1`;
  };

  it('refuses a bulk statement whose visits lack what the per-row triggers would have written', async () => {
    expect(await refusalOf(copyOfAVisit({}))).toBe('written');
    expect(await refusalOf(copyOfAVisit({ patient_name: "'Someone Else'" }))).toMatch(
      /written in bulk without its patient's name and phone/,
    );
    expect(await refusalOf(copyOfAVisit({ turnover: '15' }))).toMatch(
      /written in bulk with another group, dentist part or turnover/,
    );
    expect(await refusalOf(copyOfAVisit({ overlap_group: '7' }))).toMatch(
      /written in bulk with another group, dentist part or turnover/,
    );
    expect(
      await refusalOf(
        'update chairs set in_service = false where clinic_id = (select min(id) from clinics)',
        copyOfAVisit({}),
      ),
    ).toMatch(/the chair is not in service/);
  });

  it('still has every visit checked by the exclusion constraints', async () => {
    // The visit copied onto its own day and time: its dentist, chair and patient are taken then.
    expect(await refusalOf(copyOfAVisit({}, 'a.date'))).toMatch(/appointments_\w+_time_excl/);
  });
});
