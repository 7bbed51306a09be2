import {
  idParamsSchema,
  userCreateSchema,
  userListQuerySchema,
  userPageSchema,
  userStatusSchema,
  userUpdateSchema,
  wireUserSchema,
} from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Guard } from '../../auth/guard';
import type { Database } from '../../db/client';
import { errorResponses } from '../../plugins/errors';
import { listPage, rowRoutes, versionedDeleteResponses, versionedWriteResponses } from '../rowRoutes';
import {
  createUser,
  deleteUser,
  findUser,
  listUsers,
  setUserStatus,
  USER_NOT_FOUND,
  updateUser,
} from './usersData';

const TAGS = ['users'];
const SECURITY = [{ bearerAuth: [] }];

/** User management (spec §7 Users): admin only, for reads as for writes; passwords never leave. */
export function registerUsersRoutes(app: FastifyInstance, db: Database, guard: Guard): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const adminOnly = guard.permitted('all', 'manage users');
  const users = rowRoutes(guard, (clinicId, id) => findUser(db, clinicId, id), USER_NOT_FOUND);
  const { actorOf } = users;

  routes.get(
    '/api/users',
    {
      onRequest: adminOnly,
      schema: {
        tags: TAGS,
        summary:
          "The clinic's users (admin): `search` matches name, username or e-mail; filters `role` and `status` (active|inactive); `sort` name (default), username, role, created_at, last_login, '-' for descending",
        security: SECURITY,
        querystring: userListQuerySchema,
        response: { 200: userPageSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => listPage(request.query, await listUsers(db, actorOf(request).clinicId, request.query)),
  );

  routes.get(
    '/api/users/:id',
    {
      onRequest: adminOnly,
      schema: {
        tags: TAGS,
        summary: 'One user of the clinic (admin)',
        security: SECURITY,
        params: idParamsSchema,
        response: { 200: wireUserSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => users.rowOf(request),
  );

  routes.post(
    '/api/users',
    {
      onRequest: adminOnly,
      schema: {
        tags: TAGS,
        summary:
          "Add a user (admin). Username (3-50: letters, digits, . _ -) and e-mail are unique across all clinics (409); password 8-128 characters; `dentist_id` links a dentist account to one of the clinic's dentists",
        security: SECURITY,
        body: userCreateSchema,
        response: { 201: wireUserSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const user = await createUser(db, actorOf(request), request.body);
      return reply.code(201).send(user);
    },
  );

  routes.put(
    '/api/users/:id',
    {
      onRequest: adminOnly,
      schema: {
        tags: TAGS,
        summary:
          "Update a user (admin). A blank or absent password keeps the current one; a new one ends the user's sessions. An admin cannot change their own role or deactivate themself; the clinic's last active admin cannot be demoted or deactivated (409)",
        security: SECURITY,
        params: idParamsSchema,
        body: userUpdateSchema,
        response: versionedWriteResponses(wireUserSchema, 400, 401, 403, 404, 409),
      },
    },
    async (request, reply) =>
      users.writeIfMatch(request, reply, (expected) =>
        updateUser(db, actorOf(request), request.params.id, request.body, expected),
      ),
  );

  routes.patch(
    '/api/users/:id/status',
    {
      onRequest: adminOnly,
      schema: {
        tags: TAGS,
        summary:
          "Activate or deactivate a user with `{ isActive }` (admin). Deactivating ends the user's sessions; not oneself, nor the clinic's last active admin (409)",
        security: SECURITY,
        params: idParamsSchema,
        body: userStatusSchema,
        response: versionedWriteResponses(wireUserSchema, 400, 401, 403, 404, 409),
      },
    },
    async (request, reply) =>
      users.writeIfMatch(request, reply, (expected) =>
        setUserStatus(db, actorOf(request), request.params.id, request.body.isActive, expected),
      ),
  );

  routes.delete(
    '/api/users/:id',
    {
      onRequest: adminOnly,
      schema: {
        tags: TAGS,
        summary:
          "Delete a user and end their sessions (admin). Not oneself, nor the clinic's last active admin (409)",
        security: SECURITY,
        params: idParamsSchema,
        response: versionedDeleteResponses(wireUserSchema, 401, 403, 404, 409),
      },
    },
    async (request, reply) =>
      users.deleteIfMatch(
        request,
        reply,
        (expected) => deleteUser(db, actorOf(request), request.params.id, expected),
        'User deleted',
      ),
  );
}
