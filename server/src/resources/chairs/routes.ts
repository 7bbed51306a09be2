import {
  CHAIR_NOT_FOUND,
  CHAIR_ORDER_URL,
  CHAIR_RETIRED,
  CHAIRS_URL,
  chairBodySchema,
  chairListSchema,
  chairOrderSchema,
  chairSchema,
  idParamsSchema,
} from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Guard } from '../../auth/guard';
import type { Database } from '../../db/client';
import { SECURITY } from '../../plugins/apiDocs';
import { errorResponses } from '../../plugins/errors';
import { staleWriteResponse, writeIfMatch } from '../../plugins/versions';
import { actorOfStaff } from '../actorAudit';
import { createChair, findChair, listChairs, reorderChairs, retireChair, updateChair } from './chairsData';

const TAGS = ['chairs'];

/** Chairs (docs/product.md, Chairs): every signed-in role reads them; only an admin changes them. */
export function registerChairsRoutes(app: FastifyInstance, db: Database, guard: Guard): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const adminOnly = guard.permitted('all', 'manage chairs');
  const actorOf = (request: Parameters<Guard['staffOf']>[0]) => actorOfStaff(guard.staffOf(request), request);
  const currentOf = (request: Parameters<Guard['staffOf']>[0], id: number) => ({
    current: () => findChair(db, guard.staffOf(request).clinicId, id),
    notFound: CHAIR_NOT_FOUND,
  });

  routes.get(
    CHAIRS_URL,
    {
      onRequest: guard.authenticated,
      schema: {
        tags: TAGS,
        summary:
          "The clinic's chairs in their order (any role): name, in service or not, bookable online, default dentist",
        security: SECURITY,
        response: { 200: chairListSchema, ...errorResponses(401) },
      },
    },
    async (request) => ({ data: await listChairs(db, guard.staffOf(request).clinicId) }),
  );

  routes.post(
    CHAIRS_URL,
    {
      onRequest: adminOnly,
      schema: {
        tags: TAGS,
        summary:
          'Add a chair (admin), last in the order: name (1-40, unique among chairs in use, any case: 409), in_service, bookable_online, default_dentist_id (an active dentist or null)',
        security: SECURITY,
        body: chairBodySchema,
        response: { 201: chairSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await createChair(db, actorOf(request), request.body)),
  );

  routes.put(
    CHAIR_ORDER_URL,
    {
      onRequest: adminOnly,
      schema: {
        tags: TAGS,
        summary: "Put the clinic's chairs in a new order (admin): `ids`, every chair in use once",
        security: SECURITY,
        body: chairOrderSchema,
        response: { 200: chairListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({ data: await reorderChairs(db, actorOf(request), request.body.ids) }),
  );

  routes.put(
    `${CHAIRS_URL}/:id`,
    {
      onRequest: adminOnly,
      schema: {
        tags: TAGS,
        summary:
          'Change a chair (admin) under If-Match: rename it, take it out of service or back, its default dentist',
        security: SECURITY,
        params: idParamsSchema,
        body: chairBodySchema,
        response: {
          200: chairSchema,
          ...staleWriteResponse(chairSchema),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request, reply) =>
      writeIfMatch(request, reply, currentOf(request, request.params.id), (expected) =>
        updateChair(db, actorOf(request), request.params.id, request.body, expected),
      ),
  );

  routes.delete(
    `${CHAIRS_URL}/:id`,
    {
      onRequest: adminOnly,
      schema: {
        tags: TAGS,
        summary:
          'Retire a chair (admin) under If-Match: it leaves the list and the order, its history stays, its name is free again',
        security: SECURITY,
        params: idParamsSchema,
        response: {
          200: z.object({ message: z.string() }),
          ...staleWriteResponse(chairSchema),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request, reply) =>
      writeIfMatch(request, reply, currentOf(request, request.params.id), async (expected) => {
        await retireChair(db, actorOf(request), request.params.id, expected);
        return { message: CHAIR_RETIRED };
      }),
  );
}
