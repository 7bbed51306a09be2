import { CLIENT_ERRORS_URL, clientErrorCountsSchema, clientErrorSchema } from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Guard } from '../../auth/guard';
import type { Database } from '../../db/client';
import { SECURITY } from '../../plugins/apiDocs';
import { errorResponses } from '../../plugins/errors';
import { clientErrorCounts, recordClientError } from './clientErrorsData';

/** A browser stuck on a failing module reports it at most this often a minute. */
const REPORTS_A_MINUTE = 30;

/** Module failures staff browsers report, and their count for the Modules page (docs/architecture.md, Module releases). */
export function registerClientErrorRoutes(app: FastifyInstance, db: Database, guard: Guard): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    CLIENT_ERRORS_URL,
    {
      onRequest: guard.authenticated,
      // A report changes nothing staff read: no clinic's cached answers are dropped for it.
      config: { rateLimit: { max: REPORTS_A_MINUTE, timeWindow: '1 minute' }, leavesReadsAsTheyWere: true },
      schema: {
        tags: ['modules'],
        summary: 'Report a module that failed to load or draw in this browser (any role; rate-limited)',
        security: SECURITY,
        body: clientErrorSchema,
        response: { 204: z.null(), ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const staff = guard.staffOf(request);
      await recordClientError(db, staff.clinicId, staff.id, request.body);
      return reply.code(204).send(null);
    },
  );

  routes.get(
    CLIENT_ERRORS_URL,
    {
      onRequest: guard.permitted('all', 'see module failures'),
      schema: {
        tags: ['modules'],
        summary: "Each module's failures reported by the clinic's browsers over the last 24 hours (admin)",
        security: SECURITY,
        response: { 200: clientErrorCountsSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => clientErrorCounts(db, guard.staffOf(request).clinicId),
  );
}
