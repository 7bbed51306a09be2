import { sql } from 'drizzle-orm';
import {
  boolean,
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

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const clinics = pgTable('clinics', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  timeZone: text('time_zone').notNull().default('UTC'),
  createdAt: createdAt(),
});

/**
 * Clinic-owned tables lead their keys with `clinic_id`, so every query is scoped by the clinic and the
 * schema can later be distributed by clinic without change.
 */
export const users = pgTable(
  'users',
  {
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id),
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
    createdAt: createdAt(),
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
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => clinics.id),
    moduleId: text('module_id').notNull(),
    enabled: boolean('enabled').notNull(),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.clinicId, table.moduleId] })],
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
  },
  (table) => [
    primaryKey({ columns: [table.clinicId, table.id] }),
    index('audit_log_recent_idx').on(table.clinicId, table.createdAt.desc()),
  ],
);

/** Server-wide secrets shared by every API process on one database. */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});
