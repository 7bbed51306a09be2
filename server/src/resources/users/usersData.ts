import {
  type UserCreate,
  type UserListQuery,
  type UserSort,
  type UserUpdate,
  type WireUser,
  wireUserSchema,
} from '@dental/shared/domain';
import { and, asc, count, eq, ilike, ne, or, type SQL, sql } from 'drizzle-orm';
import { passwordContextOf, requireUnguessablePassword } from '../../auth/commonPasswords';
import { hashPassword } from '../../auth/passwords';
import { revokeUserSessions } from '../../auth/refreshTokens';
import { type Staff, toWireUser, userColumns } from '../../auth/staff';
import type { Database, Transaction } from '../../db/client';
import { UNIQUE_VIOLATION, violated } from '../../db/databaseErrors';
import { liveDentist } from '../../db/liveDentists';
import { clinics, dentists, users } from '../../db/schema';
import { containsPattern } from '../../db/search';
import { HttpError } from '../../plugins/errors';
import { type ExpectedVersion, requireVersion } from '../../plugins/versions';
import { type Actor, recordActorAudit } from '../actorAudit';

export const USER_NOT_FOUND = 'User not found';
export const USERNAME_TAKEN = 'That username is already taken';
export const EMAIL_TAKEN = 'That e-mail address is already in use';
export const CANNOT_DELETE_SELF = 'You cannot delete your own account';
export const CANNOT_DEACTIVATE_SELF = 'You cannot deactivate your own account';
export const CANNOT_CHANGE_OWN_ROLE = 'You cannot change your own role; ask another administrator';
export const LAST_ADMIN_DEMOTE = "The clinic's last active administrator cannot be given another role";
export const LAST_ADMIN_DEACTIVATE = "The clinic's last active administrator cannot be deactivated";
export const LAST_ADMIN_DELETE = "The clinic's last active administrator cannot be deleted";
export const DENTIST_NOT_FOUND = 'No dentist with this id in your clinic';
export const DENTIST_ALREADY_LINKED = 'That dentist already has a user account';

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
async function writtenUser(
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

/**
 * User writes of one clinic take turns: the last-admin rule reads other rows than the one it
 * changes, so two admins demoting each other at once must not both win. NO KEY UPDATE does not
 * block inserts elsewhere that reference the clinic.
 */
async function lockClinicUsers(tx: Transaction, clinicId: number): Promise<void> {
  await tx.execute(
    sql`select ${clinics.id} from ${clinics} where ${clinics.id} = ${clinicId} for no key update`,
  );
}

/**
 * The account a write changes, refused (412) when not at the `expected` version. Locked to the commit
 * (as the write's UPDATE would): writes outside this file (a dentist's delete unlinks its account)
 * do not take the clinic's user lock, and must not slip in between the check and the write.
 */
async function currentUser(tx: Transaction, actor: Actor, userId: number, expected: ExpectedVersion) {
  const [row] = await tx
    .select({
      id: users.id,
      version: users.version,
      role: users.role,
      isActive: users.isActive,
      dentistId: users.dentistId,
      name: users.name,
      username: users.username,
      email: users.email,
    })
    .from(users)
    .where(and(eq(users.clinicId, actor.clinicId), eq(users.id, userId)))
    .for('no key update');
  if (!row) throw new HttpError(404, USER_NOT_FOUND);
  requireVersion(row.version, expected);
  return row;
}

async function otherActiveAdmins(tx: Transaction, clinicId: number, userId: number): Promise<number> {
  const [row] = await tx
    .select({ total: count() })
    .from(users)
    .where(
      and(
        eq(users.clinicId, clinicId),
        eq(users.role, 'admin'),
        eq(users.isActive, true),
        ne(users.id, userId),
      ),
    );
  return row?.total ?? 0;
}

/** The dentist a dentist account links to must be one of the clinic's, and not linked already. */
async function checkDentistLink(
  tx: Transaction,
  clinicId: number,
  dentistId: number,
  userId: number | null,
): Promise<void> {
  const [dentist] = await tx
    .select({ id: dentists.id })
    .from(dentists)
    .where(liveDentist(clinicId, dentistId));
  if (!dentist) {
    throw new HttpError(400, `Invalid dentist_id: ${DENTIST_NOT_FOUND}`, [
      { field: 'dentist_id', message: DENTIST_NOT_FOUND },
    ]);
  }
  if (await isLinkedElsewhere(tx, clinicId, dentistId, userId))
    throw new HttpError(409, DENTIST_ALREADY_LINKED, [
      { field: 'dentist_id', message: DENTIST_ALREADY_LINKED },
    ]);
}

/** Whether an account other than `userId` is linked to this dentist record. */
async function isLinkedElsewhere(
  tx: Transaction,
  clinicId: number,
  dentistId: number,
  userId: number | null,
) {
  const linked = and(eq(users.clinicId, clinicId), eq(users.dentistId, dentistId));
  const [holder] = await tx
    .select({ id: users.id })
    .from(users)
    .where(userId === null ? linked : and(linked, ne(users.id, userId)))
    .limit(1);
  return holder !== undefined;
}

/**
 * A dentist account created or turned dentist without a `dentist_id` is linked to the clinic's
 * dentist record of the same e-mail, if one exists and no other account holds it: the User form of
 * the spec asks no dentist, and the e-mail is how staff tell who is who.
 */
async function dentistOfEmail(tx: Transaction, clinicId: number, email: string, userId: number | null) {
  const [match] = await tx
    .select({ id: dentists.id })
    .from(dentists)
    .where(and(liveDentist(clinicId), sql`lower(${dentists.email}) = ${email.toLowerCase()}`))
    .limit(1);
  if (!match || (await isLinkedElsewhere(tx, clinicId, match.id, userId))) return null;
  return match.id;
}

function conflictOf(error: unknown): HttpError | null {
  if (violated(error, [UNIQUE_VIOLATION], 'users_username_unique'))
    return new HttpError(409, USERNAME_TAKEN, [{ field: 'username', message: USERNAME_TAKEN }]);
  if (violated(error, [UNIQUE_VIOLATION], 'users_email_unique'))
    return new HttpError(409, EMAIL_TAKEN, [{ field: 'email', message: EMAIL_TAKEN }]);
  return null;
}

/**
 * Taken usernames and e-mails are checked first, for a clear answer; the unique indexes still decide
 * between two requests racing for one name.
 */
async function checkUnique(tx: Transaction, username: string, email: string, userId: number | null) {
  const others = (condition: SQL) => (userId === null ? condition : and(condition, ne(users.id, userId)));
  const [nameHolder] = await tx
    .select({ id: users.id })
    .from(users)
    .where(others(sql`lower(${users.username}) = ${username.toLowerCase()}`))
    .limit(1);
  if (nameHolder) throw new HttpError(409, USERNAME_TAKEN, [{ field: 'username', message: USERNAME_TAKEN }]);
  const [emailHolder] = await tx
    .select({ id: users.id })
    .from(users)
    .where(others(sql`lower(${users.email}) = ${email.toLowerCase()}`))
    .limit(1);
  if (emailHolder) throw new HttpError(409, EMAIL_TAKEN, [{ field: 'email', message: EMAIL_TAKEN }]);
}

async function inTransaction<T>(db: Database, work: (tx: Transaction) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(work);
  } catch (error) {
    throw conflictOf(error) ?? error;
  }
}

/** The password context (passwordContextOf) of an account as given, or as stored where left out. */
async function storedPasswordContext(
  db: Database,
  clinicId: number,
  account: { name?: string; username?: string; email?: string | null },
  userId: number | null,
): Promise<string[]> {
  const [clinic] = await db.select({ name: clinics.name }).from(clinics).where(eq(clinics.id, clinicId));
  const [stored] = userId
    ? await db
        .select({ name: users.name, username: users.username, email: users.email })
        .from(users)
        .where(and(eq(users.clinicId, clinicId), eq(users.id, userId)))
    : [];
  return passwordContextOf(
    {
      name: account.name ?? stored?.name,
      username: account.username ?? stored?.username,
      email: account.email ?? stored?.email,
    },
    clinic?.name,
  );
}

export async function createUser(db: Database, actor: Actor, input: UserCreate): Promise<WireUser> {
  requireUnguessablePassword(input.password, await storedPasswordContext(db, actor.clinicId, input, null));
  // Hashing is slow on purpose: do it before taking any lock.
  const passwordHash = await hashPassword(input.password);
  return inTransaction(db, async (tx) => {
    await lockClinicUsers(tx, actor.clinicId);
    await checkUnique(tx, input.username, input.email, null);
    let dentistId: number | null = null;
    if (input.role === 'dentist' && input.dentistId) {
      dentistId = input.dentistId;
      await checkDentistLink(tx, actor.clinicId, dentistId, null);
    } else if (input.role === 'dentist' && input.dentistId === undefined) {
      dentistId = await dentistOfEmail(tx, actor.clinicId, input.email, null);
    }
    const [created] = await tx
      .insert(users)
      .values({
        clinicId: actor.clinicId,
        username: input.username,
        email: input.email,
        name: input.name,
        role: input.role,
        passwordHash,
        isActive: input.isActive ?? true,
        dentistId,
      })
      .returning({ id: users.id });
    if (!created) throw new Error('User was not created');
    await recordActorAudit(tx, actor, {
      action: 'create',
      entity: 'user',
      entityId: created.id,
      details: { name: input.name, username: input.username, role: input.role },
    });
    return writtenUser(tx, actor.clinicId, created.id, 'Created user vanished');
  });
}

/** The rules a change of role or of active state must keep, checked under the clinic's user lock. */
async function checkAdminRules(
  tx: Transaction,
  actor: Actor,
  current: { id: number; role: string; isActive: boolean },
  next: { role: string; isActive: boolean },
): Promise<void> {
  const losesAdmin =
    current.role === 'admin' && current.isActive && (next.role !== 'admin' || !next.isActive);
  // The actor is an active admin, so this holds only when they act on themself; it is checked first
  // for the more telling message.
  if (losesAdmin && (await otherActiveAdmins(tx, actor.clinicId, current.id)) === 0) {
    throw new HttpError(409, next.role !== 'admin' ? LAST_ADMIN_DEMOTE : LAST_ADMIN_DEACTIVATE);
  }
  const self = current.id === actor.userId;
  if (self && !next.isActive) throw new HttpError(409, CANNOT_DEACTIVATE_SELF);
  if (self && next.role !== current.role) throw new HttpError(409, CANNOT_CHANGE_OWN_ROLE);
}

export async function updateUser(
  db: Database,
  actor: Actor,
  userId: number,
  input: UserUpdate,
  expected: ExpectedVersion = null,
): Promise<WireUser> {
  if (input.password) {
    requireUnguessablePassword(
      input.password,
      await storedPasswordContext(db, actor.clinicId, input, userId),
    );
  }
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  return inTransaction(db, async (tx) => {
    await lockClinicUsers(tx, actor.clinicId);
    const current = await currentUser(tx, actor, userId, expected);
    const isActive = input.isActive ?? current.isActive;
    await checkAdminRules(tx, actor, current, { role: input.role, isActive });
    await checkUnique(tx, input.username, input.email, userId);

    // A dentist account keeps its link when the form leaves it out; other roles have none.
    let dentistId: number | null = null;
    if (input.role === 'dentist') {
      dentistId = input.dentistId === undefined ? current.dentistId : input.dentistId;
      if (dentistId === null && input.dentistId === undefined) {
        dentistId = await dentistOfEmail(tx, actor.clinicId, input.email, userId);
      } else if (dentistId !== null && dentistId !== current.dentistId) {
        await checkDentistLink(tx, actor.clinicId, dentistId, userId);
      }
    }

    const changed = (
      [
        ['name', current.name !== input.name],
        ['username', current.username !== input.username],
        ['email', current.email !== input.email],
        ['role', current.role !== input.role],
        ['is_active', current.isActive !== isActive],
        ['dentist_id', current.dentistId !== dentistId],
        ['password', passwordHash !== null],
      ] as const
    )
      .filter(([, differs]) => differs)
      .map(([field]) => field);

    await tx
      .update(users)
      .set({
        name: input.name,
        username: input.username,
        email: input.email,
        role: input.role,
        isActive,
        dentistId,
        ...(passwordHash ? { passwordHash, failedLoginCount: 0, lockedUntil: null } : {}),
        updatedAt: new Date(),
      })
      .where(and(eq(users.clinicId, actor.clinicId), eq(users.id, userId)));
    // A new password or a deactivation signs the user out everywhere.
    if (passwordHash || (current.isActive && !isActive)) {
      await revokeUserSessions(tx, actor.clinicId, userId);
    }
    await recordActorAudit(tx, actor, {
      action: 'update',
      entity: 'user',
      entityId: userId,
      details: { name: input.name, changed },
    });
    return writtenUser(tx, actor.clinicId, userId, 'Updated user vanished');
  });
}

export async function setUserStatus(
  db: Database,
  actor: Actor,
  userId: number,
  isActive: boolean,
  expected: ExpectedVersion = null,
): Promise<WireUser> {
  return inTransaction(db, async (tx) => {
    await lockClinicUsers(tx, actor.clinicId);
    const current = await currentUser(tx, actor, userId, expected);
    await checkAdminRules(tx, actor, current, { role: current.role, isActive });
    if (current.isActive !== isActive) {
      await tx
        .update(users)
        .set({ isActive, updatedAt: new Date() })
        .where(and(eq(users.clinicId, actor.clinicId), eq(users.id, userId)));
      if (!isActive) await revokeUserSessions(tx, actor.clinicId, userId);
      await recordActorAudit(tx, actor, {
        action: isActive ? 'activate' : 'deactivate',
        entity: 'user',
        entityId: userId,
        details: { name: current.name, is_active: isActive },
      });
    }
    return writtenUser(tx, actor.clinicId, userId, 'User vanished');
  });
}

export async function deleteUser(
  db: Database,
  actor: Actor,
  userId: number,
  expected: ExpectedVersion = null,
): Promise<void> {
  await inTransaction(db, async (tx) => {
    await lockClinicUsers(tx, actor.clinicId);
    const current = await currentUser(tx, actor, userId, expected);
    if (
      current.role === 'admin' &&
      current.isActive &&
      (await otherActiveAdmins(tx, actor.clinicId, current.id)) === 0
    ) {
      throw new HttpError(409, LAST_ADMIN_DELETE);
    }
    if (current.id === actor.userId) throw new HttpError(409, CANNOT_DELETE_SELF);
    await revokeUserSessions(tx, actor.clinicId, userId);
    await tx.delete(users).where(and(eq(users.clinicId, actor.clinicId), eq(users.id, userId)));
    await recordActorAudit(tx, actor, {
      action: 'delete',
      entity: 'user',
      entityId: userId,
      details: { name: current.name, username: current.username, role: current.role },
    });
  });
}
