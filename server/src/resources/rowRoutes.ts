import { idParamsSchema, type Role } from '@dental/shared/domain';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { type ZodType, z } from 'zod';
import type { Guard } from '../auth/guard';
import { pageAnswer, type SeekPage } from '../db/cappedCount';
import type { Database } from '../db/client';
import { SECURITY } from '../plugins/apiDocs';
import { errorResponses } from '../plugins/errors';
import { type ExpectedVersion, staleWriteResponse, writeIfMatch } from '../plugins/versions';
import { type Actor, actorOfStaff } from './actorAudit';

/**
 * What the routes of one kind of clinic row (a patient, a dentist, a user, a visit, an availability
 * day) have in common, so that each resource's routes file says only what is its own: who a request
 * acts for, the clinic's page of rows, the row of `:id` or 404, a new row (201), and writes and
 * deletes under `If-Match`. The routes call the resource's data functions, which all take the
 * database and who acts first, then the row's id, the body and the version the write names.
 */

/**
 * Who a request acts for: the clinic that scopes every query, the user the audit names, their role,
 * and the dentist record a dentist's account is linked to.
 */
export interface RequestActor extends Actor {
  role: Role;
  dentistId: number | null;
}

/** What a list read finds: its page of rows and their total (capped, with a cursor, for the largest lists). */
type Found<Row> = { data: Row[]; total: number } | SeekPage<Row>;

/** A list's query: which page, how long. */
type PagedQuery = ZodType<{ page: number; limit: number }>;

/** A found page as the lists' wire shape answers it. */
const pageOf = <Row>(asked: { page: number; limit: number }, found: Found<Row>) =>
  'capped' in found ? pageAnswer(asked, found) : listPage(asked, found);

type RowRequest = FastifyRequest<{ Params: { id: number } }>;

type ErrorCode = Parameters<typeof errorResponses>[0];

/** One kind of row: where its routes live and how GET reads one. */
interface RowKind<Schema extends ZodType> {
  /** The collection's path (`/api/users`); a row is `${path}/:id`. */
  path: string;
  /** The API docs' group; default the path's last part (`users`). */
  tags?: string[];
  /** The row's wire schema: GET's answer, a write's answer and a 412's `current`. */
  schema: Schema;
  /** Reads one row of a clinic as GET answers it. */
  find: (db: Database, clinicId: number, id: number) => Promise<z.output<Schema> | null>;
  /** The 404's message. */
  notFound: string;
}

/** What every route of a row declares for itself: who may call it, what it does, how it can fail. */
interface RowRouteOptions<Code extends ErrorCode> {
  onRequest: onRequestAsyncHookHandler;
  summary: string;
  codes: Code[];
}

/**
 * A query or body as its route's schema parsed it. Fastify types them through conditional types
 * that TypeScript cannot resolve while the schema is still a type parameter (as here).
 */
const parsed = <Value>(value: unknown): Value => value as Value;

/**
 * Declares the routes of one kind of row on `app`, in the order they are called. The handlers are
 * typed here by hand (the row as `kind.schema`'s output, the body as the route's) rather than by the
 * zod type provider, which cannot resolve a schema that is still a type parameter.
 */
export function rowRoutes<Schema extends ZodType>(
  app: FastifyInstance,
  guard: Guard,
  db: Database,
  kind: RowKind<Schema>,
) {
  type Row = z.output<Schema>;
  const rowPath = `${kind.path}/:id`;
  const tags = kind.tags ?? [kind.path.slice(kind.path.lastIndexOf('/') + 1)];
  const actorOf = (request: FastifyRequest): RequestActor => {
    const staff = guard.staffOf(request);
    return { ...actorOfStaff(staff, request), role: staff.role, dentistId: staff.dentistId };
  };
  const find = (request: RowRequest) => kind.find(db, actorOf(request).clinicId, request.params.id);
  // A write refused for a stale If-Match answers the row as GET answers it now (read after the rollback).
  const current = (request: RowRequest) => ({ current: () => find(request), notFound: kind.notFound });
  /** A route's options: its guard, and its schema with what every route of the row declares. */
  const declared = <Parts extends object>(options: RowRouteOptions<ErrorCode>, parts: Parts) => ({
    onRequest: options.onRequest,
    schema: { tags, summary: options.summary, security: SECURITY, ...parts },
  });
  return {
    actorOf,
    /** GET `${path}`: a page of the clinic's rows, `read` finding it for the query. */
    getList<Query extends PagedQuery, Page extends ZodType, Code extends ErrorCode>(
      options: RowRouteOptions<Code> & {
        /** Answered from the clinic's read cache (plugins/readCache.ts). */
        cached?: boolean;
        query: Query;
        page: Page;
        read: (db: Database, clinicId: number, query: z.output<Query>) => Promise<Found<unknown>>;
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
        async (request) => {
          const query = parsed<z.output<Query>>(request.query);
          return pageOf(query, await options.read(db, actorOf(request).clinicId, query));
        },
      );
    },
    /** GET `${path}/:id/${suffix}`: a page of what the row of `:id` has (a dentist's visits). */
    listOf<Query extends PagedQuery, Page extends ZodType, Code extends ErrorCode>(
      options: RowRouteOptions<Code> & {
        suffix: string;
        cached?: boolean;
        query: Query;
        page: Page;
        read: (db: Database, clinicId: number, id: number, query: z.output<Query>) => Promise<Found<unknown>>;
      },
    ) {
      app.get<{ Params: { id: number }; Querystring: z.output<Query> }>(
        `${rowPath}/${options.suffix}`,
        {
          ...(options.cached ? { config: { clinicReadCache: true } } : {}),
          ...declared(options, {
            params: idParamsSchema,
            querystring: options.query,
            response: { 200: options.page, ...errorResponses(...options.codes) },
          }),
        },
        async (request) => {
          const query = parsed<z.output<Query>>(request.query);
          return pageOf(query, await options.read(db, actorOf(request).clinicId, request.params.id, query));
        },
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
          const row = await find(request);
          if (!row) throw app.httpErrors.notFound(kind.notFound);
          return row;
        },
      );
    },
    /** POST `${path}`: answers 201 with the row `create` made. */
    createOne<Body extends ZodType, Code extends ErrorCode>(
      options: RowRouteOptions<Code> & {
        body: Body;
        create: (db: Database, actor: RequestActor, body: z.output<Body>) => Promise<Row>;
      },
    ) {
      app.post<{ Body: z.output<Body> }>(
        kind.path,
        declared(options, {
          body: options.body,
          response: { 201: kind.schema, ...errorResponses(...options.codes) },
        }),
        async (request, reply) =>
          reply
            .code(201)
            .send(await options.create(db, actorOf(request), parsed<z.output<Body>>(request.body))),
      );
    },
    /**
     * A write of the row of `:id` under `If-Match` (see writeIfMatch), at `${path}/:id` or
     * `${path}/:id/${suffix}`: answers the row as `write` leaves it, 412 with the current row.
     */
    writeOne<Body extends ZodType, Code extends ErrorCode, Query extends ZodType = ZodType<unknown>>(
      options: RowRouteOptions<Code> & {
        method: 'PUT' | 'PATCH';
        suffix?: string;
        body: Body;
        /** The write's query string, when it takes one (a series visit's `scope`). */
        query?: Query;
        write: (
          db: Database,
          actor: RequestActor,
          id: number,
          body: z.output<Body>,
          expected: ExpectedVersion,
          query: z.output<Query>,
        ) => Promise<Row>;
      },
    ) {
      app.route<{ Params: { id: number }; Body: z.output<Body>; Querystring: z.output<Query> }>({
        method: options.method,
        url: options.suffix ? `${rowPath}/${options.suffix}` : rowPath,
        ...declared(options, {
          params: idParamsSchema,
          ...(options.query ? { querystring: options.query } : {}),
          body: options.body,
          response: versionedWriteResponses(kind.schema, ...options.codes),
        }),
        handler: async (request, reply) =>
          writeIfMatch(request, reply, current(request), (expected) =>
            options.write(
              db,
              actorOf(request),
              request.params.id,
              parsed<z.output<Body>>(request.body),
              expected,
              parsed<z.output<Query>>(request.query),
            ),
          ),
      });
    },
    /** DELETE `${path}/:id` under `If-Match`: answers `{ message }` once `remove` has run. */
    deleteOne<Code extends ErrorCode>(
      options: RowRouteOptions<Code> & {
        remove: (
          db: Database,
          actor: RequestActor,
          id: number,
          expected: ExpectedVersion,
        ) => Promise<unknown>;
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
            await options.remove(db, actorOf(request), request.params.id, expected);
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
