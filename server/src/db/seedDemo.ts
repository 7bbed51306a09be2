import {
  type AppointmentStatus,
  DEFAULT_PRACTICE_HOURS,
  DEFAULT_TREATMENT_MINUTES,
  minutesOf,
  type Role,
  type Span,
  type Specialization,
  spansOverlap,
  suggestedSlotsOn,
  TREATMENTS,
  type Treatment,
  timeOfMinutes,
} from '@dental/shared/domain';
import { sql } from 'drizzle-orm';
import { hashPassword } from '../auth/passwords';
import type { Database } from './client';
import { addDays, isoWeekday, localDate, localTime, serverTimeZone } from './clinicTime';
import {
  appointments,
  auditLog,
  availability,
  clinicSettings,
  clinics,
  dentists,
  patients,
  type TimeSlot,
  users,
} from './schema';

interface DemoStaff {
  username: string;
  password: string;
  name: string;
  email: string;
  role: Role;
  /** The dentist record a dentist account is linked to, by name. */
  dentistName?: string;
  /** Days since the last sign-in, so the Users screen shows a history; absent: never signed in. */
  lastLoginDaysAgo?: number;
}

interface DemoDentist {
  name: string;
  email: string;
  phone: string;
  specialty: Specialization;
  license: string;
  yearsOfExperience: number;
  workingDays: string;
}

interface DemoClinic {
  name: string;
  staff: DemoStaff[];
  dentists: DemoDentist[];
  patientCount: number;
  appointmentCount: number;
  /** Appointments placed on today, so the dashboard has a day to show. */
  todayCount: number;
  emailDomain: string;
  address: string;
  phone: string;
}

/** The demo clinics the README lists; the sign-in screen's hint shows the first clinic's accounts. */
export const DEMO_CLINICS: DemoClinic[] = [
  {
    name: 'Bright Smile Dental',
    emailDomain: 'brightsmile.example',
    address: '120 Harbour Street, Springfield',
    phone: '(555) 010-2000',
    staff: [
      {
        username: 'admin',
        password: 'admin123',
        name: 'Alex Morgan',
        email: 'admin@brightsmile.example',
        role: 'admin',
      },
      {
        username: 'receptionist',
        password: 'receptionist123',
        name: 'Riley Chen',
        email: 'reception@brightsmile.example',
        role: 'receptionist',
        lastLoginDaysAgo: 1,
      },
      {
        username: 'dentist',
        password: 'dentist123',
        name: 'Dr. Sarah Johnson',
        email: 'sarah.johnson@brightsmile.example',
        role: 'dentist',
        dentistName: 'Dr. Sarah Johnson',
        lastLoginDaysAgo: 2,
      },
    ],
    // Between them every weekday has at least two dentists, so 'today' always has appointments.
    dentists: [
      {
        name: 'Dr. Sarah Johnson',
        email: 'sarah.johnson@brightsmile.example',
        phone: '(555) 010-2101',
        specialty: 'General Dentistry',
        license: 'DDS-10231',
        yearsOfExperience: 12,
        workingDays: '12345',
      },
      {
        name: 'Dr. Michael Chen',
        email: 'michael.chen@brightsmile.example',
        phone: '(555) 010-2102',
        specialty: 'Orthodontics',
        license: 'DDS-10488',
        yearsOfExperience: 8,
        workingDays: '123456',
      },
      {
        name: 'Dr. Emily Rodriguez',
        email: 'emily.rodriguez@brightsmile.example',
        phone: '(555) 010-2103',
        specialty: 'Pediatric Dentistry',
        license: 'DDS-11020',
        yearsOfExperience: 6,
        workingDays: '234567',
      },
      {
        name: 'Dr. James Wilson',
        email: 'james.wilson@brightsmile.example',
        phone: '(555) 010-2104',
        specialty: 'Oral Surgery',
        license: 'DDS-09876',
        yearsOfExperience: 15,
        workingDays: '13567',
      },
    ],
    patientCount: 40,
    appointmentCount: 120,
    todayCount: 7,
  },
  {
    name: 'Harbor Dental',
    emailDomain: 'harbordental.example',
    address: '8 Pier Road, Port Haven',
    phone: '(555) 020-3000',
    staff: [
      {
        username: 'harbor.admin',
        password: 'harbor123',
        name: 'Jordan Harbor',
        email: 'admin@harbordental.example',
        role: 'admin',
      },
      {
        username: 'harbor.reception',
        password: 'harbor123',
        name: 'Casey Brooks',
        email: 'reception@harbordental.example',
        role: 'receptionist',
        lastLoginDaysAgo: 3,
      },
    ],
    dentists: [
      {
        name: 'Dr. Olivia Bennett',
        email: 'olivia.bennett@harbordental.example',
        phone: '(555) 020-3101',
        specialty: 'General Dentistry',
        license: 'HD-2001',
        yearsOfExperience: 10,
        workingDays: '1234567',
      },
      {
        name: 'Dr. Noah Patel',
        email: 'noah.patel@harbordental.example',
        phone: '(555) 020-3102',
        specialty: 'Endodontics',
        license: 'HD-2002',
        yearsOfExperience: 4,
        workingDays: '123456',
      },
    ],
    patientCount: 10,
    appointmentCount: 20,
    todayCount: 3,
  },
];

// biome-ignore format: a table of names
export const FIRST_NAMES = [
  'Emma', 'Liam', 'Olivia', 'Noah', 'Ava', 'Elijah', 'Sophia', 'Lucas', 'Mia', 'Mason',
  'Isabella', 'Ethan', 'Amelia', 'Logan', 'Harper', 'James', 'Evelyn', 'Aiden', 'Abigail', 'Jackson',
  'Ella', 'Sebastian', 'Grace', 'Mateo', 'Chloe', 'Henry', 'Zoe', 'Owen', 'Nora', 'Daniel',
  'Lily', 'Samuel', 'Hannah', 'David', 'Aria', 'Joseph', 'Layla', 'Carter', 'Riley', 'Wyatt',
];

// biome-ignore format: a table of names
export const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Martinez', 'Lopez',
  'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Thompson', 'White',
  'Harris', 'Clark', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott',
  'Nguyen', 'Hill', 'Flores', 'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell',
];

export const STREETS = ['Oak Avenue', 'Maple Street', 'Cedar Lane', 'Pine Road', 'Elm Court', 'Birch Way'];

const NOTES = [
  'Sensitive to cold on the lower left side',
  'Prefers morning appointments',
  'Follow-up after last visit',
  'Anxious patient: allow extra time',
  'Bring previous X-rays',
  'Allergic to penicillin',
];

const MEDICAL_HISTORY = [
  'No known allergies',
  'Allergic to penicillin',
  'Type 2 diabetes, well controlled',
  'High blood pressure',
  'Asthma',
];

/** Seeded pseudo-random numbers (mulberry32): the same demo data from the same date. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;

function pick<T>(random: Random, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('Cannot pick from an empty list');
  return item;
}

function weighted<T>(random: Random, choices: ReadonlyArray<readonly [T, number]>): T {
  const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random() * total;
  for (const [value, weight] of choices) {
    roll -= weight;
    if (roll < 0) return value;
  }
  const last = choices[choices.length - 1];
  if (!last) throw new Error('No choices');
  return last[0];
}

function shuffle<T>(random: Random, items: T[]): T[] {
  for (let index = items.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [items[index], items[other]] = [items[other] as T, items[index] as T];
  }
  return items;
}

/** A weekend day is a morning: 09:00-13:00 (docs/product.md, Records and their fields: default hours). */
export function slotsForDay(date: string): ReadonlyArray<{ start: string; end: string }> {
  return suggestedSlotsOn(isoWeekday(date));
}

/** 'YYYY-MM-DD' + 'HH:mm' in UTC, for timestamps of seeded rows (their zone is not shown). */
function at(date: string, time = '10:00'): Date {
  return new Date(`${date}T${time}:00.000Z`);
}

const STATUS_WEIGHTS = {
  past: [
    ['completed', 72],
    ['cancelled', 15],
    ['confirmed', 8],
    ['pending', 5],
  ],
  /** Today, before the clinic's present time. */
  earlierToday: [
    ['completed', 75],
    ['confirmed', 15],
    ['cancelled', 10],
  ],
  /** Today, still to come. */
  laterToday: [
    ['confirmed', 60],
    ['pending', 35],
    ['cancelled', 5],
  ],
  future: [
    ['confirmed', 50],
    ['pending', 40],
    ['cancelled', 10],
  ],
} as const satisfies Record<string, ReadonlyArray<readonly [AppointmentStatus, number]>>;

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

interface SeededPatient {
  id: number;
  name: string;
  createdOn: string;
  active: boolean;
}

async function seedClinic(
  tx: Transaction,
  clinic: DemoClinic,
  clinicIndex: number,
  timeZone: string,
  passwordHashes: Map<string, string>,
  now: Date,
): Promise<void> {
  const random = seededRandom(20240601 + clinicIndex * 7919);
  const today = localDate(timeZone, now);
  const nowTime = localTime(timeZone, now);

  const [created] = await tx
    .insert(clinics)
    .values({ name: clinic.name, timeZone })
    .returning({ id: clinics.id });
  if (!created) throw new Error('Clinic was not created');
  const clinicId = created.id;

  await tx.insert(clinicSettings).values({
    clinicId,
    practiceName: clinic.name,
    address: clinic.address,
    phone: clinic.phone,
    email: `info@${clinic.emailDomain}`,
    workingHours: { ...DEFAULT_PRACTICE_HOURS, sunday: { start: '09:00', end: '13:00', closed: false } },
    notifications: {
      emailReminders: true,
      smsReminders: false,
      appointmentConfirmations: true,
      newPatientAlerts: true,
    },
  });

  const dentistRows = await tx
    .insert(dentists)
    .values(
      clinic.dentists.map((dentist, index) => ({
        clinicId,
        ...dentist,
        createdAt: at(addDays(today, -400 + index * 90)),
        updatedAt: at(addDays(today, -400 + index * 90)),
      })),
    )
    .returning({ id: dentists.id, name: dentists.name, workingDays: dentists.workingDays });
  const dentistIdByName = new Map(dentistRows.map((row) => [row.name, row.id]));
  // A chair for each active dentist, as every clinic starts (migration 0033).
  await tx.execute(sql`select chairs_for_dentists(${clinicId})`);

  const staffRows = await tx
    .insert(users)
    .values(
      clinic.staff.map((member) => ({
        clinicId,
        username: member.username,
        email: member.email,
        name: member.name,
        role: member.role,
        passwordHash: passwordHashes.get(member.username) ?? '',
        dentistId: member.dentistName ? (dentistIdByName.get(member.dentistName) ?? null) : null,
        lastLogin:
          member.lastLoginDaysAgo === undefined
            ? null
            : new Date(now.getTime() - member.lastLoginDaysAgo * 86400000 - 3600000),
      })),
    )
    .returning({ id: users.id, role: users.role });
  const bookerId = staffRows.find((row) => row.role === 'receptionist')?.id ?? staffRows[0]?.id ?? null;

  // Patients joined over two years; a few in the last month, so the dashboard counts newcomers.
  const patientValues = Array.from({ length: clinic.patientCount }, (_, index) => {
    const first = pick(random, FIRST_NAMES);
    const last = pick(random, LAST_NAMES);
    const recent = index >= clinic.patientCount - Math.max(2, Math.round(clinic.patientCount / 8));
    const daysAgo = recent ? 1 + Math.floor(random() * 28) : 60 + Math.floor(random() * 670);
    const createdOn = addDays(today, -daysAgo);
    const birthYear = Number(today.slice(0, 4)) - 6 - Math.floor(random() * 75);
    const birthDate = `${birthYear}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`;
    return {
      clinicId,
      name: `${first} ${last}`,
      email: `${first}.${last}${index + 1}@mail.example`.toLowerCase(),
      phone: `(555) ${String(100 + clinicIndex * 100 + index).padStart(3, '0')}-${String(1000 + Math.floor(random() * 9000))}`,
      dateOfBirth: birthDate,
      address: `${10 + Math.floor(random() * 890)} ${pick(random, STREETS)}`,
      emergencyContact: `${pick(random, FIRST_NAMES)} ${last} (555) 300-${String(1000 + index).slice(-4)}`,
      medicalHistory: random() < 0.6 ? pick(random, MEDICAL_HISTORY) : null,
      status: random() < 0.1 ? 'inactive' : 'active',
      createdAt: at(createdOn, '09:30'),
      updatedAt: at(createdOn, '09:30'),
    };
  });
  const patientRows = await tx.insert(patients).values(patientValues).returning({
    id: patients.id,
    name: patients.name,
    status: patients.status,
    createdAt: patients.createdAt,
  });
  const seededPatients: SeededPatient[] = patientRows.map((row) => ({
    id: row.id,
    name: row.name,
    createdOn: row.createdAt.toISOString().slice(0, 10),
    active: row.status === 'active',
  }));

  // Every free (dentist, date, time) from 60 days back to 30 ahead, on the dentist's working days.
  const candidates: Array<{ dentistId: number; date: string; time: string }> = [];
  for (let offset = -60; offset <= 30; offset += 1) {
    const date = addDays(today, offset);
    const weekday = String(isoWeekday(date));
    for (const dentist of dentistRows) {
      if (!dentist.workingDays.includes(weekday)) continue;
      for (const slot of slotsForDay(date))
        candidates.push({ dentistId: dentist.id, date, time: slot.start });
    }
  }
  shuffle(random, candidates);
  // Today first, then the rest: one appointment per (dentist, date, time), so nobody is double-booked.
  const todays = candidates.filter((candidate) => candidate.date === today).slice(0, clinic.todayCount);
  const others = candidates
    .filter((candidate) => candidate.date !== today)
    .slice(0, clinic.appointmentCount - todays.length);
  const chosen = [...todays, ...others].sort(
    (a, b) => a.date.localeCompare(b.date) || a.time.localeCompare(b.time) || a.dentistId - b.dentistId,
  );

  // Every visit holds its treatment's length (DEFAULT_TREATMENT_MINUTES): a longer one only where its
  // dentist's day has room after it, and a patient is never booked twice at one time.
  const chosenStarts = new Set(chosen.map((slot) => `${slot.dentistId}|${slot.date}|${slot.time}`));
  const patientSpans = new Map<number, Span[]>();
  /** A slot of the day starts where a visit from `start` ends its first hour: the day runs on. */
  const runsOn = (date: string, start: number) =>
    slotsForDay(date).some((slot) => minutesOf(slot.start) === start + 60);
  const treatmentFor = (slot: { dentistId: number; date: string; time: string }): Treatment => {
    const wanted = pick(random, TREATMENTS);
    const start = minutesOf(slot.time);
    const end = start + DEFAULT_TREATMENT_MINUTES[wanted];
    const nextHour = `${slot.dentistId}|${slot.date}|${timeOfMinutes(start + 60)}`;
    const fits = end <= start + 60 || (runsOn(slot.date, start) && !chosenStarts.has(nextHour));
    return fits ? wanted : 'Regular Cleaning';
  };
  const dayIndex = (date: string) => Math.round(Date.parse(`${date}T00:00:00Z`) / 86_400_000) * 1440;
  const freeFor = (patient: SeededPatient, date: string, span: Span) =>
    !(patientSpans.get(patient.id) ?? []).some(
      (other) => other.start < span.end + dayIndex(date) && span.start + dayIndex(date) < other.end,
    );

  const appointmentValues = chosen.flatMap((slot) => {
    const period =
      slot.date < today
        ? 'past'
        : slot.date > today
          ? 'future'
          : slot.time < nowTime
            ? 'earlierToday'
            : 'laterToday';
    const status = weighted(random, STATUS_WEIGHTS[period]);
    // A patient is booked only after joining, and an inactive one only in the past.
    const eligible = seededPatients.filter(
      (patient) => patient.createdOn <= slot.date && (patient.active || period === 'past'),
    );
    const treatment = treatmentFor(slot);
    const span = {
      start: minutesOf(slot.time),
      end: minutesOf(slot.time) + DEFAULT_TREATMENT_MINUTES[treatment],
    };
    const free = (eligible.length > 0 ? eligible : seededPatients).filter((each) =>
      freeFor(each, slot.date, span),
    );
    if (free.length === 0) return [];
    const patient = pick(random, free);
    patientSpans.set(patient.id, [
      ...(patientSpans.get(patient.id) ?? []),
      { start: span.start + dayIndex(slot.date), end: span.end + dayIndex(slot.date) },
    ]);
    const bookedDaysBefore = 1 + Math.floor(random() * 20);
    let bookedOn = addDays(slot.date, -bookedDaysBefore);
    if (bookedOn < patient.createdOn) bookedOn = patient.createdOn;
    if (bookedOn > today) bookedOn = today;
    const createdAt = new Date(Math.min(at(bookedOn, '11:00').getTime(), now.getTime() - 60000));
    const updatedAt =
      status === 'completed' && slot.date <= today
        ? new Date(Math.min(at(slot.date, '18:00').getTime(), now.getTime() - 30000))
        : createdAt;
    return [
      {
        clinicId,
        patientId: patient.id,
        patientName: patient.name,
        dentistId: slot.dentistId,
        date: slot.date,
        time: slot.time,
        treatment,
        duration: DEFAULT_TREATMENT_MINUTES[treatment],
        status,
        notes: random() < 0.3 ? pick(random, NOTES) : null,
        createdAt,
        updatedAt: updatedAt < createdAt ? createdAt : updatedAt,
      },
    ];
  });
  const appointmentRows = await tx
    .insert(appointments)
    .values(appointmentValues.map(({ patientName: _patientName, ...row }) => row))
    .returning({ id: appointments.id, createdAt: appointments.createdAt });

  // Open slots for the next two weeks; a slot a live appointment overlaps shows as booked.
  const live = appointmentValues.filter((appointment) => appointment.status !== 'cancelled');
  const bookedSlot = (dentistId: number, date: string, slot: { start: string; end: string }) =>
    live.some(
      (visit) =>
        visit.dentistId === dentistId &&
        visit.date === date &&
        spansOverlap(
          { start: minutesOf(visit.time), end: minutesOf(visit.time) + visit.duration },
          { start: minutesOf(slot.start), end: minutesOf(slot.end) },
        ),
    );
  const availabilityValues: Array<typeof availability.$inferInsert> = [];
  for (let offset = 0; offset < 14; offset += 1) {
    const date = addDays(today, offset);
    const weekday = String(isoWeekday(date));
    for (const dentist of dentistRows) {
      if (!dentist.workingDays.includes(weekday)) continue;
      const timeSlots: TimeSlot[] = slotsForDay(date).map((slot) => ({
        start: slot.start,
        end: slot.end,
        available: !bookedSlot(dentist.id, date, slot),
      }));
      availabilityValues.push({ clinicId, dentistId: dentist.id, date, timeSlots });
    }
  }
  if (availabilityValues.length > 0) await tx.insert(availability).values(availabilityValues);

  // The last week's bookings as the receptionist made them, so recent activity has a history.
  const weekAgo = now.getTime() - 7 * 86400000;
  const activity = appointmentRows
    .map((row, index) => ({ row, patientName: appointmentValues[index]?.patientName ?? '' }))
    .filter(({ row }) => row.createdAt.getTime() >= weekAgo)
    .map(({ row, patientName }) => ({
      clinicId,
      userId: bookerId,
      action: 'create',
      entity: 'appointment',
      entityId: String(row.id),
      details: { patient: patientName },
      createdAt: row.createdAt,
    }));
  if (activity.length > 0) await tx.insert(auditLog).values(activity);
}

/**
 * Puts the demo clinics in when the database has none: realistic, deterministic data around today
 * (the clinic's today, in the server's zone). The advisory lock makes two processes starting at once
 * on one database seed it exactly once.
 */
export async function seedDemoData(db: Database, now: Date = new Date()): Promise<boolean> {
  const existing = await db.select({ id: clinics.id }).from(clinics).limit(1);
  if (existing.length > 0) return false;
  // Hashing is slow on purpose: do it before the transaction, all at once.
  const accounts = DEMO_CLINICS.flatMap((clinic) => clinic.staff);
  const hashes = await Promise.all(accounts.map((member) => hashPassword(member.password)));
  const passwordHashes = new Map(accounts.map((member, index) => [member.username, hashes[index] ?? '']));
  const timeZone = serverTimeZone();

  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(7315001)`);
    const again = await tx.select({ id: clinics.id }).from(clinics).limit(1);
    if (again.length > 0) return false;
    for (const [index, clinic] of DEMO_CLINICS.entries()) {
      await seedClinic(tx, clinic, index, timeZone, passwordHashes, now);
    }
    return true;
  });
}
