import {
  publicClinicSchema,
  publicFreeTimesQuerySchema,
  publicFreeTimesSchema,
  publicHoldBodySchema,
  publicHoldSchema,
  publicSlugParamsSchema,
  publicTimeTakenSchema,
} from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppConfig } from '../../config';
import type { Database } from '../../db/client';
import { errorResponses } from '../../plugins/errors';
import { placeHold } from './holds';
import { bookingClinicOf, publicClinic, publicFreeTimes } from './publicClinics';

const TAGS = ['online booking'];

/**
 * The clinic's public booking page's reads (docs/product.md, Online booking): no staff sign-in, each
 * address limited per minute, and a 404 alike for an unknown slug and a clinic with it off.
 */
export function registerPublicBookingRoutes(app: FastifyInstance, db: Database, config: AppConfig): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const rateLimit = { max: config.publicRateLimit, timeWindow: '1 minute' };

  routes.get(
    '/public/clinics/:slug',
    {
      config: { rateLimit },
      schema: {
        tags: TAGS,
        summary:
          "A clinic's booking page: its name, address and phone, the visit types it offers online, its dentists and its rules (no sign-in)",
        params: publicSlugParamsSchema,
        response: { 200: publicClinicSchema, ...errorResponses(404, 429) },
      },
    },
    async (request) => publicClinic(db, await bookingClinicOf(db, request.params.slug)),
  );

  routes.get(
    '/public/clinics/:slug/free-times',
    {
      config: { rateLimit },
      schema: {
        tags: TAGS,
        summary:
          'The starts a patient may book on a day for a visit type offered online, with a dentist or any dentist: the desk’s rules over the chairs bookable online, from the notice on and within the horizon (no sign-in)',
        params: publicSlugParamsSchema,
        querystring: publicFreeTimesQuerySchema,
        response: { 200: publicFreeTimesSchema, ...errorResponses(400, 404, 429) },
      },
    },
    async (request) => publicFreeTimes(db, await bookingClinicOf(db, request.params.slug), request.query),
  );

  routes.post(
    '/public/clinics/:slug/holds',
    {
      config: { rateLimit },
      schema: {
        tags: TAGS,
        summary:
          'Holds a free time the patient picked for 5 minutes, for the desk as well, with the dentist (or any) and a chair bookable online: 201 with the hold’s private id, or 409 with the nearest free times when it was taken (no sign-in)',
        params: publicSlugParamsSchema,
        body: publicHoldBodySchema,
        response: { 201: publicHoldSchema, 409: publicTimeTakenSchema, ...errorResponses(400, 404, 429) },
      },
    },
    async (request, reply) => {
      const outcome = await placeHold(db, await bookingClinicOf(db, request.params.slug), request.body);
      if ('taken' in outcome) return reply.code(409).send(outcome.taken);
      return reply.code(201).send(outcome.held);
    },
  );
}
