#!/usr/bin/env node
/**
 * What keeping visits apart costs PostgreSQL on the large clinic (budget: each statement ≤ 3 ms):
 * the free times of the busiest dentist's busiest day (GET /api/dentists/:id/free-times), and every
 * statement of a booking onto that day (POST /api/appointments: hours, lengths, the exclusion
 * constraints, the day's slots, reminders, audit). Each statement the API's own data functions send
 * is run under EXPLAIN (ANALYZE, BUFFERS) with its real parameters: a read is explained and then run;
 * a write is explained inside a savepoint that is rolled back, then run for real. The booking is
 * deleted afterwards, so the data set stays as it was.
 *
 * Usage (the database already holds `npm run seed:large`):
 *   DATABASE_URL=postgres://… node --import tsx bench/visitTime.mjs
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { clinicToday } from '../server/src/db/clinicTime.ts';
import * as schema from '../server/src/db/schema.ts';
import { createAppointment } from '../server/src/resources/appointments/visitBooking.ts';
import { deleteAppointment } from '../server/src/resources/appointments/visitChanges.ts';
import { freeTimesOf } from '../server/src/resources/availability/openHours.ts';
import { median } from './stats.mjs';

if (!process.env.DATABASE_URL) {
  console.error('DATABASE_URL must name the PostgreSQL database seeded with npm run seed:large');
  process.exit(2);
}
const BUDGET_MS = 3;
const EXPLAINS = 5;

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
const client = await pool.connect();
let statements = [];
let explaining = false;
let savepoints = 0;
const query = client.query.bind(client);
client.query = async (config, values) => {
  const text = typeof config === 'string' ? config : config.text;
  const params = values ?? config?.values ?? [];
  const verb = /^\s*(\w+)/.exec(text)?.[1]?.toLowerCase();
  if (explaining && ['select', 'with', 'insert', 'update', 'delete'].includes(verb)) {
    const writes = verb !== 'select' && verb !== 'with';
    const runs = [];
    for (let i = 0; i < EXPLAINS; i++) {
      const savepoint = `explained_${++savepoints}`;
      if (writes) await query(`savepoint ${savepoint}`);
      const explained = await query({ text: `explain (analyze, buffers) ${text}`, values: params });
      if (writes) await query(`rollback to savepoint ${savepoint}`);
      const plan = explained.rows.map((row) => row['QUERY PLAN']).join('\n');
      const figure = (label) => Number(new RegExp(`${label}: ([\\d.]+) ms`).exec(plan)?.[1] ?? Number.NaN);
      runs.push({ plan, planning: figure('Planning Time'), execution: figure('Execution Time') });
    }
    statements.push({
      text: text.replace(/\s+/g, ' ').trim(),
      plan: runs[runs.length - 1].plan,
      planning: median(runs.map((run) => run.planning)),
      execution: median(runs.map((run) => run.execution)),
    });
  }
  return query(config, values);
};
const db = drizzle(client, { schema });

const [clinic] = (await query("select id from clinics where name = 'Large Clinic'")).rows;
if (!clinic) throw new Error('No Large Clinic: run npm run seed:large first');
const clinicId = clinic.id;
const today = await clinicToday(db, clinicId);
// The busiest day still to come of the dentist with the most visits: the most to fit around.
const busiest = (
  await query(
    `select a.dentist_id, a.date::text as date, count(*) as total, d.name, d.working_days
     from appointments a join dentists d on d.clinic_id = a.clinic_id and d.id = a.dentist_id
     where a.clinic_id = $1 and a.date > $2::date and a.status <> 'cancelled' and d.status = 'active'
     group by a.dentist_id, a.date, d.name, d.working_days order by total desc, a.date limit 1`,
    [clinicId, today],
  )
).rows[0];
const dentist = { id: busiest.dentist_id, name: busiest.name, workingDays: busiest.working_days };
const [admin] = (
  await query("select id from users where clinic_id = $1 and role = 'admin' limit 1", [clinicId])
).rows;

async function measure(label, work) {
  await work(); // a pooled connection has run these statements before: catalog caches are warm
  statements = [];
  explaining = true;
  let result;
  try {
    result = await work();
  } finally {
    explaining = false;
  }
  const worst = Math.max(...statements.map((each) => each.planning + each.execution));
  console.log(`\n## ${label}: ${statements.length} statements, the slowest ${worst.toFixed(2)} ms`);
  console.log(
    worst <= BUDGET_MS ? `   within ${BUDGET_MS} ms each: yes` : `   within ${BUDGET_MS} ms each: NO`,
  );
  for (const each of statements) {
    const total = each.planning + each.execution;
    console.log(
      `   ${total.toFixed(2).padStart(6)} ms (plan ${each.planning.toFixed(2)}, run ${each.execution.toFixed(2)})  ${each.text.slice(0, 110)}`,
    );
  }
  const slowest = statements.reduce((a, b) => (a.planning + a.execution >= b.planning + b.execution ? a : b));
  console.log(`\n   The slowest statement's plan:\n${slowest.plan.replace(/^/gm, '     ')}`);
  return { result, worst };
}

console.log(
  `Large clinic: ${dentist.name} on ${busiest.date}, ${busiest.total} live visits that day (the busiest day to come).`,
);
const LENGTH = 20; // the large clinic's visits: one 20-minute slot each
const free = await measure(`free times, ${LENGTH} minutes`, () =>
  freeTimesOf(db, clinicId, dentist, { date: busiest.date, duration: LENGTH }),
);
console.log(`   ${free.result.times.length} starts free: ${free.result.times.slice(0, 8).join(', ')}…`);

// A booking of the same dentist on the first day from then on with two free starts, for patients of
// the clinic free that day; made twice (warm-up, measured), each deleted again.
let bookingDay = busiest.date;
for (let tries = 0; tries < 60; tries++) {
  const offered = await freeTimesOf(db, clinicId, dentist, { date: bookingDay, duration: LENGTH });
  if (offered.times.length >= 2) break;
  bookingDay = (await query(`select ($1::date + 1)::text as next`, [bookingDay])).rows[0].next;
}
const patientIds = (
  await query(
    `select id from patients p where clinic_id = $1 and status = 'active' and not exists (
       select 1 from appointments a where a.clinic_id = p.clinic_id and a.patient_id = p.id and a.date = $2::date)
     order by id limit 2`,
    [clinicId, bookingDay],
  )
).rows.map((row) => row.id);
const booked = [];
console.log(`\nThe booking: ${dentist.name} on ${bookingDay}, its first free start.`);
const booking = await measure('a booking (POST /api/appointments)', async () => {
  const times = (await freeTimesOf(db, clinicId, dentist, { date: bookingDay, duration: LENGTH })).times;
  const visit = await createAppointment(
    db,
    { clinicId, userId: admin.id, role: 'admin' },
    {
      patient: 'Bench Patient',
      phone: '555 010 0000',
      patientId: patientIds[booked.length] ?? null,
      date: bookingDay,
      time: times[0],
      dentistId: dentist.id,
      treatment: 'Dental Checkup',
      notes: null,
      status: undefined,
      duration: LENGTH,
      outsideHours: false,
      outsideHoursReason: null,
      waitlistEntryId: null,
      // Any free chair: the database gives one (the dentist's own first).
      chairId: null,
    },
  );
  booked.push(visit);
  return visit;
});
for (const visit of booked) {
  await deleteAppointment(db, { clinicId, userId: admin.id, role: 'admin' }, visit.id);
}
console.log(
  `\nSummary: free times ${free.worst.toFixed(2)} ms, booking ${booking.worst.toFixed(2)} ms at most a statement (budget ${BUDGET_MS} ms).`,
);
client.release();
await pool.end();
