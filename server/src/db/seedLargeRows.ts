/**
 * The statements of `npm run seed:large` (seedLarge.ts), one set-based INSERT ... SELECT over
 * generate_series per table. Rows are deterministic (hashes of their position, not random()),
 * relative to the clinic's today, so sessions that each write a part of a clinic's visits together
 * write what one statement would.
 */
import { DEFAULT_NOTIFICATIONS, SPECIALIZATIONS, TREATMENTS, WEEKDAYS } from '@dental/shared/domain';
import { sql } from 'drizzle-orm';
import type { Transaction } from './client';
import { FIRST_NAMES, LAST_NAMES, STREETS } from './seedDemo';

export interface ClinicPlan {
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

/** The clinic's today, fixed once, so every session lays its visits out around the same day. */
export interface SeedDay {
  today: string;
  nowTime: string;
}

/** Which of a clinic's visits a statement writes: the patients whose number modulo `of` is `index`. */
export interface VisitPart {
  index: number;
  of: number;
}

/**
 * Appointments are 20 minutes, 08:00 to 18:00 on weekdays and 09:00 to 13:00 at weekends; a few
 * dentists work weekends, so 'today' always has a list.
 */
const SLOT_MINUTES = 20;
const SLOTS_PER_DAY = 30;

/** Numbers are written into the SQL: untyped parameters leave generate_series and friends ambiguous. */
const literal = (value: number) => sql.raw(String(value));

const textArray = (values: readonly string[]) =>
  sql.raw(`array[${values.map((value) => `'${value.replace(/'/g, "''")}'`).join(', ')}]::text[]`);

/** A deterministic number in [0, modulo) from a bigint expression and a salt. */
const hashed = (expression: string, salt: number, modulo: number) =>
  `((hashint8((${expression})::bigint * 1000003 + ${salt})::bigint + 2147483648) % ${modulo})`;

/** The clinic, its settings, dentists, chairs and patients; returns the clinic's id. */
export async function addClinic(tx: Transaction, plan: ClinicPlan, timeZone: string): Promise<number> {
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

  await tx.execute(sql`
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
  `);
  await tx.execute(sql`select chairs_for_dentists(${literal(clinicId)})`);

  // Patients joined evenly over the last three years: the newest have the highest numbers.
  await tx.execute(sql`
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
  `);
  return clinicId;
}

/**
 * The session's lookups of the clinic's patients (by number) and working dentists (with their
 * chair), which the visits and availability read; they go with the transaction.
 */
export async function prepareLookups(tx: Transaction, clinicId: number) {
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
}

/** The clinic's visits of one part of its days (prepareLookups first, in the same transaction). */
export async function addVisits(
  tx: Transaction,
  plan: ClinicPlan,
  clinicId: number,
  day: SeedDay,
  part: VisitPart,
) {
  const { today, nowTime } = day;
  const firstDay = -plan.pastDays;
  const lastDay = plan.futureDays - 1;
  const spanDays = 3 * 365;
  // Every (dentist, day, time) a working dentist can take, ordered by a hash of itself (ties by
  // place, so every part picks from the same list); the first N are booked, each a visit of one
  // slot's length in its dentist's chair. One appointment per dentist and time, and the dentists
  // booked at one time get neighbouring patients (k apart), so no one is in two places. Each carries
  // its patient's name and phone; the clinic's settings give no dentist part or turnover, so the
  // columns' defaults are what the bulk path checks them against. A part is a share of the patients:
  // all of a patient's visits, and so its recalls, are written by one statement (migration 0043).
  await tx.execute(sql`
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
          order by h, seed_dentists.k, offset_day, slot
          limit ${literal(plan.appointments)}
        ) as candidate
      ) as picked
      join seed_patients on seed_patients.n = picked.patient_n
      where picked.patient_n % ${literal(part.of)} = ${literal(part.index)}
      order by picked.day, picked.time, picked.dentist_id
  `);
}

/** Each working day's slots of the next days, after the visits (prepareLookups first). */
export async function addAvailability(tx: Transaction, plan: ClinicPlan, clinicId: number, today: string) {
  // Each working day's 20-minute slots; a slot with a live appointment shows as booked.
  await tx.execute(sql`
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
  `);
}

/** The clinic's three accounts, all with the given password. */
export async function addAccounts(tx: Transaction, plan: ClinicPlan, clinicId: number, passwordHash: string) {
  const firstDentist = await tx.execute(
    sql`select min(id) as id from dentists where clinic_id = ${literal(clinicId)}`,
  );
  const dentistId = Number((firstDentist.rows[0] as { id: number | string }).id);
  await tx.execute(sql`
    insert into users (clinic_id, username, email, name, role, password_hash, dentist_id, last_login)
    values
      (${literal(clinicId)}, ${`${plan.accountPrefix}.admin`}, ${`admin@${plan.emailDomain}`}, 'Morgan Lee', 'admin', ${passwordHash}, null, now() - interval '2 days'),
      (${literal(clinicId)}, ${`${plan.accountPrefix}.reception`}, ${`reception@${plan.emailDomain}`}, 'Sam Rivera', 'receptionist', ${passwordHash}, null, now() - interval '1 day'),
      (${literal(clinicId)}, ${`${plan.accountPrefix}.dentist`}, ${`dentist1@${plan.emailDomain}`}, 'Dentist One', 'dentist', ${passwordHash}, ${literal(dentistId)}, null)
  `);
  await tx.execute(sql`
    update users set name = dentists.name from dentists
    where users.clinic_id = ${literal(clinicId)} and users.role = 'dentist'
      and dentists.clinic_id = users.clinic_id and dentists.id = users.dentist_id
  `);
}
