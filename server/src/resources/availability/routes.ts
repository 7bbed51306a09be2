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
} from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Guard } from '../../auth/guard';
import type { Database } from '../../db/client';
import { SECURITY } from '../../plugins/apiDocs';
import { errorResponses } from '../../plugins/errors';
import { listPage, rowRoutes } from '../rowRoutes';
import { fillAvailability } from './availabilityFill';
import { availabilityLookup, listAvailability, listDentistAvailability } from './availabilityReads';
import { createAvailability, deleteAvailability, updateAvailability, updateSlot } from './availabilityWrites';

const TAGS = ['availability'];

const WRITERS = 'admin, or a dentist for their own dentist record (another dentist: 403)';
const BODY_RULES =
  "`{ dentist_id, date, time_slots }`: a dentist of the clinic (else 400), a date not before the clinic's today, 1-48 slots `{ start, end, available }` (HH:mm, end after start, not overlapping, kept in time order; available defaults to true, false closes a slot)";

/** Availability (docs/product.md, API calls: Availability): every signed-in role reads; admins and dentists write. */
export function registerAvailabilityRoutes(app: FastifyInstance, db: Database, guard: Guard): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const writer = guard.permitted('availability', 'manage availability');
  const days = rowRoutes(app, guard, db, { path: '/api/availability', ...availabilityLookup });

  days.getList({
    onRequest: guard.authenticated,
    cached: true,
    summary:
      "The clinic's availability days (any signed-in role): filters `dentist_id`, an exact `date` or a `from`/`to` range (inclusive), `search` on the dentist's name; by date (`sort=-date` newest first) then dentist name; paged",
    query: availabilityListQuerySchema,
    page: availabilityPageSchema,
    codes: [400, 401],
    read: listAvailability,
  });

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

  days.getOne({
    onRequest: guard.authenticated,
    summary: 'One availability day (any signed-in role)',
    codes: [401, 404],
  });

  days.createOne({
    onRequest: writer,
    summary: `Add a dentist's availability for one date (${WRITERS}). ${BODY_RULES}. One day per dentist and date: 409 if it exists`,
    body: availabilityWriteSchema,
    codes: [400, 401, 403, 409],
    create: createAvailability,
  });

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
      reply.code(201).send(await fillAvailability(db, days.actorOf(request), request.body)),
  );

  days.writeOne({
    method: 'PUT',
    onRequest: writer,
    summary: `Replace an availability day (${WRITERS}). ${BODY_RULES}; slots are stored as sent. Only an admin may move the day to another dentist; a new date must not be in the past; 409 if the dentist already has that date`,
    body: availabilityWriteSchema,
    codes: [400, 401, 403, 404, 409],
    write: updateAvailability,
  });

  days.deleteOne({
    onRequest: writer,
    summary: `Delete an availability day (${WRITERS}); 409 while it holds a live appointment (cancel or move it first)`,
    codes: [401, 403, 404, 409],
    remove: deleteAvailability,
    message: 'Availability deleted',
  });

  days.writeOne({
    method: 'PATCH',
    suffix: 'slot',
    onRequest: writer,
    summary: `Open or close one slot of a day with \`{ start, end, available }\`, the slot named by its exact times (${WRITERS}); answers the whole day. 404 'No slot from HH:mm to HH:mm on this day' if it has none such`,
    body: slotUpdateSchema,
    codes: [400, 401, 403, 404],
    write: updateSlot,
  });
}
