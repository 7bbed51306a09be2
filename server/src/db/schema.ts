import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** A range of whole numbers (PostgreSQL's int4range), read as its text: `[14157330,14157420)`. */
const int4range = customType<{ data: string }>({ dataType: () => 'int4range' });

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
/** Moves on with every change staff can see: a write naming an older one (If-Match) is refused. */
const version = () => integer('version').notNull().default(1);

export const clinics = pgTable('clinics', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  timeZone: text('time_zone').notNull().default('UTC'),
  /** The clinic's address on the web (`/book/<slug>`), given from its name when it is made (migration 0035). */
  slug: text('slug').notNull().default(sql`null`),
  createdAt: createdAt(),
});

/** The clinic a row belongs to. */
const clinicOwner = () =>
  integer('clinic_id')
    .notNull()
    .references(() => clinics.id);

/**
 * Clinic-owned tables lead their keys with `clinic_id`, so every query is scoped by the clinic and the
 * schema can later be distributed by clinic without change.
 */
export const users = pgTable(
  'users',
  {
    clinicId: clinicOwner(),
    id: serial('id').notNull(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role').notNull(),
    passwordHash: text('password_hash').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    lastLogin: timestamp('last_login', { withTimezone: true }),
    dentistId: integer('dentist_id'),
    failedLoginCount: integer('failed_login_count').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    /** Access tokens issued before this (a password change) are refused: the user's other sessions end. */
    sessionsSince: timestamp('sessions_since', { withTimezone: true }),
    /** The password was chosen by someone else (an import's one-time password): the next sign-in sets its own (0032). */
    passwordMustChange: boolean('password_must_change').notNull().default(false),
    createdAt: createdAt(),
    version: version(),
    /** The newest activity record (audit id) this user has seen in the bell. */
    activitySeenId: bigint('activity_seen_id', { mode: 'number' }).notNull().default(0),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.clinicId, table.id] }),
    // One sign-in screen serves every clinic: usernames and e-mails are unique across all of them.
    uniqueIndex('users_username_unique').on(sql`lower(${table.username})`),
    uniqueIndex('users_email_unique').on(sql`lower(${table.email})`),
    index('users_clinic_role_idx').on(table.clinicId, table.role),
  ],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    clinicId: integer('clinic_id').notNull(),
    userId: integer('user_id').notNull(),
    family: text('family').notNull(),
    remember: boolean('remember').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index('refresh_tokens_user_idx').on(table.clinicId, table.userId),
    index('refresh_tokens_family_idx').on(table.family),
  ],
);

export const clinicModules = pgTable(
  'clinic_modules',
  {
    clinicId: clinicOwner(),
    moduleId: text('module_id').notNull(),
    enabled: boolean('enabled').notNull(),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.clinicId, table.moduleId] })],
);

/** A published build of a module (migration 0041; docs/architecture.md, Module releases). */
export const moduleReleases = pgTable(
  'module_releases',
  {
    moduleId: text('module_id').notNull(),
    release: text('release').notNull(),
    version: text('version').notNull(),
    builtAt: timestamp('built_at', { withTimezone: true }).notNull(),
    commit: text('commit'),
    shared: jsonb('shared').$type<Record<string, string>>().notNull(),
    integrity: text('integrity').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
    publishedBy: text('published_by').notNull(),
  },
  (table) => [primaryKey({ columns: [table.moduleId, table.release] })],
);

/** Which release the default (clinicId null) or one clinic runs of a module: one pointer each. */
export const modulePointers = pgTable('module_pointers', {
  moduleId: text('module_id').notNull(),
  clinicId: integer('clinic_id'),
  release: text('release').notNull(),
  pointedAt: timestamp('pointed_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The releases' history: every publish and every pointer moved. */
export const moduleReleaseEvents = pgTable('module_release_events', {
  id: serial('id').primaryKey(),
  moduleId: text('module_id').notNull(),
  release: text('release').notNull(),
  action: text('action').notNull(),
  clinicId: integer('clinic_id'),
  actor: text('actor').notNull(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
});

/** A module that failed in a staff browser, as the browser reported it (migration 0042). */
export const clientErrors = pgTable(
  'client_errors',
  {
    clinicId: clinicOwner(),
    id: serial('id').notNull(),
    moduleId: text('module_id').notNull(),
    release: text('release'),
    phase: text('phase').notNull(),
    message: text('message').notNull(),
    userId: integer('user_id'),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.clinicId, table.id] })],
);

export const auditLog = pgTable(
  'audit_log',
  {
    clinicId: integer('clinic_id').notNull(),
    id: serial('id').notNull(),
    userId: integer('user_id'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    details: jsonb('details'),
    createdAt: createdAt(),
    /** The record's place in its clinic's chain (1, 2, …), given by the database as it is written (0017). */
    chainSeq: bigint('chain_seq', { mode: 'number' }).notNull().default(0),
    /** SHA-256 of the record before it in the chain and this record's own fields: an edit shows. */
    hash: text('hash').notNull().default(''),
    /** The desk (browser tab) the change was made at, for live screens; outside the hash (0026). */
    desk: text('desk'),
  },
  (table) => [
    primaryKey({ columns: [table.clinicId, table.id] }),
    index('audit_log_recent_idx').on(table.clinicId, table.createdAt.desc()),
    uniqueIndex('audit_log_chain_unique').on(table.clinicId, table.chainSeq),
  ],
);

/**
 * Each sealed audit record's HMAC-SHA256 under AUDIT_KEY (kept outside the database), of its clinic,
 * place and hash (0028): whoever rewrites the chain in the database cannot write these.
 */
export const auditLogMacs = pgTable(
  'audit_log_macs',
  {
    clinicId: integer('clinic_id').notNull(),
    chainSeq: bigint('chain_seq', { mode: 'number' }).notNull(),
    mac: text('mac').notNull(),
  },
  (table) => [primaryKey({ columns: [table.clinicId, table.chainSeq] })],
);

/** Second-step tokens that have signed someone in (0029): each opens one sign-in. */
export const spentSignInSteps = pgTable(
  'spent_sign_in_steps',
  {
    jti: text('jti').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('spent_sign_in_steps_expires_idx').on(table.expiresAt)],
);

/** Server-wide secrets shared by every API process on one database. */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});

export const dentists = pgTable(
  'dentists',
  {
    clinicId: clinicOwner(),
    id: serial('id').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    specialty: text('specialty').notNull(),
    license: text('license').notNull(),
    yearsOfExperience: integer('years_of_experience').notNull().default(0),
    /** Day numbers 1 (Monday) to 7 (Sunday) the dentist works, e.g. '12345' (docs/product.md, Records and their fields). */
    workingDays: text('working_days').notNull().default('12345'),
    status: text('status').notNull().default('active'),
    createdAt: createdAt(),
    version: version(),
    updatedAt: updatedAt(),
    /**
     * Set when a dentist with past appointments is deleted: the row stays so the clinic's records
     * keep their dentist, but the dentist is gone from every list, choice and count.
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.clinicId, table.id] }),
    // A deleted dentist's e-mail and license are free for a new record.
    uniqueIndex('dentists_license_unique')
      .on(table.clinicId, sql`lower(${table.license})`)
      .where(sql`${table.deletedAt} is null`),
    uniqueIndex('dentists_email_unique')
      .on(table.clinicId, sql`lower(${table.email})`)
      .where(sql`${table.deletedAt} is null`),
    index('dentists_name_idx').on(table.clinicId, table.name),
    index('dentists_specialty_idx').on(table.clinicId, table.specialty, table.name),
    check('dentists_status_check', sql`${table.status} in ('active', 'inactive')`),
  ],
);

export const patients = pgTable(
  'patients',
  {
    clinicId: clinicOwner(),
    id: serial('id').notNull(),
    name: text('name').notNull(),
    email: text('email'),
    phone: text('phone').notNull(),
    dateOfBirth: date('date_of_birth', { mode: 'string' }),
    address: text('address'),
    emergencyContact: text('emergency_contact'),
    medicalHistory: text('medical_history'),
    status: text('status').notNull().default('active'),
    createdAt: createdAt(),
    version: version(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.clinicId, table.id] }),
    index('patients_name_idx').on(table.clinicId, table.name),
    index('patients_status_name_idx').on(table.clinicId, table.status, table.name),
    index('patients_phone_idx').on(table.clinicId, table.phone),
    index('patients_created_idx').on(table.clinicId, table.createdAt),
    index('patients_birth_date_idx').on(table.clinicId, table.dateOfBirth),
    check('patients_status_check', sql`${table.status} in ('active', 'inactive')`),
  ],
);

/** Text compared byte by byte, so `like 'ab%'` is a range of its btree index whatever the database's locale. */
const byteText = customType<{ data: string }>({ dataType: () => 'text COLLATE "C"' });

/**
 * The words a patient search matches (by the start of a word): the words of the name and of the
 * e-mail's local part, lower-cased, and the phone's digits whole and group by group. Kept by
 * triggers on patients (migration 0009, patient_search_words()). Each row carries the word's first
 * two characters and the patient's name and status, so a search reads its page in name order from
 * patient_search_terms_prefix_idx alone: no patient is read and tested, no match is sorted.
 */
export const patientSearchTerms = pgTable(
  'patient_search_terms',
  {
    clinicId: integer('clinic_id').notNull(),
    term: byteText('term').notNull(),
    patientId: integer('patient_id').notNull(),
    prefix: byteText('prefix').notNull(),
    name: text('name').notNull(),
    status: text('status').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.clinicId, table.term, table.patientId] }),
    foreignKey({
      columns: [table.clinicId, table.patientId],
      foreignColumns: [patients.clinicId, patients.id],
      name: 'patient_search_terms_patient_fk',
    }).onDelete('cascade'),
    index('patient_search_terms_patient_idx').on(table.clinicId, table.patientId, table.term),
    // The page's order first, then what the scan tests, so it reads the index alone.
    index('patient_search_terms_prefix_idx').on(
      table.clinicId,
      table.prefix,
      table.name,
      table.patientId,
      table.term,
      table.status,
    ),
  ],
);

/**
 * Two words of a patient together: for each two of the patient's words (patient_search_terms, the
 * words of two characters or more that do not start with a digit) whose first two characters
 * differ, a row under both starts, with the patient's words of each start (` maria martin `). A
 * search of two short words (`ma jo`) is then one range of patient_search_pairs_prefix_idx in name
 * order, instead of every patient of one word tested for the other. Kept by triggers on patients
 * (migration 0011).
 */
export const patientSearchPairs = pgTable(
  'patient_search_pairs',
  {
    clinicId: integer('clinic_id').notNull(),
    patientId: integer('patient_id').notNull(),
    /** The smaller of the two starts, by bytes. */
    prefixA: byteText('prefix_a').notNull(),
    prefixB: byteText('prefix_b').notNull(),
    name: text('name').notNull(),
    /** The patient's words starting with prefix_a, each with a space before and after. */
    termsA: byteText('terms_a').notNull(),
    termsB: byteText('terms_b').notNull(),
    status: text('status').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.clinicId, table.patientId, table.prefixA, table.prefixB] }),
    foreignKey({
      columns: [table.clinicId, table.patientId],
      foreignColumns: [patients.clinicId, patients.id],
      name: 'patient_search_pairs_patient_fk',
    }).onDelete('cascade'),
    index('patient_search_pairs_prefix_idx').on(
      table.clinicId,
      table.prefixA,
      table.prefixB,
      table.name,
      table.patientId,
      table.termsA,
      table.termsB,
      table.status,
    ),
  ],
);

/**
 * How many of the clinic's appointments fall on each day in each status, kept by triggers on
 * appointments (migration 0009): the dashboard sums a few of these rows instead of counting the
 * clinic's history on every request.
 */
export const appointmentDayCounts = pgTable(
  'appointment_day_counts',
  {
    clinicId: integer('clinic_id').notNull(),
    status: text('status').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    total: integer('total').notNull(),
  },
  (table) => [primaryKey({ columns: [table.clinicId, table.status, table.date] })],
);

/** How many of the clinic's patients are in each status, kept by triggers on patients (migration 0009). */
export const patientStatusCounts = pgTable(
  'patient_status_counts',
  {
    clinicId: integer('clinic_id').notNull(),
    status: text('status').notNull(),
    total: integer('total').notNull(),
  },
  (table) => [primaryKey({ columns: [table.clinicId, table.status] })],
);

/** The columns a list filters or searches appointments by, after an index's order: see appointments. */
const filteredBy = (table: {
  status: AnyPgColumn;
  dentistId: AnyPgColumn;
  patientId: AnyPgColumn;
  treatment: AnyPgColumn;
}) => [table.status, table.dentistId, table.patientId, table.treatment] as const;

/**
 * A recurring booking (migration 0022): every `every` weeks or months, `count` times or until
 * `until`. Its visits are appointments naming it (series_id) and their place (series_position).
 */
export const appointmentSeries = pgTable(
  'appointment_series',
  {
    clinicId: clinicOwner(),
    id: serial('id').notNull(),
    every: integer('every').notNull(),
    unit: text('unit').notNull(),
    count: integer('count'),
    until: date('until', { mode: 'string' }),
    createdBy: integer('created_by'),
    version: version(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.clinicId, table.id] })],
);

export const appointments = pgTable(
  'appointments',
  {
    clinicId: integer('clinic_id').notNull(),
    id: serial('id').notNull(),
    patientId: integer('patient_id').notNull(),
    dentistId: integer('dentist_id').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    /** 'HH:mm', zero-padded, so text order is time order. */
    time: text('time').notNull(),
    treatment: text('treatment').notNull(),
    status: text('status').notNull().default('pending'),
    notes: text('notes'),
    /** Raised on every change: a calendar feed's SEQUENCE, so subscribed calendars take the new version. */
    sequence: integer('sequence').notNull().default(0),
    createdAt: createdAt(),
    version: version(),
    updatedAt: updatedAt(),
    /**
     * The patient's name and phone as they are now, written by the database's triggers alone
     * (migration 0013: on booking, on a change of patient, on the patient's rename): a month of
     * appointments is read without looking up each one's patient.
     */
    patientName: text('patient_name').notNull().default(''),
    patientPhone: text('patient_phone').notNull().default(''),
    /**
     * Minutes (5 to 480, steps of 5). Left out of an insert, the database's trigger gives the
     * treatment's length from the clinic's settings (migration 0015), so an import or a script
     * cannot store a visit without one.
     */
    duration: integer('duration').notNull().default(sql`null`),
    /**
     * The minutes the visit holds, counted from 2000-01-01 00:00 on the clinic's clock: what the
     * exclusion constraints of migration 0015 keep apart, per dentist and per patient, for every
     * visit that is not cancelled.
     */
    span: int4range('span').generatedAlwaysAs(
      sql`int4range(
        (date - date '2000-01-01') * 1440 + substr(time, 1, 2)::int * 60 + substr(time, 4, 2)::int,
        (date - date '2000-01-01') * 1440 + substr(time, 1, 2)::int * 60 + substr(time, 4, 2)::int + duration)`,
    ),
    /** When the visit ends, 'HH:mm' (past midnight: the next day's clock), kept by the database. */
    endTime: text('end_time').generatedAlwaysAs(
      sql`lpad((((substr(time, 1, 2)::int * 60 + substr(time, 4, 2)::int + duration) / 60) % 24)::text, 2, '0')
        || ':' || lpad(((substr(time, 1, 2)::int * 60 + substr(time, 4, 2)::int + duration) % 60)::text, 2, '0')`,
    ),
    /**
     * Set only on visits that already overlapped when overlaps began to be refused (migration 0015,
     * or clinic:import of an older export): the visits of one group may go on overlapping each
     * other until staff move or cancel one. Any change of a visit's time, length, dentist or
     * patient takes it out of its group (the trigger of migration 0015), so no new overlap is made.
     */
    overlapGroup: integer('overlap_group'),
    /** Booked outside the dentist's open hours by staff who said why (an emergency). */
    outsideHours: boolean('outside_hours').notNull().default(false),
    outsideHoursReason: text('outside_hours_reason'),
    /** The series the visit belongs to, and its place in it (1 = first booked); both or neither. */
    seriesId: integer('series_id'),
    seriesPosition: integer('series_position'),
    /**
     * The chair the visit holds (migration 0034). Left out of a write, the database's trigger gives
     * a free one: the visit's current chair, then the dentist's default chair, then the lowest in
     * the clinic's order (docs/product.md, Chairs).
     */
    chairId: integer('chair_id').notNull().default(sql`null`),
    /** The minutes after the visit its chair is held for cleaning: the clinic's turnover when it was placed. */
    turnover: integer('turnover').notNull().default(0),
    /**
     * When the dentist is needed, in minutes from the visit's start: the treatment's part from
     * Settings when the visit was booked or its length changed; both null for the whole visit.
     */
    dentistFrom: integer('dentist_from'),
    dentistTo: integer('dentist_to'),
    /** The minutes the chair is held: the visit and its turnover (appointments_chair_time_excl). */
    chairSpan: int4range('chair_span').generatedAlwaysAs(
      sql`int4range(
        (date - date '2000-01-01') * 1440 + substr(time, 1, 2)::int * 60 + substr(time, 4, 2)::int,
        (date - date '2000-01-01') * 1440 + substr(time, 1, 2)::int * 60 + substr(time, 4, 2)::int + duration + turnover)`,
    ),
    /** The minutes the dentist is with the patient (appointments_dentist_time_excl). */
    dentistSpan: int4range('dentist_span').generatedAlwaysAs(
      sql`int4range(
        (date - date '2000-01-01') * 1440 + substr(time, 1, 2)::int * 60 + substr(time, 4, 2)::int + coalesce(dentist_from, 0),
        (date - date '2000-01-01') * 1440 + substr(time, 1, 2)::int * 60 + substr(time, 4, 2)::int + coalesce(dentist_to, duration))`,
    ),
    /** Where the visit was booked: at the desk, or by the patient online (migration 0037). */
    source: text('source').notNull().default('desk'),
    /** Who confirmed it: the desk, or the patient online; null while it is not confirmed. */
    confirmedBy: text('confirmed_by'),
    /** SHA-256 of the patient's private manage link, for visits booked online. */
    manageTokenHash: text('manage_token_hash'),
  },
  (table) => [
    primaryKey({ columns: [table.clinicId, table.id] }),
    foreignKey({
      columns: [table.clinicId, table.patientId],
      foreignColumns: [patients.clinicId, patients.id],
      name: 'appointments_patient_fk',
    }),
    foreignKey({
      columns: [table.clinicId, table.seriesId],
      foreignColumns: [appointmentSeries.clinicId, appointmentSeries.id],
      name: 'appointments_series_fk',
    }),
    uniqueIndex('appointments_series_idx')
      .on(table.clinicId, table.seriesId, table.seriesPosition)
      .where(sql`${table.seriesId} is not null`),
    foreignKey({
      columns: [table.clinicId, table.dentistId],
      foreignColumns: [dentists.clinicId, dentists.id],
      name: 'appointments_dentist_fk',
    }),
    foreignKey({
      columns: [table.clinicId, table.chairId],
      foreignColumns: [chairs.clinicId, chairs.id],
      name: 'appointments_chair_fk',
    }),
    check(
      'appointments_dentist_part_check',
      sql`(${table.dentistFrom} is null and ${table.dentistTo} is null) or (0 <= ${table.dentistFrom} and ${table.dentistFrom} < ${table.dentistTo} and ${table.dentistTo} <= ${table.duration})`,
    ),
    check('appointments_turnover_check', sql`${table.turnover} between 0 and 120`),
    // No two live visits of one dentist (in the dentist's minutes), of one patient, or of one chair
    // (with its turnover) overlap: exclusion constraints of migrations 0015 and 0034
    // (appointments_dentist_time_excl, appointments_patient_time_excl, appointments_chair_time_excl),
    // which drizzle-kit cannot describe; the database itself decides which of two racing bookings wins.
    check(
      'appointments_duration_check',
      sql`${table.duration} between 5 and 480 and ${table.duration} % 5 = 0`,
    ),
    // The list orders, each ending in id, and then every column a list filters or searches by
    // (status, dentist, patient, treatment): a page is cut and counted from the index alone, and
    // only its own rows are read from the table.
    index('appointments_date_idx').on(table.clinicId, table.date, table.time, table.id, ...filteredBy(table)),
    index('appointments_dentist_date_idx').on(
      table.clinicId,
      table.dentistId,
      table.date,
      table.time,
      table.id,
      table.status,
      table.patientId,
      table.treatment,
    ),
    index('appointments_status_date_idx').on(
      table.clinicId,
      table.status,
      table.date,
      table.time,
      table.id,
      table.dentistId,
      table.patientId,
      table.treatment,
    ),
    // The list sorted by patient (the appointment's copy of the name; `-patient` walks it backwards
    // and sorts each name's few visits by date) and by when it was booked.
    index('appointments_patient_name_idx').on(
      table.clinicId,
      table.patientName,
      table.date,
      table.time,
      table.id,
      ...filteredBy(table),
    ),
    index('appointments_created_idx').on(table.clinicId, table.createdAt, table.id, ...filteredBy(table)),
    // The appointments screen filters by dentist and status together, in date order.
    index('appointments_dentist_status_date_idx').on(
      table.clinicId,
      table.dentistId,
      table.status,
      table.date,
      table.time,
    ),
    index('appointments_patient_date_idx').on(
      table.clinicId,
      table.patientId,
      table.date,
      table.time,
      table.id,
    ),
    check(
      'appointments_status_check',
      sql`${table.status} in ('pending', 'confirmed', 'cancelled', 'completed')`,
    ),
    check('appointments_time_check', sql`${table.time} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`),
  ],
);

export interface TimeSlot {
  start: string;
  end: string;
  /** Open for booking: not closed by staff and no live appointment starts in it. */
  available: boolean;
  /** Closed by staff; kept so that freeing a slot does not reopen it. Not on the wire. */
  closed?: boolean;
}

/**
 * The appointments by their patient's words, in date order: a row for each start (first two
 * characters) of the patient's words of two characters or more that do not start with a digit,
 * with those words (` martin martinez `) and what the list filters by. An appointments list searched
 * by two or three letters reads its page and its count from one range of an index, however many
 * patients the letters match. Kept by triggers on appointments and patients (migration 0011).
 */
export const appointmentSearchTerms = pgTable(
  'appointment_search_terms',
  {
    clinicId: integer('clinic_id').notNull(),
    appointmentId: integer('appointment_id').notNull(),
    prefix: byteText('prefix').notNull(),
    /** The patient's words starting with prefix, each with a space before and after. */
    terms: byteText('terms').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    time: text('time').notNull(),
    status: text('status').notNull(),
    dentistId: integer('dentist_id').notNull(),
    patientId: integer('patient_id').notNull(),
    treatment: text('treatment').notNull(),
  },
  (table) => [
    // Rewritten by appointment (the triggers of migration 0011): a new date, status or patient.
    index('appointment_search_terms_appointment_idx').on(table.clinicId, table.appointmentId),
    // The list's date order, then what a page tests, so it reads the index alone.
    index('appointment_search_terms_date_idx').on(
      table.clinicId,
      table.prefix,
      table.date,
      table.time,
      table.appointmentId,
      table.status,
      table.dentistId,
      table.treatment,
      table.terms,
    ),
    index('appointment_search_terms_dentist_idx').on(
      table.clinicId,
      table.prefix,
      table.dentistId,
      table.date,
      table.time,
      table.appointmentId,
      table.status,
      table.treatment,
      table.terms,
    ),
    // A search with a status: the matches of a status that is rare in the past (pending,
    // confirmed) were found by walking the letters' whole history in date order (7-40 ms).
    index('appointment_search_terms_status_idx').on(
      table.clinicId,
      table.prefix,
      table.status,
      table.date,
      table.time,
      table.appointmentId,
      table.dentistId,
      table.treatment,
      table.terms,
    ),
  ],
);

export const availability = pgTable(
  'availability',
  {
    clinicId: integer('clinic_id').notNull(),
    id: serial('id').notNull(),
    dentistId: integer('dentist_id').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    timeSlots: jsonb('time_slots').$type<TimeSlot[]>().notNull(),
    /** An inactive day offers no slot: nothing can be booked with the dentist on it. */
    status: text('status').notNull().default('active'),
    createdAt: createdAt(),
    version: version(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.clinicId, table.id] }),
    foreignKey({
      columns: [table.clinicId, table.dentistId],
      foreignColumns: [dentists.clinicId, dentists.id],
      name: 'availability_dentist_fk',
    }).onDelete('cascade'),
    uniqueIndex('availability_dentist_date_unique').on(table.clinicId, table.dentistId, table.date),
    index('availability_date_idx').on(table.clinicId, table.date),
    check('availability_status_check', sql`${table.status} in ('active', 'inactive')`),
  ],
);

/**
 * A dentist's private calendar feed: one live URL each, its token kept only as a hash. Rotating
 * replaces the row, so the old URL stops working.
 */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    clinicId: integer('clinic_id').notNull(),
    dentistId: integer('dentist_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdBy: integer('created_by'),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.clinicId, table.dentistId] }),
    uniqueIndex('calendar_feeds_token_unique').on(table.tokenHash),
    foreignKey({
      columns: [table.clinicId, table.dentistId],
      foreignColumns: [dentists.clinicId, dentists.id],
      name: 'calendar_feeds_dentist_fk',
    }).onDelete('cascade'),
  ],
);

/**
 * Every reminder and alert, created in the transaction of the change that causes it, and what became
 * of it. Senders claim due rows (claimed_until) so that several API processes send each once.
 */
export const outbox = pgTable(
  'outbox',
  {
    clinicId: integer('clinic_id').notNull(),
    id: serial('id').notNull(),
    kind: text('kind').notNull(),
    channel: text('channel').notNull(),
    appointmentId: integer('appointment_id'),
    patientId: integer('patient_id'),
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    body: text('body').notNull(),
    /** The visit's start, for a reminder: a moved visit's reminder follows it. */
    visitAt: timestamp('visit_at', { withTimezone: true }),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    state: text('state').notNull().default('pending'),
    reason: text('reason'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.clinicId, table.id] }),
    index('outbox_due_idx').on(table.nextAttemptAt).where(sql`${table.state} = 'pending'`),
    index('outbox_appointment_idx').on(table.clinicId, table.appointmentId),
    index('outbox_recent_idx').on(table.clinicId, table.createdAt),
    check('outbox_state_check', sql`${table.state} in ('pending', 'sent', 'failed', 'skipped')`),
  ],
);

/** Practice settings (docs/product.md, Records and their fields), one row a clinic; a clinic without a row has the defaults. */
export const clinicSettings = pgTable('clinic_settings', {
  /** Online booking's rules (migration 0035); null: the defaults, off. */
  onlineBooking: jsonb('online_booking'),
  clinicId: integer('clinic_id')
    .primaryKey()
    .references(() => clinics.id),
  practiceName: text('practice_name').notNull(),
  address: text('address').notNull().default(''),
  phone: text('phone').notNull().default(''),
  email: text('email').notNull().default(''),
  workingHours: jsonb('working_hours').notNull(),
  notifications: jsonb('notifications').notNull(),
  /** A session left this long without activity is signed out. */
  idleTimeoutMinutes: integer('idle_timeout_minutes').notNull().default(30),
  /** How many hours before a visit its reminders go out. */
  reminderLeadHours: integer('reminder_lead_hours').notNull().default(24),
  /** Automatic recall reminders (migration 0023): off unless a clinic turns them on. */
  recallRemindersEnabled: boolean('recall_reminders_enabled').notNull().default(false),
  /** How many days before a recall's due date its automatic reminder goes (1-90). */
  recallReminderDaysBefore: integer('recall_reminder_days_before').notNull().default(14),
  /** Each treatment's visit length in minutes; a treatment left out has its default length. */
  treatmentMinutes: jsonb('treatment_minutes'),
  /** The booking grid: the starts a day offers are this many minutes apart. */
  bookingGridMinutes: integer('booking_grid_minutes').notNull().default(15),
  /** Who signs in with a second factor: 'none', 'admins' or 'all' (MFA_POLICIES). */
  mfaRequired: text('mfa_required').notNull().default('none'),
  /** Minutes a chair is held after each visit for cleaning (0-60, steps of 5); null: none. */
  turnoverMinutes: integer('turnover_minutes'),
  /** Per treatment, when the dentist is needed: `{ "Cavity Filling": { "from": 10, "to": 50 } }`; a treatment left out needs them throughout. */
  dentistParts: jsonb('dentist_parts'),
  version: version(),
  updatedAt: updatedAt(),
});

/** A signed-in session (migration 0018): a sign-in and the refresh tokens its rotations issue (its family). */
export const userSessions = pgTable('user_sessions', {
  id: text('id').primaryKey(),
  clinicId: integer('clinic_id').notNull(),
  userId: integer('user_id').notNull(),
  userAgent: text('user_agent').notNull().default(''),
  ip: text('ip').notNull().default(''),
  remember: boolean('remember').notNull(),
  factor: text('factor').notNull().default('password'),
  createdAt: createdAt(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  endedAt: timestamp('ended_at', { withTimezone: true }),
  endedReason: text('ended_reason'),
});

/** A user's authenticator app (TOTP): the key being set up, the key in use, the last step accepted. */
export const userFactors = pgTable(
  'user_factors',
  {
    clinicId: integer('clinic_id').notNull(),
    userId: integer('user_id').notNull(),
    totpPendingSecret: text('totp_pending_secret'),
    totpSecret: text('totp_secret'),
    totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true }),
    totpLastStep: bigint('totp_last_step', { mode: 'number' }).notNull().default(0),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.clinicId, table.userId] })],
);

/** Single-use recovery codes, as salted hashes. */
export const recoveryCodes = pgTable('recovery_codes', {
  id: serial('id').primaryKey(),
  clinicId: integer('clinic_id').notNull(),
  userId: integer('user_id').notNull(),
  salt: text('salt').notNull(),
  codeHash: text('code_hash').notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/** A clinic's recall types (migration 0019): a name, the treatment it books, an interval in months. */
export const recallTypes = pgTable(
  'recall_types',
  {
    clinicId: clinicOwner(),
    id: serial('id').notNull(),
    name: text('name').notNull(),
    treatment: text('treatment').notNull(),
    intervalMonths: integer('interval_months').notNull(),
    active: boolean('active').notNull().default(true),
    version: version(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.clinicId, table.id] })],
);

/**
 * The clinic's chairs (operatories), in the clinic's order; a retired one keeps its row (0033). A
 * clinic starts with one for each active dentist (chairs_for_dentists).
 */
export const chairs = pgTable(
  'chairs',
  {
    clinicId: clinicOwner(),
    id: serial('id').notNull(),
    name: text('name').notNull(),
    position: integer('position').notNull(),
    inService: boolean('in_service').notNull().default(true),
    bookableOnline: boolean('bookable_online').notNull().default(true),
    defaultDentistId: integer('default_dentist_id'),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    version: version(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.clinicId, table.id] }),
    foreignKey({
      columns: [table.clinicId, table.defaultDentistId],
      foreignColumns: [dentists.clinicId, dentists.id],
    }).onDelete('no action'),
  ],
);

/** A patient's recall of one type: kept by the database's triggers as visits are completed. */
export const patientRecalls = pgTable(
  'patient_recalls',
  {
    clinicId: integer('clinic_id').notNull(),
    patientId: integer('patient_id').notNull(),
    recallTypeId: integer('recall_type_id').notNull(),
    lastVisit: date('last_visit', { mode: 'string' }),
    lastDentistId: integer('last_dentist_id'),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    dueSetByHand: boolean('due_set_by_hand').notNull().default(false),
    snoozedUntil: date('snoozed_until', { mode: 'string' }),
    /** Generated: the due date, or the day it was snoozed to. */
    followUpOn: date('follow_up_on', { mode: 'string' }).generatedAlwaysAs(
      sql`greatest(due_date, coalesce(snoozed_until, due_date))`,
    ),
    active: boolean('active').notNull().default(true),
    note: text('note').notNull().default(''),
    lastContactAt: timestamp('last_contact_at', { withTimezone: true }),
    lastContactKind: text('last_contact_kind'),
    lastContactNote: text('last_contact_note'),
    /** The due date whose automatic reminder was queued (migration 0023): one per due date. */
    autoRemindedFor: date('auto_reminded_for', { mode: 'string' }),
    /** The day of the latest booked visit of its treatment, kept by a trigger (migration 0024). */
    bookedUntil: date('booked_until', { mode: 'string' }),
    version: version(),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.clinicId, table.patientId, table.recallTypeId] })],
);

/**
 * A waitlisted patient told of a freed time (migration 0025): one record an entry, dentist, day and
 * start, its key the database's "told once". History, as the outbox is: a clinic's export leaves it out.
 */
export const waitlistOffers = pgTable(
  'waitlist_offers',
  {
    clinicId: clinicOwner(),
    entryId: integer('entry_id').notNull(),
    dentistId: integer('dentist_id').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    /** 'HH:mm', as a visit's start. */
    time: text('time').notNull(),
    /** The channels the messages went by: 'email', 'sms'. */
    channels: text('channels').array().notNull(),
    createdBy: integer('created_by'),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({
      name: 'waitlist_offers_pk',
      columns: [table.clinicId, table.entryId, table.dentistId, table.date, table.time],
    }),
  ],
);

/**
 * A time a patient picked on the booking page, held for a few minutes while they confirm who they are
 * (migration 0036): it holds its chair and its dentist's part like a visit until `expires_at`.
 */
export const bookingHolds = pgTable(
  'booking_holds',
  {
    clinicId: clinicOwner(),
    id: serial('id').notNull(),
    /** SHA-256 of the hold's public id, a random token: the id itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    dentistId: integer('dentist_id').notNull(),
    chairId: integer('chair_id').notNull(),
    treatment: text('treatment').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    time: text('time').notNull(),
    duration: integer('duration').notNull(),
    turnover: integer('turnover').notNull().default(0),
    dentistFrom: integer('dentist_from'),
    dentistTo: integer('dentist_to'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    /** Who asked, given with the code request: name, phone, e-mail, date of birth. */
    contact: jsonb('contact'),
    codeHash: text('code_hash'),
    codeExpiresAt: timestamp('code_expires_at', { withTimezone: true }),
    codeTries: integer('code_tries').notNull().default(0),
    /** How many codes the hold has been sent (migration 0037): a few, then the patient picks again. */
    codeSends: integer('code_sends').notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.clinicId, table.id] }),
    foreignKey({
      columns: [table.clinicId, table.dentistId],
      foreignColumns: [dentists.clinicId, dentists.id],
    }),
    foreignKey({ columns: [table.clinicId, table.chairId], foreignColumns: [chairs.clinicId, chairs.id] }),
  ],
);

/** What reaches the desk from the booking page: a visit whose patient was not matched, a patient asking to be called. */
export const bookingRequests = pgTable(
  'booking_requests',
  {
    clinicId: clinicOwner(),
    id: serial('id').notNull(),
    kind: text('kind').notNull(),
    appointmentId: integer('appointment_id'),
    patientId: integer('patient_id'),
    contact: jsonb('contact').notNull(),
    /** A time a patient freed online (kind freed): dentist_id, date, time, duration (migration 0040). */
    freed: jsonb('freed').$type<{ dentist_id: number; date: string; time: string; duration: number }>(),
    state: text('state').notNull().default('open'),
    closedHow: text('closed_how'),
    closedBy: integer('closed_by'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: createdAt(),
    version: version(),
  },
  (table) => [primaryKey({ columns: [table.clinicId, table.id] })],
);
