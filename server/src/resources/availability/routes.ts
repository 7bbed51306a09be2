import {
  AVAILABILITY_FILL_MAX_DAYS,
  availabilityFillResultSchema,
  availabilityFillSchema,
  availabilityListQuerySchema,
  availabilityPageSchema,
  availabilityWriteSchema,
  dentistAvailabilityQuerySchema,
  idParamsSchema,
  slotUpdateSchema,
  wireAvailabilitySchema,
} from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Guard } from '../../auth/guard';
import type { Database } from '../../db/client';
import { errorResponses } from '../../plugins/errors';
import { listPage, rowRoutes, versionedDeleteResponses, versionedWriteResponses } from '../rowRoutes';
import {
  AVAILABILITY_NOT_FOUND,
  createAvailability,
  deleteAvailability,
  fillAvailability,
  findAvailability,
  listAvailability,
  listDentistAvailability,
  updateAvailability,
  updateSlot,
} from './availabilityData';

const TAGS = ['availability'];
const SECURITY = [{ bearerAuth: [] }];

const WRITERS = 'admin, or a dentist for their own dentist record (another dentist: 403)';
const BODY_RULES =
  "`{ dentist_id, date, time_slots }`: a dentist of the clinic (else 400), a date not before the clinic's today, 1-48 slots `{ start, end, available }` (HH:mm, end after start, not overlapping, kept in time order; available defaults to true, false closes a slot)";

/** Availability (spec §7 Availability): every signed-in role reads; admins and dentists write. */
export function registerAvailabilityRoutes(app: FastifyInstance, db: Database, guard: Guard): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const writer = guard.permitted('availability', 'manage availability');
  const days = rowRoutes(guard, (clinicId, id) => findAvailability(db, clinicId, id), AVAILABILITY_NOT_FOUND);

  routes.get(
    '/api/availability',
    {
      onRequest: guard.authenticated,
      config: { clinicReadCache: true },
      schema: {
        tags: TAGS,
        summary:
          "The clinic's availability days (any signed-in role): filters `dentist_id`, an exact `date` or a `from`/`to` range (inclusive), `search` on the dentist's name; by date (`sort=-date` newest first) then dentist name; paged",
        security: SECURITY,
        querystring: availabilityListQuerySchema,
        response: { 200: availabilityPageSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) =>
      listPage(request.query, await listAvailability(db, guard.staffOf(request).clinicId, request.query)),
  );

  routes.get(
    '/api/availability/dentist/:id',
    {
      onRequest: guard.authenticated,
      config: { clinicReadCache: true },
      schema: {
        tags: TAGS,
        summary:
          "One dentist's availability days (any signed-in role): an exact `date` or a `from`/`to` range; by date; paged. 404 for a dentist not in the clinic",
        security: SECURITY,
        params: idParamsSchema,
        querystring: dentistAvailabilityQuerySchema,
        response: { 200: availabilityPageSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) =>
      listPage(
        request.query,
        await listDentistAvailability(db, guard.staffOf(request).clinicId, request.params.id, request.query),
      ),
  );

  routes.get(
    '/api/availability/:id',
    {
      onRequest: guard.authenticated,
      schema: {
        tags: TAGS,
        summary: 'One availability day (any signed-in role)',
        security: SECURITY,
        params: idParamsSchema,
        response: { 200: wireAvailabilitySchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => days.rowOf(request),
  );

  routes.post(
    '/api/availability',
    {
      onRequest: writer,
      schema: {
        tags: TAGS,
        summary: `Add a dentist's availability for one date (${WRITERS}). ${BODY_RULES}. One day per dentist and date: 409 if it exists`,
        security: SECURITY,
        body: availabilityWriteSchema,
        response: { 201: wireAvailabilitySchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createAvailability(db, guard.staffOf(request), request.body)),
  );

  routes.post(
    '/api/availability/fill',
    {
      onRequest: writer,
      schema: {
        tags: TAGS,
        summary: `Fill a range of dates at once (${WRITERS}): each of the dentist's working days from \`from\` to \`to\` (at most ${AVAILABILITY_FILL_MAX_DAYS} days, not before today) gets \`time_slots\` (the suggested slots unless given); days already set are kept. Answers \`{ created, kept }\``,
        security: SECURITY,
        body: availabilityFillSchema,
        response: { 201: availabilityFillResultSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await fillAvailability(db, guard.staffOf(request), request.body)),
  );

  routes.put(
    '/api/availability/:id',
    {
      onRequest: writer,
      schema: {
        tags: TAGS,
        summary: `Replace an availability day (${WRITERS}). ${BODY_RULES}; slots are stored as sent. Only an admin may move the day to another dentist; a new date must not be in the past; 409 if the dentist already has that date`,
        security: SECURITY,
        params: idParamsSchema,
        body: availabilityWriteSchema,
        response: versionedWriteResponses(wireAvailabilitySchema, 400, 401, 403, 404, 409),
      },
    },
    async (request, reply) =>
      days.writeIfMatch(request, reply, (expected) =>
        updateAvailability(db, guard.staffOf(request), request.params.id, request.body, expected),
      ),
  );

  routes.delete(
    '/api/availability/:id',
    {
      onRequest: writer,
      schema: {
        tags: TAGS,
        summary: `Delete an availability day (${WRITERS}); 409 while it holds a live appointment (cancel or move it first)`,
        security: SECURITY,
        params: idParamsSchema,
        response: versionedDeleteResponses(wireAvailabilitySchema, 401, 403, 404, 409),
      },
    },
    async (request, reply) =>
      days.deleteIfMatch(
        request,
        reply,
        (expected) => deleteAvailability(db, guard.staffOf(request), request.params.id, expected),
        'Availability deleted',
      ),
  );

  routes.patch(
    '/api/availability/:id/slot',
    {
      onRequest: writer,
      schema: {
        tags: TAGS,
        summary: `Open or close one slot of a day with \`{ start, end, available }\`, the slot named by its exact times (${WRITERS}); answers the whole day. 404 'No slot from HH:mm to HH:mm on this day' if it has none such`,
        security: SECURITY,
        params: idParamsSchema,
        body: slotUpdateSchema,
        response: versionedWriteResponses(wireAvailabilitySchema, 400, 401, 403, 404),
      },
    },
    async (request, reply) =>
      days.writeIfMatch(request, reply, (expected) =>
        updateSlot(db, guard.staffOf(request), request.params.id, request.body, expected),
      ),
  );
}
