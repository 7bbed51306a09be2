import {
  BOOKING_REQUEST_NOT_FOUND,
  BOOKING_REQUESTS_URL,
  bookingRequestSchema,
  bookingRequestsPageSchema,
  bookingRequestsQuerySchema,
  idParamsSchema,
  linkPatientBodySchema,
} from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Guard } from '../../auth/guard';
import type { Database } from '../../db/client';
import { SECURITY } from '../../plugins/apiDocs';
import { errorResponses } from '../../plugins/errors';
import { actorOfStaff } from '../actorAudit';
import {
  calledBack,
  findRequest,
  freedTimeDone,
  keepAsNewPatient,
  linkRequest,
  listRequests,
} from './requestsData';

const TAGS = ['online booking'];
const WHO = 'Staff who book appointments (admin, receptionist, dentist).';

/** The desk's requests from the booking page (docs/product.md, Online booking, Requests). */
export function registerBookingRequestsRoutes(app: FastifyInstance, db: Database, guard: Guard): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const permitted = guard.permitted('appointments', 'work the online requests');
  const actorOf = (request: Parameters<typeof guard.staffOf>[0]) =>
    actorOfStaff(guard.staffOf(request), request);

  routes.get(
    BOOKING_REQUESTS_URL,
    {
      onRequest: permitted,
      schema: {
        tags: TAGS,
        summary: `The clinic's requests from the booking page in one \`state\` (open unless asked), newest first, paged: visits booked online whose patient was not matched (with the records sharing the e-mail or phone, to link to) and patients asking to be called. ${WHO}`,
        security: SECURITY,
        querystring: bookingRequestsQuerySchema,
        response: { 200: bookingRequestsPageSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const found = await listRequests(db, actorOf(request).clinicId, request.query);
      return { ...found, page: request.query.page, limit: request.query.limit };
    },
  );

  routes.get(
    `${BOOKING_REQUESTS_URL}/:id`,
    {
      onRequest: permitted,
      schema: {
        tags: TAGS,
        summary: `One request from the booking page. ${WHO}`,
        security: SECURITY,
        params: idParamsSchema,
        response: { 200: bookingRequestSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const found = await findRequest(db, actorOf(request).clinicId, request.params.id);
      if (!found) throw app.httpErrors.notFound(BOOKING_REQUEST_NOT_FOUND);
      return found;
    },
  );

  const action = (suffix: string, summary: string) => ({
    url: `${BOOKING_REQUESTS_URL}/:id/${suffix}`,
    schema: {
      tags: TAGS,
      summary: `${summary} ${WHO}`,
      security: SECURITY,
      params: idParamsSchema,
      response: { 200: bookingRequestSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
  });

  const link = action(
    'link',
    "Closes an unmatched request: its visit is the existing patient's (`patient_id`, one of the request's candidates), and the record made from the request is removed when nothing else holds it",
  );
  routes.post(
    link.url,
    { onRequest: permitted, schema: { ...link.schema, body: linkPatientBodySchema } },
    async (request) => linkRequest(db, actorOf(request), request.params.id, request.body.patient_id),
  );

  const keep = action(
    'new-patient',
    'Closes an unmatched request: the patient is new, and the record made from the request stays',
  );
  routes.post(keep.url, { onRequest: permitted, schema: keep.schema }, async (request) =>
    keepAsNewPatient(db, actorOf(request), request.params.id),
  );

  const called = action('called-back', 'Closes a request to call: the patient was called');
  routes.post(called.url, { onRequest: permitted, schema: called.schema }, async (request) =>
    calledBack(db, actorOf(request), request.params.id),
  );

  const done = action(
    'done',
    'Closes a time a patient freed online: the desk offered it to the waitlist (Fill this time), or let it be',
  );
  routes.post(done.url, { onRequest: permitted, schema: done.schema }, async (request) =>
    freedTimeDone(db, actorOf(request), request.params.id),
  );
}
