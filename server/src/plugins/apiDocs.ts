import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** What a signed-in route asks for in the OpenAPI document: the access token (the `bearerAuth` scheme below). */
export const SECURITY = [{ bearerAuth: [] }];

/** The OpenAPI document, built from every route's declared schemas, at /api/docs. */
export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Dental Clinic API',
        version: '1.0.0',
        description:
          "Every /api route is scoped to the signed-in user's clinic. Roles: admin (all), receptionist (appointments, patients, calendar), dentist (appointments, patients, calendar, availability). Errors answer `{ message, errors? }`. A write may name the desk (browser tab) it comes from in `X-Desk` (8-64 letters, digits and dashes): its change on `GET /api/events` then names that desk, so every other desk is told of it, including another desk of the same account.",
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          // The operator's key for publishing module releases (PLATFORM_TOKEN), not a staff sign-in.
          platformKey: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
}
