import { HttpError, httpErrors } from '@fastify/sensible';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordRefusal } from '../db/auditLog';
import { databaseError, QUERY_CANCELED } from '../db/databaseErrors';
import {
  Conflict,
  type DomainError,
  Expired,
  InvalidValue,
  NotAllowed,
  NotFound,
  NotRecognised,
  TooManyTries,
  Unavailable,
} from '../domain/errors';

/**
 * SQLSTATE class 22 codes a client's value can cause past validation (a NUL byte in text, a number or
 * date PostgreSQL cannot hold): bad input, not a server fault.
 */
const DATA_EXCEPTIONS = ['22021', '22P05', '22001', '22003', '22P02', '22007', '22008'];

export const errorBodySchema = z.object({
  message: z.string(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});

/** The error answers a route may give, for its OpenAPI description. */
export function errorResponses<Code extends 400 | 401 | 403 | 404 | 409 | 410 | 429>(
  ...codes: Code[]
): Record<Code, typeof errorBodySchema> {
  return Object.fromEntries(codes.map((code) => [code, errorBodySchema])) as Record<
    Code,
    typeof errorBodySchema
  >;
}

/** The one place a refusal of the data layer becomes an HTTP status (docs/architecture.md, Server layers). */
const DOMAIN_STATUSES: ReadonlyArray<[abstract new (...args: never[]) => DomainError, number]> = [
  [InvalidValue, 400],
  [NotRecognised, 401],
  [NotAllowed, 403],
  [NotFound, 404],
  [Conflict, 409],
  [Expired, 410],
  [TooManyTries, 429],
  [Unavailable, 503],
];

/**
 * The HTTP error a domain refusal answers as, or the error itself when it is not one. Its message is
 * the answer's even at 503 (`expose`): an Unavailable says what the operator must set.
 */
export function httpErrorOf(error: unknown): unknown {
  for (const [kind, status] of DOMAIN_STATUSES) {
    if (error instanceof kind) {
      return httpErrors.createError(status, error.message, { errors: error.errors, expose: true });
    }
  }
  return error;
}

/**
 * An error a route or plugin raised through sensible's `httpErrors` (or a domain refusal mapped above),
 * whose message is meant for the caller. A 5xx of a library (`expose` false) is answered as any fault.
 */
function isAnswerableHttpError(
  error: unknown,
): error is HttpError & { errors?: Array<{ field: string; message: string }> } {
  return error instanceof HttpError && error.expose;
}

interface ValidationItem {
  instancePath: string;
  message?: string;
  params: { keys?: unknown };
}

/**
 * `/patient/phone` → `patient.phone`. An unknown key is reported on the object that holds it
 * (the message names the key), or by its own name at the top level of the request.
 */
function fieldName(item: ValidationItem, context: string | undefined): string {
  const path = item.instancePath.split('/').filter(Boolean).join('.');
  if (path) return path;
  const keys = Array.isArray(item.params.keys) ? item.params.keys.map(String) : [];
  return keys.join(', ') || context || 'request';
}

/** Where in the request a text value with a NUL character is (`body.notes`, `query.search`), if any. */
function fieldHoldingNul(request: { body?: unknown; query?: unknown; params?: unknown }): string | null {
  const visit = (value: unknown, path: string): string | null => {
    if (typeof value === 'string') return value.includes('\u0000') ? path : null;
    if (!value || typeof value !== 'object') return null;
    for (const [key, inner] of Object.entries(value)) {
      const found = visit(inner, path ? `${path}.${key}` : key);
      if (found) return found;
    }
    return null;
  };
  // A body field is named as the validation errors name it: by its own path.
  return visit(request.body, '') ?? visit(request.query, 'query') ?? visit(request.params, 'params');
}

const UNSTORABLE_VALUE = 'holds a value that cannot be stored (such as a NUL character)';

/**
 * Every error answers JSON `{ message }`, and every 400 names its fields in `errors`; a 403 of a
 * signed-in staff member is audited; no stack ever leaves.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(async (thrown: FastifyError, request, reply) => {
    const error = httpErrorOf(thrown) as FastifyError;
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.map((item: ValidationItem) => ({
        field: fieldName(item, error.validationContext),
        message: item.message ?? 'Invalid value',
      }));
      const first = errors[0];
      return reply.code(400).send({
        message: first ? `Invalid ${first.field}: ${first.message}` : 'Invalid request',
        errors,
      });
    }
    if (isAnswerableHttpError(error)) {
      if (error.statusCode === 403 && request.staff) {
        await recordRefusal(app.database.db, request, request.staff, { reason: error.message });
      }
      return reply.code(error.statusCode).send({ message: error.message, errors: error.errors });
    }
    if (databaseError(error, DATA_EXCEPTIONS)) {
      const field = fieldHoldingNul(request) ?? 'request';
      return reply.code(400).send({
        message: `Invalid ${field}: it ${UNSTORABLE_VALUE}`,
        errors: [{ field, message: `It ${UNSTORABLE_VALUE}` }],
      });
    }
    if (databaseError(error, [QUERY_CANCELED])) {
      request.log.warn({ err: error }, 'statement ran past its time-out');
      return reply.code(503).send({ message: 'The database took too long to answer: please try again' });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.code(500).send({ message: 'Internal server error' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(500).send({ message: 'Internal server error' });
    }
    const message = error.message || 'Request failed';
    if (status === 400) {
      // Fastify's own refusals: a body that is not JSON, empty or of another content type.
      const field = error.code?.startsWith('FST_ERR_CTP') ? 'body' : 'request';
      return reply.code(400).send({ message, errors: [{ field, message }] });
    }
    return reply.code(status).send({ message });
  });
}
