import {
  userCreateSchema,
  userListQuerySchema,
  userPageSchema,
  userStatusSchema,
  userUpdateSchema,
} from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import type { Guard } from '../../auth/guard';
import type { Database } from '../../db/client';
import { rowRoutes } from '../rowRoutes';
import { listUsers, userLookup } from './userReads';
import { createUser, deleteUser, setUserStatus, updateUser } from './userWrites';

/** User management (docs/product.md, API calls: Users): admin only, for reads as for writes; passwords never leave. */
export function registerUsersRoutes(app: FastifyInstance, db: Database, guard: Guard): void {
  const adminOnly = guard.permitted('all', 'manage users');
  const users = rowRoutes(app, guard, db, { path: '/api/users', ...userLookup });

  users.getList({
    onRequest: adminOnly,
    summary:
      "The clinic's users (admin): `search` matches name, username or e-mail; filters `role` and `status` (active|inactive); `sort` name (default), username, role, created_at, last_login, '-' for descending",
    query: userListQuerySchema,
    page: userPageSchema,
    codes: [400, 401, 403],
    read: listUsers,
  });

  users.getOne({ onRequest: adminOnly, summary: 'One user of the clinic (admin)', codes: [401, 403, 404] });

  users.createOne({
    onRequest: adminOnly,
    summary:
      "Add a user (admin). Username (3-50: letters, digits, . _ -) and e-mail are unique across all clinics (409); password 8-128 characters; `dentist_id` links a dentist account to one of the clinic's dentists",
    body: userCreateSchema,
    codes: [400, 401, 403, 409],
    create: createUser,
  });

  users.writeOne({
    method: 'PUT',
    onRequest: adminOnly,
    summary:
      "Update a user (admin). A blank or absent password keeps the current one; a new one ends the user's sessions. An admin cannot change their own role or deactivate themself; the clinic's last active admin cannot be demoted or deactivated (409)",
    body: userUpdateSchema,
    codes: [400, 401, 403, 404, 409],
    write: updateUser,
  });

  users.writeOne({
    method: 'PATCH',
    suffix: 'status',
    onRequest: adminOnly,
    summary:
      "Activate or deactivate a user with `{ isActive }` (admin). Deactivating ends the user's sessions; not oneself, nor the clinic's last active admin (409)",
    body: userStatusSchema,
    codes: [400, 401, 403, 404, 409],
    write: (db, actor, id, body, expected) => setUserStatus(db, actor, id, body.isActive, expected),
  });

  users.deleteOne({
    onRequest: adminOnly,
    summary:
      "Delete a user and end their sessions (admin). Not oneself, nor the clinic's last active admin (409)",
    codes: [401, 403, 404, 409],
    remove: deleteUser,
    message: 'User deleted',
  });
}
