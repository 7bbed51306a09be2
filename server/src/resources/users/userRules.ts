import { and, count, eq, ne, type SQL, sql } from 'drizzle-orm';
import { passwordContextOf } from '../../auth/commonPasswords';
import type { Database, Transaction } from '../../db/client';
import { UNIQUE_VIOLATION, violated } from '../../db/databaseErrors';
import { liveDentist } from '../../db/liveDentists';
import { clinics, dentists, users } from '../../db/schema';
import { Conflict, InvalidValue, NotFound } from '../../domain/errors';
import { type ExpectedVersion, requireVersion } from '../../plugins/versions';
import type { Actor } from '../actorAudit';
import { USER_NOT_FOUND } from './userReads';

/**
 * The rules every write of a staff account keeps (docs/product.md, Roles and permissions): unique
 * usernames and e-mails, a dentist account's link, the clinic's last administrator and one's own
 * account, checked under the clinic's user lock.
 */

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

/**
 * User writes of one clinic take turns: the last-admin rule reads other rows than the one it
 * changes, so two admins demoting each other at once must not both win. NO KEY UPDATE does not
 * block inserts elsewhere that reference the clinic.
 */
export async function lockClinicUsers(tx: Transaction, clinicId: number): Promise<void> {
  await tx.execute(
    sql`select ${clinics.id} from ${clinics} where ${clinics.id} = ${clinicId} for no key update`,
  );
}

/**
 * The account a write changes, refused (412) when not at the `expected` version. Locked to the commit
 * (as the write's UPDATE would): writes of other records (a dentist's delete unlinks its account)
 * do not take the clinic's user lock, and must not slip in between the check and the write.
 */
export async function currentUser(tx: Transaction, actor: Actor, userId: number, expected: ExpectedVersion) {
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
  if (!row) throw new NotFound(USER_NOT_FOUND);
  requireVersion(row.version, expected);
  return row;
}

export async function otherActiveAdmins(tx: Transaction, clinicId: number, userId: number): Promise<number> {
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
export async function checkDentistLink(
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
    throw InvalidValue.of('dentist_id', DENTIST_NOT_FOUND);
  }
  if (await isLinkedElsewhere(tx, clinicId, dentistId, userId))
    throw new Conflict(DENTIST_ALREADY_LINKED, [{ field: 'dentist_id', message: DENTIST_ALREADY_LINKED }]);
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
export async function dentistOfEmail(
  tx: Transaction,
  clinicId: number,
  email: string,
  userId: number | null,
) {
  const [match] = await tx
    .select({ id: dentists.id })
    .from(dentists)
    .where(and(liveDentist(clinicId), sql`lower(${dentists.email}) = ${email.toLowerCase()}`))
    .limit(1);
  if (!match || (await isLinkedElsewhere(tx, clinicId, match.id, userId))) return null;
  return match.id;
}

function conflictOf(error: unknown): Conflict | null {
  if (violated(error, [UNIQUE_VIOLATION], 'users_username_unique'))
    return new Conflict(USERNAME_TAKEN, [{ field: 'username', message: USERNAME_TAKEN }]);
  if (violated(error, [UNIQUE_VIOLATION], 'users_email_unique'))
    return new Conflict(EMAIL_TAKEN, [{ field: 'email', message: EMAIL_TAKEN }]);
  return null;
}

/**
 * Taken usernames and e-mails are checked first, for a clear answer; the unique indexes still decide
 * between two requests racing for one name.
 */
export async function checkUnique(tx: Transaction, username: string, email: string, userId: number | null) {
  const others = (condition: SQL) => (userId === null ? condition : and(condition, ne(users.id, userId)));
  const [nameHolder] = await tx
    .select({ id: users.id })
    .from(users)
    .where(others(sql`lower(${users.username}) = ${username.toLowerCase()}`))
    .limit(1);
  if (nameHolder) throw new Conflict(USERNAME_TAKEN, [{ field: 'username', message: USERNAME_TAKEN }]);
  const [emailHolder] = await tx
    .select({ id: users.id })
    .from(users)
    .where(others(sql`lower(${users.email}) = ${email.toLowerCase()}`))
    .limit(1);
  if (emailHolder) throw new Conflict(EMAIL_TAKEN, [{ field: 'email', message: EMAIL_TAKEN }]);
}

export async function inTransaction<T>(db: Database, work: (tx: Transaction) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(work);
  } catch (error) {
    throw conflictOf(error) ?? error;
  }
}

/** The password context (passwordContextOf) of an account as given, or as stored where left out. */
export async function storedPasswordContext(
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

/** The rules a change of role or of active state must keep, checked under the clinic's user lock. */
export async function checkAdminRules(
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
    throw new Conflict(next.role !== 'admin' ? LAST_ADMIN_DEMOTE : LAST_ADMIN_DEACTIVATE);
  }
  const self = current.id === actor.userId;
  if (self && !next.isActive) throw new Conflict(CANNOT_DEACTIVATE_SELF);
  if (self && next.role !== current.role) throw new Conflict(CANNOT_CHANGE_OWN_ROLE);
}
