import type { Role, WireUser } from '@dental/shared/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { clinics, users } from '../db/schema';

/** The signed-in staff member a request acts for. */
export interface Staff {
  id: number;
  clinicId: number;
  clinicName: string;
  role: Role;
  name: string;
  username: string;
  email: string;
  isActive: boolean;
  lastLogin: Date | null;
  dentistId: number | null;
  createdAt: Date;
  updatedAt: Date;
  /** The row's version (migration 0016): answered with the user. */
  version: number;
  /** Access tokens issued before this are refused (the user changed their password). */
  sessionsSince: Date | null;
}

/** A user's columns with their clinic's name: what a user is answered as (toWireUser), Users screen included. */
export const userColumns = {
  id: users.id,
  clinicId: users.clinicId,
  clinicName: clinics.name,
  role: users.role,
  name: users.name,
  username: users.username,
  email: users.email,
  isActive: users.isActive,
  lastLogin: users.lastLogin,
  dentistId: users.dentistId,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
  version: users.version,
};

// The guard also needs when the user's sessions were last ended, which no answer shows.
const staffColumns = { ...userColumns, sessionsSince: users.sessionsSince };

/** One primary-key lookup: every authenticated request pays it, so role and status changes apply at once. */
export async function findStaff(db: Database, clinicId: number, userId: number): Promise<Staff | null> {
  const [row] = await db
    .select(staffColumns)
    .from(users)
    .innerJoin(clinics, eq(clinics.id, users.clinicId))
    .where(and(eq(users.clinicId, clinicId), eq(users.id, userId)))
    .limit(1);
  return row ? { ...row, role: row.role as Role } : null;
}

export function toWireUser(staff: Omit<Staff, 'sessionsSince'>): WireUser {
  return {
    id: staff.id,
    username: staff.username,
    email: staff.email,
    name: staff.name,
    role: staff.role,
    is_active: staff.isActive,
    last_login: staff.lastLogin ? staff.lastLogin.toISOString() : null,
    created_at: staff.createdAt.toISOString(),
    updated_at: staff.updatedAt.toISOString(),
    dentist_id: staff.dentistId,
    clinic_id: staff.clinicId,
    clinic_name: staff.clinicName,
    version: staff.version,
  };
}

/**
 * The staff member a request acts for, and whether the session its token names is still signed in
 * (neither ended nor past its lifetime), in one lookup: the guard asks both of every request whose
 * clinic changed since it last asked. A token from before sessions were named names none.
 */
export async function findSignedInStaff(
  db: Database,
  clinicId: number,
  userId: number,
  session: string | null,
): Promise<{ staff: Staff | null; sessionLive: boolean }> {
  const sessionLive = session
    ? sql<boolean>`exists (select 1 from user_sessions s where s.clinic_id = ${clinicId} and s.id = ${session}
        and s.ended_at is null and s.expires_at > now())`
    : sql<boolean>`true`;
  const [row] = await db
    .select({ ...staffColumns, sessionLive })
    .from(users)
    .innerJoin(clinics, eq(clinics.id, users.clinicId))
    .where(and(eq(users.clinicId, clinicId), eq(users.id, userId)))
    .limit(1);
  if (!row) return { staff: null, sessionLive: false };
  const { sessionLive: live, ...staff } = row;
  return { staff: { ...staff, role: staff.role as Role }, sessionLive: live };
}
