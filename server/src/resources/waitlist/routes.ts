import {
  idParamsSchema,
  WAITLIST_MATCHES_URL,
  WAITLIST_URL,
  waitlistBodySchema,
  waitlistFreeTimesSchema,
  waitlistMatchesQuerySchema,
  waitlistMatchesSchema,
  waitlistOfferAnswerSchema,
  waitlistOfferBodySchema,
  waitlistPageSchema,
  waitlistQuerySchema,
} from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Guard } from '../../auth/guard';
import type { Database } from '../../db/client';
import { SECURITY } from '../../plugins/apiDocs';
import { errorResponses } from '../../plugins/errors';
import { rowRoutes } from '../rowRoutes';
import { entryLookup, listWaitlist } from './waitlistEntries';
import { entryFreeTimes, matchFreedTime } from './waitlistMatches';
import { offerTime } from './waitlistOffers';
import { createEntry, deleteEntry, updateEntry } from './waitlistWrites';

const TAGS = ['waitlist'];
const WHO = 'Staff who book appointments (admin, receptionist, dentist).';
const BODY =
  'patient_id, treatment (its length from Settings is the time needed), dentist_id (null: any dentist), weekdays (1 Monday … 7 Sunday, at least one), part_of_day (any, morning before 12:00, afternoon 12:00–17:00, evening from 17:00), earliest_on ≤ latest_on, note';

/**
 * The waitlist (keep the chairs full): patients waiting for a time, offered the time a cancelled,
 * deleted or moved visit frees, and their earliest free times now.
 */
export function registerWaitlistRoutes(app: FastifyInstance, db: Database, guard: Guard): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const permitted = guard.permitted('appointments', 'work the waitlist');
  const waitlist = rowRoutes(app, guard, db, { path: WAITLIST_URL, ...entryLookup });
  const { actorOf } = waitlist;

  waitlist.getList({
    onRequest: permitted,
    summary: `The clinic's waitlist, oldest entry first: \`search\` by the patient's name, \`dentist_id\` (entries wanting them or any dentist), \`treatment\`; paged. ${WHO}`,
    query: waitlistQuerySchema,
    page: waitlistPageSchema,
    codes: [400, 401, 403],
    read: listWaitlist,
  });

  routes.get(
    WAITLIST_MATCHES_URL,
    {
      onRequest: permitted,
      schema: {
        tags: TAGS,
        summary: `The entries a freed time suits (the dentist's \`dentist_id\`, \`date\`, start \`time\` and \`duration\` of the visit that left it), each with the start offered: its window holds the day, its weekdays the weekday, it wants this dentist or any, and a visit of its treatment can start inside the freed time in its part of the day on a start the booking form offers. Best first: wanting this dentist before any; then the visit filling the freed time best (fewest minutes left empty or running beyond it); then the longest waiting. Each carries \`told\` (when, and by which channels) once its patient was told of the time offered, else null. ${WHO}`,
        security: SECURITY,
        querystring: waitlistMatchesQuerySchema,
        response: { 200: waitlistMatchesSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({ data: await matchFreedTime(db, actorOf(request).clinicId, request.query) }),
  );

  waitlist.getOne({ onRequest: permitted, summary: `One waitlist entry. ${WHO}`, codes: [401, 403, 404] });

  routes.get(
    `${WAITLIST_URL}/:id/free-times`,
    {
      onRequest: permitted,
      schema: {
        tags: TAGS,
        summary: `The entry's earliest free times now: within its window, from today, up to four weeks ahead; on its weekdays, in its part of the day, with its dentist or any active one; the first start of each day and dentist, three at most. ${WHO}`,
        security: SECURITY,
        params: idParamsSchema,
        response: { 200: waitlistFreeTimesSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => entryFreeTimes(db, actorOf(request).clinicId, request.params.id),
  );

  routes.post(
    `${WAITLIST_URL}/:id/offer`,
    {
      onRequest: permitted,
      schema: {
        tags: TAGS,
        summary: `Tell the entry's patient of a time that opened (\`dentist_id\`, \`date\` today or later, \`time\`): "a time opened on … with …: call us to take it", through the outbox, one message per channel the clinic's e-mail and SMS reminder switches allow and the patient has an address for (409 when none can go). Told once: the offer is recorded with the messages, and a second offer of the same time is refused with 409 saying when it was told, queueing nothing. The entry stays on the list until booked. ${WHO}`,
        security: SECURITY,
        params: idParamsSchema,
        body: waitlistOfferBodySchema,
        response: { 200: waitlistOfferAnswerSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => offerTime(db, actorOf(request), request.params.id, request.body),
  );

  waitlist.createOne({
    onRequest: permitted,
    summary: `Put a patient on the waitlist: ${BODY}. ${WHO}`,
    body: waitlistBodySchema,
    codes: [400, 401, 403],
    create: createEntry,
  });

  waitlist.writeOne({
    method: 'PUT',
    onRequest: permitted,
    summary: `Change a waitlist entry under If-Match: ${BODY}. ${WHO}`,
    body: waitlistBodySchema,
    codes: [400, 401, 403, 404],
    write: updateEntry,
  });

  waitlist.deleteOne({
    onRequest: permitted,
    summary: `Take an entry off the waitlist under If-Match (booking it with \`waitlist_entry_id\` does so too). ${WHO}`,
    codes: [401, 403, 404],
    remove: deleteEntry,
    message: 'Taken off the waitlist',
  });
}
