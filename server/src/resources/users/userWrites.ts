import type { UserCreate, UserUpdate, WireUser } from '@dental/shared/domain';
import { and, eq } from 'drizzle-orm';
import { requireUnguessablePassword } from '../../auth/commonPasswords';
import { hashPassword } from '../../auth/passwords';
import { revokeUserSessions } from '../../auth/refreshTokens';
import type { Database } from '../../db/client';
import { users } from '../../db/schema';
import { Conflict } from '../../domain/errors';
import type { ExpectedVersion } from '../../plugins/versions';
import { type Actor, recordActorAudit } from '../actorAudit';
import { writtenUser } from './userReads';
import {
  CANNOT_DELETE_SELF,
  checkAdminRules,
  checkDentistLink,
  checkUnique,
  currentUser,
  dentistOfEmail,
  inTransaction,
  LAST_ADMIN_DELETE,
  lockClinicUsers,
  otherActiveAdmins,
  storedPasswordContext,
} from './userRules';

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
      throw new Conflict(LAST_ADMIN_DELETE);
    }
    if (current.id === actor.userId) throw new Conflict(CANNOT_DELETE_SELF);
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
