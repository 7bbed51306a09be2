/**
 * `npm run seed:large`: a clinic at realistic volume for the budgets of the benchmarks, plus three
 * small clinics, in the database the server uses (DATABASE_URL, else DATA_DIR's PGlite).
 *
 *   Large Clinic: 60 dentists, 100,000 patients, 1,000,000 appointments from two years back to one
 *   year ahead (one per dentist and time: nobody is double-booked), availability for the next 90 days.
 *   Sign in as large.admin / large123 (also large.reception, large.dentist).
 *
 * Every table is filled with one set-based INSERT ... SELECT over generate_series; rows are
 * deterministic (hashes of their position, not random()), relative to the clinic's today. The
 * visits take the bulk path (migration 0038, docs/architecture.md "Database rules"): each visit
 * carries its patient's card and its clinic's defaults (no kept group, dentist part or turnover),
 * which the database checks, and their recalls are kept by one statement, not row by row.
 * `--scale 0.1` makes a smaller copy (patients and appointments scaled) for trying it out.
 */
import { DEFAULT_NOTIFICATIONS, SPECIALIZATIONS, TREATMENTS, WEEKDAYS } from '@dental/shared/domain';
import { type SQL, sql } from 'drizzle-orm';
import { hashPassword } from '../auth/passwords';
import { loadConfig } from '../config';
import { type Database, openDatabase } from './client';
import { localDate, localTime, serverTimeZone } from './clinicTime';
import { FIRST_NAMES, LAST_NAMES, STREETS, seedDemoData } from './seedDemo';

const LARGE_CLINIC = 'Large Clinic';
const PASSWORD = 'large123';

interface ClinicPlan {
  name: string;
  /** Account names start with it: large.admin, small1.admin … */
  accountPrefix: string;
  emailDomain: string;
  dentists: number;
  patients: number;
  appointments: number;
  /** Days back and ahead of today that appointments cover. */
  pastDays: number;
  futureDays: number;
  availabilityDays: number;
}

/**
 * Appointments are 20 minutes, 08:00 to 18:00 on weekdays and 09:00 to 13:00 at weekends; a few
 * dentists work weekends, so 'today' always has a list.
 */
const SLOT_MINUTES = 20;
const SLOTS_PER_DAY = 30;

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

/** Numbers are written into the SQL: untyped parameters leave generate_series and friends ambiguous. */
const literal = (value: number) => sql.raw(String(value));

const textArray = (values: readonly string[]) =>
  sql.raw(`array[${values.map((value) => `'${value.replace(/'/g, "''")}'`).join(', ')}]::text[]`);

/** A deterministic number in [0, modulo) from a bigint expression and a salt. */
const hashed = (expression: string, salt: number, modulo: number) =>
  `((hashint8((${expression})::bigint * 1000003 + ${salt})::bigint + 2147483648) % ${modulo})`;

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

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * Bulk loads run without the table's secondary indexes and foreign keys, which are rebuilt once at
 * the end from their own definitions: one sorted build beats a million index insertions. It all
 * happens in the seed's transaction, so a failure leaves the schema as it was.
 */
async function withoutSecondaryIndexes<T>(
  tx: Transaction,
  tables: string[],
  work: () => Promise<T>,
): Promise<T> {
  const dropped: string[] = [];
  for (const table of tables) {
    const foreignKeys = await tx.execute(sql`
      select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
      where conrelid = ${table}::regclass and contype = 'f'
    `);
    for (const row of foreignKeys.rows as Array<{ name: string; definition: string }>) {
      await tx.execute(sql.raw(`alter table "${table}" drop constraint "${row.name}"`));
      dropped.push(`alter table "${table}" add constraint "${row.name}" ${row.definition}`);
    }
    const indexes = await tx.execute(sql`
      select indexname as name, indexdef as definition from pg_indexes
      where schemaname = current_schema() and tablename = ${table}
        and indexname not in (select conname from pg_constraint where conrelid = ${table}::regclass)
    `);
    for (const row of indexes.rows as Array<{ name: string; definition: string }>) {
      await tx.execute(sql.raw(`drop index "${row.name}"`));
      dropped.unshift(row.definition);
    }
  }
  const result = await work();
  await timed('rebuild indexes and foreign keys', async () => {
    // Indexes first: the foreign keys' checks and the later queries use them.
    for (const statement of dropped) await tx.execute(sql.raw(statement));
  });
  return result;
}

async function fillClinic(tx: Transaction, plan: ClinicPlan, timeZone: string, passwordHash: string) {
  const now = new Date();
  const today = localDate(timeZone, now);
  const nowTime = localTime(timeZone, now);
  console.log(
    `${plan.name}: ${plan.dentists} dentists, ${plan.patients} patients, ${plan.appointments} appointments`,
  );

  const clinicResult = await tx.execute(
    sql`insert into clinics (name, time_zone) values (${plan.name}, ${timeZone}) returning id`,
  );
  const clinicId = Number((clinicResult.rows[0] as { id: number }).id);
  // A clinic of short visits: every treatment one 20-minute slot, starts 10 minutes apart, so each
  // slot's start is a start the booking form offers.
  const slotLengths = Object.fromEntries(TREATMENTS.map((treatment) => [treatment, SLOT_MINUTES]));
  // Open as its slots are laid out: weekdays from 08:00, weekend mornings.
  const hours = Object.fromEntries(
    WEEKDAYS.map((day, index) => [
      day,
      index < 5
        ? { start: '08:00', end: '17:00', closed: false }
        : { start: '09:00', end: '13:00', closed: false },
    ]),
  );
  await tx.execute(sql`
    insert into clinic_settings (clinic_id, practice_name, working_hours, notifications, treatment_minutes,
      booking_grid_minutes)
    values (${literal(clinicId)}, ${plan.name}, ${JSON.stringify(hours)}::jsonb,
      ${JSON.stringify(DEFAULT_NOTIFICATIONS)}::jsonb, ${JSON.stringify(slotLengths)}::jsonb, 10)
  `);

  await timed('dentists', () =>
    tx.execute(sql`
      insert into dentists (clinic_id, name, email, phone, specialty, license, years_of_experience,
        working_days, status, created_at, updated_at)
      select ${literal(clinicId)},
        'Dr. ' || (${textArray(FIRST_NAMES)})[1 + (i * 7) % ${literal(FIRST_NAMES.length)}] || ' '
          || (${textArray(LAST_NAMES)})[1 + (i * 11 + i / ${literal(LAST_NAMES.length)}) % ${literal(LAST_NAMES.length)}],
        'dentist' || i || '@' || ${plan.emailDomain},
        '(555) 7' || lpad((i % 100)::text, 2, '0') || '-' || lpad((1000 + i)::text, 4, '0'),
        (${textArray(SPECIALIZATIONS)})[1 + i % ${literal(SPECIALIZATIONS.length)}],
        upper(${plan.accountPrefix}) || '-' || lpad(i::text, 5, '0'),
        2 + (i * 7) % 30,
        (array['123456', '123456', '123456', '12345', '12345', '23456', '1234567', '123456', '12346', '234567'])[1 + i % 10],
        case when i % 25 = 24 then 'inactive' else 'active' end,
        now() - make_interval(days => 400 + i * 3),
        now() - make_interval(days => 400 + i * 3)
      from generate_series(1, ${literal(plan.dentists)}) as i
    `),
  );
  await tx.execute(sql`select chairs_for_dentists(${literal(clinicId)})`);

  // Patients joined evenly over the last three years: the newest have the highest numbers.
  await timed('patients', () =>
    tx.execute(sql`
      insert into patients (clinic_id, name, email, phone, date_of_birth, address, emergency_contact,
        medical_history, status, created_at, updated_at)
      select ${literal(clinicId)},
        first || ' ' || chr(65 + (i * 3) % 26) || '. ' || last,
        lower(first || '.' || last || i || '@mail.example'),
        '(555) ' || lpad(((i / 10000) % 1000)::text, 3, '0') || '-' || lpad((i % 10000)::text, 4, '0'),
        (date '1940-01-01' + ${sql.raw(hashed('i', 1, 25000))}::int),
        (10 + i % 890) || ' ' || (${textArray(STREETS)})[1 + i % ${literal(STREETS.length)}],
        case when i % 3 = 0 then null else (${textArray(FIRST_NAMES)})[1 + (i * 5) % ${literal(FIRST_NAMES.length)}]
          || ' ' || last || ' (555) 300-' || lpad((i % 10000)::text, 4, '0') end,
        (array[null, null, 'No known allergies', 'Allergic to penicillin', 'Asthma', 'High blood pressure'])[1 + i % 6],
        case when ${sql.raw(hashed('i', 2, 100))} < 8 then 'inactive' else 'active' end,
        joined, joined
      from (
        select i,
          (${textArray(FIRST_NAMES)})[1 + ${sql.raw(hashed('i', 3, FIRST_NAMES.length))}] as first,
          (${textArray(LAST_NAMES)})[1 + ${sql.raw(hashed('i', 4, LAST_NAMES.length))}] as last,
          now() - make_interval(secs => (${literal(plan.patients)} - i + 1)::float8 * ${literal((3 * 365 * 86400) / plan.patients)}) as joined
        from generate_series(1, ${literal(plan.patients)}) as i
      ) as numbered
    `),
  );

  await tx.execute(sql.raw('drop table if exists seed_patients'));
  await tx.execute(sql.raw('drop table if exists seed_dentists'));
  await tx.execute(sql`
    create temp table seed_patients on commit drop as
      select row_number() over (order by id) as n, id, name, phone from patients where clinic_id = ${literal(clinicId)}
  `);
  await tx.execute(sql.raw('create unique index on seed_patients (n)'));
  await tx.execute(sql`
    create temp table seed_dentists on commit drop as
      select row_number() over (order by d.id) as k, d.id, d.working_days,
        (select c.id from chairs c where c.clinic_id = d.clinic_id and c.default_dentist_id = d.id
          order by c.position limit 1) as chair_id
      from dentists d
      where d.clinic_id = ${literal(clinicId)} and d.status = 'active'
  `);

  const firstDay = -plan.pastDays;
  const lastDay = plan.futureDays - 1;
  const spanDays = 3 * 365;
  // Every (dentist, day, time) a working dentist can take, ordered by a hash of itself; the first
  // N are booked, each a visit of one slot's length in its dentist's chair. One appointment per dentist and time, and the
  // dentists booked at one time get neighbouring patients (k apart), so no one is in two places.
  // Each carries its patient's name and phone; the clinic's settings give no dentist part or
  // turnover, so the columns' defaults are what the bulk path checks them against.
  await timed('appointments', () =>
    tx.execute(sql`
      insert into appointments (clinic_id, patient_id, patient_name, patient_phone, dentist_id, chair_id, date, time,
        duration, treatment, status, notes, created_at, updated_at)
      select ${literal(clinicId)}, seed_patients.id, seed_patients.name, seed_patients.phone, picked.dentist_id,
        picked.chair_id, picked.day, picked.time, ${literal(SLOT_MINUTES)},
        (${textArray(TREATMENTS)})[1 + ${sql.raw(hashed('picked.h', 5, TREATMENTS.length))}],
        picked.status,
        case when ${sql.raw(hashed('picked.h', 6, 10))} < 2 then
          (array['Sensitive to cold', 'Prefers morning appointments', 'Follow-up visit', 'Bring X-rays',
            'Anxious patient: allow extra time'])[1 + ${sql.raw(hashed('picked.h', 7, 5))}] end,
        least(picked.booked, now() - interval '1 minute'),
        case when picked.status in ('completed', 'cancelled') and picked.day <= ${today}::date
          then greatest(least((picked.day + picked.time::time)::timestamptz + interval '30 minutes',
            now() - interval '30 seconds'), least(picked.booked, now() - interval '1 minute'))
          else least(picked.booked, now() - interval '1 minute') end
      from (
        select candidate.*,
          case
            when candidate.day < ${today}::date
              or (candidate.day = ${today}::date and candidate.time < ${nowTime}) then
              case when candidate.r < 82 then 'completed' when candidate.r < 95 then 'cancelled'
                when candidate.r < 98 then 'confirmed' else 'pending' end
            when candidate.day < ${today}::date + 7 then
              case when candidate.r < 70 then 'confirmed' when candidate.r < 92 then 'pending' else 'cancelled' end
            else
              case when candidate.r < 25 then 'confirmed' when candidate.r < 92 then 'pending' else 'cancelled' end
          end as status,
          -- Patients who had joined by then: the first share of them, by the day's place in three years.
          1 + (${sql.raw(hashed('candidate.moment', 8, 2147483647))} + candidate.k) % greatest(1, least(${literal(plan.patients)},
            floor(${literal(plan.patients)}::float8 * ((candidate.day - (${today}::date - ${literal(spanDays)}))::float8 / ${literal(spanDays)}))::bigint)) as patient_n,
          (candidate.day - (1 + ${sql.raw(hashed('candidate.h', 9, 40))})::int + time '10:00')::timestamptz as booked
        from (
          select seed_dentists.id as dentist_id, seed_dentists.chair_id, seed_dentists.k, ${today}::date + offset_day as day,
            to_char(time '08:00' + slot * interval '${sql.raw(String(SLOT_MINUTES))} minutes', 'HH24:MI') as time,
            hashint8((offset_day + 100000)::bigint * 100 + slot) as moment,
            hashint8((offset_day + 100000)::bigint * 1000000 + seed_dentists.k * 100 + slot) as h,
            ${sql.raw(hashed('(offset_day + 100000)::bigint * 1000000 + seed_dentists.k * 100 + slot', 10, 100))} as r
          from generate_series(${literal(firstDay)}, ${literal(lastDay)}) as offset_day
          cross join seed_dentists
          cross join generate_series(0, ${literal(SLOTS_PER_DAY - 1)}) as slot
          where position(extract(isodow from ${today}::date + offset_day)::text in seed_dentists.working_days) > 0
            and (extract(isodow from ${today}::date + offset_day) < 6 or slot between 3 and 14)
          order by h
          limit ${literal(plan.appointments)}
        ) as candidate
      ) as picked
      join seed_patients on seed_patients.n = picked.patient_n
      order by picked.day, picked.time, picked.dentist_id
    `),
  );

  // Each working day's 20-minute slots; a slot with a live appointment shows as booked.
  await timed('availability', () =>
    tx.execute(sql`
      insert into availability (clinic_id, dentist_id, date, time_slots)
      select ${literal(clinicId)}, day_slots.dentist_id, day_slots.day,
        jsonb_agg(jsonb_build_object('start', day_slots.start, 'end', day_slots.finish,
          'available', appointments.id is null) order by day_slots.start)
      from (
        select seed_dentists.id as dentist_id, ${today}::date + offset_day as day,
          to_char(time '08:00' + slot * interval '20 minutes', 'HH24:MI') as start,
          to_char(time '08:00' + (slot + 1) * interval '20 minutes', 'HH24:MI') as finish
        from generate_series(0, ${literal(plan.availabilityDays - 1)}) as offset_day
        cross join seed_dentists
        cross join generate_series(0, ${literal(SLOTS_PER_DAY - 1)}) as slot
        where position(extract(isodow from ${today}::date + offset_day)::text in seed_dentists.working_days) > 0
          and (extract(isodow from ${today}::date + offset_day) < 6 or slot between 3 and 14)
      ) as day_slots
      left join appointments on appointments.clinic_id = ${literal(clinicId)}
        and appointments.dentist_id = day_slots.dentist_id and appointments.date = day_slots.day
        and appointments.time = day_slots.start and appointments.status <> 'cancelled'
      group by day_slots.dentist_id, day_slots.day
    `),
  );

  const firstDentist = await count(
    tx as unknown as Database,
    sql`select min(id) as total from dentists where clinic_id = ${literal(clinicId)}`,
  );
  await tx.execute(sql`
    insert into users (clinic_id, username, email, name, role, password_hash, dentist_id, last_login)
    values
      (${literal(clinicId)}, ${`${plan.accountPrefix}.admin`}, ${`admin@${plan.emailDomain}`}, 'Morgan Lee', 'admin', ${passwordHash}, null, now() - interval '2 days'),
      (${literal(clinicId)}, ${`${plan.accountPrefix}.reception`}, ${`reception@${plan.emailDomain}`}, 'Sam Rivera', 'receptionist', ${passwordHash}, null, now() - interval '1 day'),
      (${literal(clinicId)}, ${`${plan.accountPrefix}.dentist`}, ${`dentist1@${plan.emailDomain}`}, 'Dentist One', 'dentist', ${passwordHash}, ${firstDentist}, null)
  `);
  await tx.execute(sql`
    update users set name = dentists.name from dentists
    where users.clinic_id = ${literal(clinicId)} and users.role = 'dentist'
      and dentists.clinic_id = users.clinic_id and dentists.id = users.dentist_id
  `);
  return clinicId;
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

async function main() {
  const scale = scaleArgument(process.argv.slice(2));
  const config = loadConfig();
  const started = performance.now();
  console.log(
    `Seeding the large data set into ${config.databaseUrl ? 'the PostgreSQL server of DATABASE_URL' : `PGlite in ${config.dataDir}`}${scale < 1 ? ` at scale ${scale}` : ''}`,
  );
  const database = await timed('open and migrate', () => openDatabase({ ...config, statementTimeoutMs: 0 }));
  const { db } = database;
  try {
    // The demo clinics come first: the server seeds them only into an empty database.
    await timed('demo clinics', () => seedDemoData(db));
    const existing = await count(db, sql`select count(*) as total from clinics where name = ${LARGE_CLINIC}`);
    if (existing > 0) {
      console.log(`'${LARGE_CLINIC}' is already there: nothing to do.`);
      return;
    }
    const passwordHash = await hashPassword(PASSWORD);
    const timeZone = serverTimeZone();
    await db.transaction(async (tx) => {
      await tx.execute(sql.raw("set local work_mem = '256MB'"));
      await tx.execute(sql.raw('set local synchronous_commit = off'));
      // The visits' rules kept per statement, not per row (migration 0038): see the header.
      await tx.execute(sql.raw("select set_config('dental.bulk_visits', 'on', true)"));
      // Two seeds at once on one database would both find no Large Clinic.
      await tx.execute(sql.raw('select pg_advisory_xact_lock(7315002)'));
      const again = await count(
        tx as unknown as Database,
        sql`select count(*) as total from clinics where name = ${LARGE_CLINIC}`,
      );
      if (again > 0) return;
      await tx.execute(sql.raw("set local maintenance_work_mem = '512MB'"));
      await withoutSecondaryIndexes(
        tx,
        [
          'appointments',
          'appointment_search_terms',
          'patients',
          'patient_search_terms',
          'patient_search_pairs',
        ],
        async () => {
          for (const plan of plans(scale)) await fillClinic(tx, plan, timeZone, passwordHash);
        },
      );
    });
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

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
