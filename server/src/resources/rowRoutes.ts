import { idParamsSchema, type Role } from '@dental/shared/domain';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { type ZodType, z } from 'zod';
import type { Guard } from '../auth/guard';
import { errorResponses, HttpError } from '../plugins/errors';
import { type ExpectedVersion, staleWriteResponse, writeIfMatch } from '../plugins/versions';
import type { Actor } from './actorAudit';

/**
 * What the routes of one kind of clinic row (a patient, a dentist, a user, a visit, an availability
 * day) have in common, so that each resource's routes file says only what is its own: who a request
 * acts for, the clinic's page of rows, the row of `:id` or 404, a new row (201), and writes and
 * deletes under `If-Match`.
 */

/** Who a request acts for: the clinic that scopes every query, the user the audit names, their role. */
export interface RequestActor extends Actor {
  role: Role;
}

type RowRequest = FastifyRequest<{ Params: { id: number } }>;

type ErrorCode = Parameters<typeof errorResponses>[0];

/** One kind of row: where its routes live and how GET reads one. */
interface RowKind<Schema extends ZodType> {
  /** The collection's path (`/api/users`); a row is `${path}/:id`. */
  path: string;
  tags: string[];
  /** The row's wire schema: GET's answer, a write's answer and a 412's `current`. */
  schema: Schema;
  /** Reads one row of a clinic as GET answers it. */
  find: (clinicId: number, id: number) => Promise<z.output<Schema> | null>;
  /** The 404's message. */
  notFound: string;
}

/** What every route of a row declares for itself: who may call it, what it does, how it can fail. */
interface RowRouteOptions<Code extends ErrorCode> {
  onRequest: onRequestAsyncHookHandler;
  summary: string;
  codes: Code[];
}

const SECURITY = [{ bearerAuth: [] }];

/**
 * Declares the routes of one kind of row on `app`, in the order they are called. The handlers are
 * typed here by hand (the row as `kind.schema`'s output, the body as the route's) rather than by the
 * zod type provider, which cannot resolve a schema that is still a type parameter.
 */
export function rowRoutes<Schema extends ZodType>(app: FastifyInstance, guard: Guard, kind: RowKind<Schema>) {
  type Row = z.output<Schema>;
  const rowPath = `${kind.path}/:id`;
  const actorOf = (request: FastifyRequest): RequestActor => {
    const staff = guard.staffOf(request);
    return { clinicId: staff.clinicId, userId: staff.id, role: staff.role };
  };
  // A write refused for a stale If-Match answers the row as GET answers it now (read after the rollback).
  const current = (request: RowRequest) => ({
    current: () => kind.find(actorOf(request).clinicId, request.params.id),
    notFound: kind.notFound,
  });
  /** A route's options: its guard, and its schema with what every route of the row declares. */
  const declared = <Parts extends object>(options: RowRouteOptions<ErrorCode>, parts: Parts) => ({
    onRequest: options.onRequest,
    schema: { tags: kind.tags, summary: options.summary, security: SECURITY, ...parts },
  });
  return {
    actorOf,
    /** GET `${path}`: a page of the clinic's rows, `list` reading it for the query. */
    getList<Query extends ZodType, Page extends ZodType, Code extends ErrorCode>(
      options: RowRouteOptions<Code> & {
        /** Answered from the clinic's read cache (plugins/readCache.ts). */
        cached?: boolean;
        query: Query;
        page: Page;
        list: (request: FastifyRequest<{ Querystring: z.output<Query> }>) => Promise<z.output<Page>>;
      },
    ) {
      app.get<{ Querystring: z.output<Query> }>(
        kind.path,
        {
          ...(options.cached ? { config: { clinicReadCache: true } } : {}),
          ...declared(options, {
            querystring: options.query,
            response: { 200: options.page, ...errorResponses(...options.codes) },
          }),
        },
        async (request) => options.list(request),
      );
    },
    /** GET `${path}/:id`: the row of `:id` in the requester's clinic; 404 when the clinic has none. */
    getOne<Code extends ErrorCode>(options: RowRouteOptions<Code>) {
      app.get<{ Params: { id: number } }>(
        rowPath,
        declared(options, {
          params: idParamsSchema,
          response: { 200: kind.schema, ...errorResponses(...options.codes) },
        }),
        async (request) => {
          const row = await kind.find(actorOf(request).clinicId, request.params.id);
          if (!row) throw new HttpError(404, kind.notFound);
          return row;
        },
      );
    },
    /** POST `${path}`: answers 201 with the row `create` made. */
    createOne<Body extends ZodType, Code extends ErrorCode>(
      options: RowRouteOptions<Code> & {
        body: Body;
        create: (request: FastifyRequest<{ Body: z.output<Body> }>) => Promise<Row>;
      },
    ) {
      app.post<{ Body: z.output<Body> }>(
        kind.path,
        declared(options, {
          body: options.body,
          response: { 201: kind.schema, ...errorResponses(...options.codes) },
        }),
        async (request, reply) => reply.code(201).send(await options.create(request)),
      );
    },
    /**
     * A write of the row of `:id` under `If-Match` (see writeIfMatch), at `${path}/:id` or
     * `${path}/:id/${suffix}`: answers the row as `write` leaves it, 412 with the current row.
     */
    writeOne<Body extends ZodType, Code extends ErrorCode>(
      options: RowRouteOptions<Code> & {
        method: 'PUT' | 'PATCH';
        suffix?: string;
        body: Body;
        write: (
          request: FastifyRequest<{ Params: { id: number }; Body: z.output<Body> }>,
          expected: ExpectedVersion,
        ) => Promise<Row>;
      },
    ) {
      app.route<{ Params: { id: number }; Body: z.output<Body> }>({
        method: options.method,
        url: options.suffix ? `${rowPath}/${options.suffix}` : rowPath,
        ...declared(options, {
          params: idParamsSchema,
          body: options.body,
          response: versionedWriteResponses(kind.schema, ...options.codes),
        }),
        handler: async (request, reply) =>
          writeIfMatch(request, reply, current(request), (expected) => options.write(request, expected)),
      });
    },
    /** DELETE `${path}/:id` under `If-Match`: answers `{ message }` once `remove` has run. */
    deleteOne<Code extends ErrorCode>(
      options: RowRouteOptions<Code> & {
        remove: (request: RowRequest, expected: ExpectedVersion) => Promise<unknown>;
        message: string;
      },
    ) {
      app.delete<{ Params: { id: number } }>(
        rowPath,
        declared(options, {
          params: idParamsSchema,
          response: versionedDeleteResponses(kind.schema, ...options.codes),
        }),
        async (request, reply) =>
          writeIfMatch(request, reply, current(request), async (expected) => {
            await options.remove(request, expected);
            return { message: options.message };
          }),
      );
    },
  };
}

/** The answers of a write under `If-Match`, for its schema: the row, `codes`, and 412 with the current row. */
function versionedWriteResponses<Row extends ZodType, Code extends ErrorCode>(row: Row, ...codes: Code[]) {
  return { 200: row, ...errorResponses(...codes), ...staleWriteResponse(row) };
}

/** The answers of a delete under `If-Match`: `{ message }`, `codes`, and 412 with the current row. */
function versionedDeleteResponses<Row extends ZodType, Code extends ErrorCode>(row: Row, ...codes: Code[]) {
  return { 200: z.object({ message: z.string() }), ...errorResponses(...codes), ...staleWriteResponse(row) };
}

/** A list's page in the lists' wire shape (pageSchema), for a list that counts its whole total. */
export function listPage<Row>(asked: { page: number; limit: number }, found: { data: Row[]; total: number }) {
  return { data: found.data, total: found.total, page: asked.page, limit: asked.limit };
}
