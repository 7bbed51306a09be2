import { type UserListQuery, type UserSort, type WireUser, wireUserSchema } from '@dental/shared/domain';
import { and, asc, count, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import { type Staff, toWireUser, userColumns } from '../../auth/staff';
import type { Database, Transaction } from '../../db/client';
import { clinics, users } from '../../db/schema';
import { containsPattern } from '../../db/search';

export const USER_NOT_FOUND = 'User not found';

function wire(row: Omit<Staff, 'role' | 'sessionsSince'> & { role: string }): WireUser {
  return toWireUser({ ...row, role: row.role as Staff['role'] });
}

const SORT_COLUMNS: Record<string, SQL> = {
  name: sql`${users.name}`,
  username: sql`${users.username}`,
  role: sql`${users.role}`,
  created_at: sql`${users.createdAt}`,
  // Never-signed-in users sort last either way.
  last_login: sql`${users.lastLogin}`,
};

function orderOf(sort: UserSort | undefined): SQL[] {
  const key = sort ?? 'name';
  const descending = key.startsWith('-');
  const column = SORT_COLUMNS[descending ? key.slice(1) : key] ?? sql`${users.name}`;
  const primary = descending ? sql`${column} desc nulls last` : sql`${column} asc nulls last`;
  return [primary, asc(users.id)];
}

/**
 * A clinic has tens of staff, not thousands: the (clinic_id, role) index narrows to the clinic and
 * the page is sorted from there.
 */
export async function listUsers(
  db: Database,
  clinicId: number,
  query: UserListQuery,
): Promise<{ data: WireUser[]; total: number }> {
  const conditions: SQL[] = [eq(users.clinicId, clinicId)];
  if (query.search) {
    const pattern = containsPattern(query.search);
    const matches = or(
      ilike(users.name, pattern),
      ilike(users.username, pattern),
      ilike(users.email, pattern),
    );
    if (matches) conditions.push(matches);
  }
  if (query.role) conditions.push(eq(users.role, query.role));
  if (query.status) conditions.push(eq(users.isActive, query.status === 'active'));
  const where = and(...conditions);

  const [totalRow] = await db.select({ total: count() }).from(users).where(where);
  const rows = await db
    .select(userColumns)
    .from(users)
    .innerJoin(clinics, eq(clinics.id, users.clinicId))
    .where(where)
    .orderBy(...orderOf(query.sort))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  return { data: rows.map(wire), total: totalRow?.total ?? 0 };
}

export async function findUser(
  db: Database | Transaction,
  clinicId: number,
  userId: number,
): Promise<WireUser | null> {
  const [row] = await db
    .select(userColumns)
    .from(users)
    .innerJoin(clinics, eq(clinics.id, users.clinicId))
    .where(and(eq(users.clinicId, clinicId), eq(users.id, userId)))
    .limit(1);
  return row ? wire(row) : null;
}

/** The user a write just made or changed, as the API answers them; `vanished` names a write that lost them. */
export async function writtenUser(
  tx: Transaction,
  clinicId: number,
  userId: number,
  vanished: string,
): Promise<WireUser> {
  const user = await findUser(tx, clinicId, userId);
  if (!user) throw new Error(vanished);
  return user;
}

/** One user as its routes read it (rowRoutes): its wire schema, its read and its 404. */
export const userLookup = { schema: wireUserSchema, find: findUser, notFound: USER_NOT_FOUND };
