import { heldTimesQuerySchema, heldTimesSchema } from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Guard } from '../../auth/guard';
import type { Database } from '../../db/client';
import { SECURITY } from '../../plugins/apiDocs';
import { errorResponses } from '../../plugins/errors';
import { heldTimesOn } from './heldTimes';

/** What the desk sees of the booking page while patients are on it (docs/product.md, Online booking). */
export function registerHeldTimesRoutes(app: FastifyInstance, db: Database, guard: Guard): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/api/held-times',
    {
      onRequest: guard.permitted('calendar', 'view the calendar'),
      schema: {
        tags: ['online booking'],
        summary:
          'The times patients hold on the booking page on a day (live ones: each lets go by itself at `expires_at`), with the dentist and chair they would be booked with. Every role with the calendar',
        security: SECURITY,
        querystring: heldTimesQuerySchema,
        response: { 200: heldTimesSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({ data: await heldTimesOn(db, guard.staffOf(request).clinicId, request.query.date) }),
  );
}
