import type { Role } from '@dental/shared/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ZodType, z } from 'zod';
import type { Guard } from '../auth/guard';
import { errorResponses, HttpError } from '../plugins/errors';
import { type ExpectedVersion, staleWriteResponse, writeIfMatch } from '../plugins/versions';

/**
 * What the routes of one kind of clinic row (a patient, a dentist, a user, a visit, an availability
 * day) have in common, so that each resource's routes file says only what is its own: who a request
 * acts for, the row of `:id` or 404, and writes under `If-Match`.
 */

/** Who a request acts for: the clinic that scopes every query, the user the audit names, their role. */
export interface RequestActor {
  clinicId: number;
  userId: number;
  role: Role;
}

type RowRequest = FastifyRequest<{ Params: { id: number } }>;

/** `find` reads one row of a clinic as GET answers it; `notFound` is the 404's message. */
export function rowRoutes<Row>(
  guard: Guard,
  find: (clinicId: number, id: number) => Promise<Row | null>,
  notFound: string,
) {
  const actorOf = (request: FastifyRequest): RequestActor => {
    const staff = guard.staffOf(request);
    return { clinicId: staff.clinicId, userId: staff.id, role: staff.role };
  };
  // A write refused for a stale If-Match answers the row as GET answers it now (read after the rollback).
  const current = (request: RowRequest) => ({
    current: () => find(actorOf(request).clinicId, request.params.id),
    notFound,
  });
  return {
    actorOf,
    /** The row of `:id` in the requester's clinic; 404 when the clinic has none. */
    async rowOf(request: RowRequest): Promise<Row> {
      const row = await find(actorOf(request).clinicId, request.params.id);
      if (!row) throw new HttpError(404, notFound);
      return row;
    },
    /** Runs `write` with the version `If-Match` names (see writeIfMatch). */
    writeIfMatch<Result>(
      request: RowRequest,
      reply: FastifyReply,
      write: (expected: ExpectedVersion) => Promise<Result>,
    ) {
      return writeIfMatch(request, reply, current(request), write);
    },
    /** A delete under `If-Match`: answers `{ message }` once `remove` has run. */
    deleteIfMatch(
      request: RowRequest,
      reply: FastifyReply,
      remove: (expected: ExpectedVersion) => Promise<unknown>,
      message: string,
    ) {
      return writeIfMatch(request, reply, current(request), async (expected) => {
        await remove(expected);
        return { message };
      });
    },
  };
}

type ErrorCode = Parameters<typeof errorResponses>[0];

/** The answers of a write under `If-Match`, for its schema: the row, `codes`, and 412 with the current row. */
export function versionedWriteResponses<Row extends ZodType, Code extends ErrorCode>(
  row: Row,
  ...codes: Code[]
) {
  return { 200: row, ...errorResponses(...codes), ...staleWriteResponse(row) };
}

/** The answers of a delete under `If-Match`: `{ message }`, `codes`, and 412 with the current row. */
export function versionedDeleteResponses<Row extends ZodType, Code extends ErrorCode>(
  row: Row,
  ...codes: Code[]
) {
  return { 200: z.object({ message: z.string() }), ...errorResponses(...codes), ...staleWriteResponse(row) };
}

/** A list's page in the lists' wire shape (pageSchema), for a list that counts its whole total. */
export function listPage<Row>(asked: { page: number; limit: number }, found: { data: Row[]; total: number }) {
  return { data: found.data, total: found.total, page: asked.page, limit: asked.limit };
}
