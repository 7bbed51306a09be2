import {
  actsForDentist,
  CALENDAR_FEED_FUTURE_DAYS,
  CALENDAR_FEED_PAST_DAYS,
  calendarFeedGrantSchema,
  calendarFeedStatusSchema,
  idParamsSchema,
} from '@dental/shared/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Guard } from '../../auth/guard';
import type { Database } from '../../db/client';
import { SECURITY } from '../../plugins/apiDocs';
import { errorResponses } from '../../plugins/errors';
import { actorOfStaff } from '../actorAudit';
import { feedStatus, renderFeed, rotateFeed, turnOffFeed } from './calendarFeeds';

const TAGS = ['calendar'];
const OWN_FEED_ONLY = 'You can only manage your own calendar feed';
const FEED_FILE = /^([A-Za-z0-9_-]{32})\.ics$/;

/** Each dentist's private calendar feed: its URL for them (or an admin), and the feed itself for any calendar app. */
export function registerCalendarFeedRoutes(app: FastifyInstance, db: Database, guard: Guard): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  const ownFeed = (request: FastifyRequest, dentistId: number) => {
    const staff = guard.staffOf(request);
    if (!actsForDentist(staff, dentistId)) throw app.httpErrors.forbidden(OWN_FEED_ONLY);
    return staff;
  };

  routes.get(
    '/api/calendar/feeds/:id',
    {
      onRequest: guard.authenticated,
      schema: {
        tags: TAGS,
        summary:
          'Whether a dentist has a live calendar feed URL, and since when (the dentist themself, or an admin)',
        security: SECURITY,
        params: idParamsSchema,
        response: { 200: calendarFeedStatusSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const staff = ownFeed(request, request.params.id);
      return feedStatus(db, staff.clinicId, request.params.id);
    },
  );

  routes.post(
    '/api/calendar/feeds/:id',
    {
      onRequest: guard.authenticated,
      schema: {
        tags: TAGS,
        summary:
          'A new private feed URL for the dentist (the dentist themself, or an admin), shown this once: any earlier URL stops working',
        security: SECURITY,
        params: idParamsSchema,
        response: { 201: calendarFeedGrantSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const staff = ownFeed(request, request.params.id);
      const { token, createdAt } = await rotateFeed(db, actorOfStaff(staff, request), request.params.id);
      return reply.code(201).send({
        dentist_id: request.params.id,
        url: `${request.protocol}://${request.host}/feeds/${token}.ics`,
        created_at: createdAt.toISOString(),
      });
    },
  );

  routes.delete(
    '/api/calendar/feeds/:id',
    {
      onRequest: guard.authenticated,
      schema: {
        tags: TAGS,
        summary:
          "Turn the dentist's calendar feed off (the dentist themself, or an admin): its address stops working at once. 404 when there is none",
        security: SECURITY,
        params: idParamsSchema,
        response: { 200: calendarFeedStatusSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const staff = ownFeed(request, request.params.id);
      if (!(await turnOffFeed(db, actorOfStaff(staff, request), request.params.id))) {
        throw app.httpErrors.notFound('This dentist has no calendar feed');
      }
      return feedStatus(db, staff.clinicId, request.params.id);
    },
  );

  routes.get(
    '/feeds/:file',
    {
      schema: {
        tags: TAGS,
        summary: `A dentist's appointments as an iCalendar feed (text/calendar, RFC 5545), by its private URL: ${CALENDAR_FEED_PAST_DAYS} days back to ${CALENDAR_FEED_FUTURE_DAYS} ahead, cancelled visits marked so; no phone, e-mail or notes. 404 for an unknown or rotated URL`,
        params: z.object({ file: z.string().max(64) }),
      },
    },
    async (request, reply) => {
      const token = FEED_FILE.exec(request.params.file)?.[1];
      const feed = token ? await renderFeed(db, token) : null;
      if (feed === null) return reply.code(404).send({ message: 'No such calendar feed' });
      // A calendar app read the dentist's visits, with their patients' names: the trail keeps it.
      request.readTrail = {
        clinicId: feed.clinicId,
        userId: null,
        entity: 'calendar_feed',
        entityId: String(feed.dentistId),
        details: { ip: request.ip, visits: feed.visits },
      };
      return reply
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('cache-control', 'private, max-age=300')
        .send(feed.body);
    },
  );
}
