#!/usr/bin/env node
/**
 * What PostgreSQL does for the worst case of each kind of request in the front desk's mix
 * (bench/mix.mjs) on the large clinic: every statement the API's own data functions send is run
 * under EXPLAIN (ANALYZE, BUFFERS) with its real parameters, then for real. Prints each case's
 * statements (planning and execution time, whether a table was scanned whole) and the plan of its
 * slowest statement.
 *
 * Each case runs once first, unexplained, as a pooled connection of the API has run its statements
 * before: a new session's first plan also fills its catalog caches, which took a fresh session
 * 2-8 ms more. Each statement is then explained EXPLAINS times and the median planning and
 * execution times are kept, so one descheduled moment of a busy machine does not stand for the case.
 *
 * Usage (the database already holds `npm run seed:large`):
 *   DATABASE_URL=postgres://… node --import tsx bench/explain.mjs
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { clinicToday } from '../server/src/db/clinicTime.ts';
import * as schema from '../server/src/db/schema.ts';
import { listAppointments } from '../server/src/resources/appointments/appointmentReads.ts';
import { readMonthAppointments } from '../server/src/resources/calendar/calendarData.ts';
import { readStatFigures } from '../server/src/resources/dashboard/dashboardData.ts';
import { listPatientAppointments, listPatients } from '../server/src/resources/patients/patientsData.ts';
import { listRecall } from '../server/src/resources/recall/recallData.ts';
import { median } from './stats.mjs';

if (!process.env.DATABASE_URL) {
  console.error('DATABASE_URL must name the PostgreSQL database seeded with npm run seed:large');
  process.exit(2);
}
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
const client = await pool.connect();

const EXPLAINS = 5;

/** The statements of the case being run, with what EXPLAIN said of each. */
let statements = [];
/** Off for a case's first run. */
let explaining = false;
const query = client.query.bind(client);
client.query = async (config, values) => {
  const text = typeof config === 'string' ? config : config.text;
  const params = values ?? config.values ?? [];
  if (explaining && /^\s*(select|with)\b/i.test(text)) {
    const runs = [];
    for (let i = 0; i < EXPLAINS; i++) {
      const explained = await query({ text: `explain (analyze, buffers) ${text}`, values: params });
      const plan = explained.rows.map((row) => row['QUERY PLAN']).join('\n');
      const figure = (label) => Number(new RegExp(`${label}: ([\\d.]+) ms`).exec(plan)?.[1] ?? Number.NaN);
      runs.push({ plan, planning: figure('Planning Time'), execution: figure('Execution Time') });
    }
    const plan = runs[runs.length - 1].plan;
    statements.push({
      text: text.replace(/\s+/g, ' ').trim(),
      plan,
      planning: median(runs.map((run) => run.planning)),
      execution: median(runs.map((run) => run.execution)),
      seqScan: /Seq Scan on (appointments|patients|patient_search_terms|patient_recalls)\b/.test(plan),
    });
  }
  return query(config, values);
};
const db = drizzle(client, { schema });

const [clinic] = (await query("select id from clinics where name = 'Large Clinic'")).rows;
if (!clinic) throw new Error('No Large Clinic: run npm run seed:large first');
const clinicId = clinic.id;
const busiest = (
  await query(
    `select dentist_id, count(*) as total from appointments where clinic_id = $1
     group by dentist_id order by total desc limit 1`,
    [clinicId],
  )
).rows[0];
const busiestMonth = (
  await query(
    `select extract(year from date)::int as year, extract(month from date)::int as month, count(*) as total
     from appointments where clinic_id = $1 and dentist_id = $2 group by 1, 2 order by total desc limit 1`,
    [clinicId, busiest.dentist_id],
  )
).rows[0];
const mostVisits = (
  await query(
    `select patient_id from appointments where clinic_id = $1 group by patient_id order by count(*) desc limit 1`,
    [clinicId],
  )
).rows[0];
const page = (number, limit = 20) => ({ page: number, limit });

const cases = [
  [
    'appointments list: deep page of a common status',
    () => listAppointments(db, clinicId, { ...page(10), status: 'completed' }),
  ],
  [
    'appointments list: two letters, deep page',
    () => listAppointments(db, clinicId, { ...page(10), search: 'ma' }),
  ],
  [
    'appointments list: busiest dentist, a status, two letters',
    () =>
      listAppointments(db, clinicId, {
        ...page(10),
        dentist_id: busiest.dentist_id,
        status: 'pending',
        search: 'an',
      }),
  ],
  ['patient search: two letters, deep page', () => listPatients(db, clinicId, { ...page(10), search: 'ma' })],
  [
    'patient search: the start of a phone number, deep page',
    () => listPatients(db, clinicId, { ...page(10), search: '555' }),
  ],
  ['patient search: two words', () => listPatients(db, clinicId, { ...page(1), search: 'ma jo' })],
  [
    `calendar month: busiest dentist's busiest month (${busiestMonth.total} visits)`,
    () =>
      readMonthAppointments(db, clinicId, {
        year: busiestMonth.year,
        month: busiestMonth.month,
        dentist_id: busiest.dentist_id,
        ...page(1, 1000),
      }),
  ],
  [
    "a patient's appointments: the patient with the most",
    () => listPatientAppointments(db, clinicId, mostVisits.patient_id, page(1)),
  ],
  ['dashboard stats', async () => readStatFigures(db, clinicId, await clinicToday(db, clinicId))],
  ['recall list: due in the next 30 days, first page', () => listRecall(db, clinicId, page(1))],
  [
    'recall list: everything due by the end of next year, deep page',
    async () =>
      listRecall(db, clinicId, {
        ...page(10),
        due_by: `${Number((await clinicToday(db, clinicId)).slice(0, 4)) + 1}-12-31`,
      }),
  ],
  [
    'recall list: the busiest dentist, not scheduled, not contacted',
    () =>
      listRecall(db, clinicId, {
        ...page(1),
        dentist_id: busiest.dentist_id,
        scheduled: 'no',
        contacted: 'no',
      }),
  ],
];

console.log(
  `PostgreSQL ${(await query('show server_version')).rows[0].server_version}, clinic ${clinicId}\n`,
);
const summary = [];
for (const [name, run] of cases) {
  explaining = false;
  await run();
  statements = [];
  explaining = true;
  await run();
  explaining = false;
  const execution = statements.reduce((sum, each) => sum + each.execution, 0);
  const planning = statements.reduce((sum, each) => sum + each.planning, 0);
  const slowest = [...statements].sort((a, b) => b.execution - a.execution)[0];
  summary.push({
    name,
    statements: statements.length,
    execution,
    planning,
    seqScan: statements.some((s) => s.seqScan),
  });
  console.log(`## ${name}`);
  for (const each of statements) {
    console.log(
      `  ${each.execution.toFixed(3).padStart(8)} ms run  ${each.planning.toFixed(3).padStart(7)} ms plan${each.seqScan ? '  SEQ SCAN' : ''}  ${each.text.slice(0, 110)}`,
    );
  }
  if (slowest) console.log(`  slowest statement's plan:\n${slowest.plan.replace(/^/gm, '    ')}\n`);
}
console.log(
  `| worst case | statements | run ms (sum of medians of ${EXPLAINS}) | plan ms (sum of medians) | seq scan |`,
);
console.log('| --- | --- | --- | --- | --- |');
for (const row of summary) {
  console.log(
    `| ${row.name} | ${row.statements} | ${row.execution.toFixed(2)} | ${row.planning.toFixed(2)} | ${row.seqScan ? 'yes' : 'no'} |`,
  );
}
client.release();
await pool.end();
