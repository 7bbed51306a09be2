import {
  seriesBookedSchema,
  seriesBookingSchema,
  seriesCheckAnswerSchema,
  seriesCheckSchema,
} from '@dental/shared/domain';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { SECURITY } from '../../plugins/apiDocs';
import { errorResponses } from '../../plugins/errors';
import type { RequestActor } from '../rowRoutes';
import { bookSeries, checkSeries } from './seriesData';

const TAGS = ['appointments'];
const BODY_NOTE =
  "`visit` is a booking as POST /api/appointments takes it (its `date` is the series' first day); `repeat` is `{ every, unit: 'week' | 'month', count }` or `{ every, unit, until }` (inclusive), at most 52 visits. A month that has no such day takes its last day.";

/** Recurring visits: the dry run of a series and its booking, all visits or none. */
export function registerSeriesRoutes(
  app: FastifyInstance,
  db: Database,
  permitted: onRequestAsyncHookHandler,
  actorOf: (request: FastifyRequest) => RequestActor,
): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/api/appointments/series/check',
    {
      onRequest: permitted,
      schema: {
        tags: TAGS,
        summary: `Dry run of a series: each day of the rule is tried as a booking (the same rules, and the later visits against the earlier ones); nothing is written. Each answers \`ok\`, or \`refused\` with the \`message\` a booking would get and the \`nearest\` free start that day or the next (the free-times rule), null when neither has one. ${BODY_NOTE} Admin, receptionist and dentist.`,
        security: SECURITY,
        body: seriesCheckSchema,
        response: { 200: seriesCheckAnswerSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => checkSeries(db, actorOf(request), request.body),
  );

  routes.post(
    '/api/appointments/series',
    {
      onRequest: permitted,
      schema: {
        tags: TAGS,
        summary: `Book a series: \`occurrences\` are its visits as chosen ({ date, time } each: the rule's days, skipped ones left out, moved ones at their new day and time), booked in one transaction under the rules of a single booking. All or none: a refused visit answers 409 (400 for a day that has passed) whose message names it and whose \`errors[0].field\` is \`occurrences.<index>.time\`. The visits take their places in date order ("Series 3 of 6"). ${BODY_NOTE} Admin, receptionist and dentist.`,
        security: SECURITY,
        body: seriesBookingSchema,
        response: { 201: seriesBookedSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await bookSeries(db, actorOf(request), request.body)),
  );
}
