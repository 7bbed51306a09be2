import { etagOf, STALE_WRITE_MESSAGE, type StaleWrite, versionOfTag } from '@dental/shared/domain';
import { httpErrors } from '@fastify/sensible';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ZodType, z } from 'zod';

/**
 * Versions (RFC 9110 conditional requests, shared/src/domain/liveDesk.ts). Every row staff edit
 * carries `version`, moved on by the database (migration 0016) whenever something visible of it
 * changes. A single row's answer says it in `ETag`; a write that names the version it was made from
 * in `If-Match` is refused with 412 and the current row when another desk has changed the row since.
 * Without `If-Match` (or with `*`) a write goes on as it always did: the spec's clients send none.
 */

/** Answers `ETag: "<version>"` on every single-row answer (a body with a numeric `version`). */
export function registerVersionTags(app: FastifyInstance): void {
  app.addHook('preSerialization', async (_request, reply, payload: unknown) => {
    // A list page (`{ data, … }`) holds many versions, none of them its own.
    if (payload && typeof payload === 'object' && !('data' in payload)) {
      const version = (payload as { version?: unknown }).version;
      if (typeof version === 'number' && reply.statusCode < 300) reply.header('ETag', etagOf(version));
    }
    return payload;
  });
}

/** Thrown inside a write's transaction when the row's version is not the one `If-Match` named. */
export class StaleVersion extends Error {
  constructor() {
    super(STALE_WRITE_MESSAGE);
  }
}

/** The version a write is made from: `If-Match`'s, or null (no header, `*`): no condition. */
export type ExpectedVersion = number | null;

/**
 * Refuses the write (StaleVersion: its transaction rolls back, nothing is written or audited) when
 * the row's version `held` is not `expected`. Called inside the write's transaction on the version
 * read with the row's lock (SELECT … FOR UPDATE, held to the commit), before anything is written: no
 * other write can land between the check and this one.
 */
export function requireVersion(held: number, expected: ExpectedVersion): void {
  if (expected !== null && held !== expected) throw new StaleVersion();
}

/** A route's 412 answer, for its response schemas (and so its OpenAPI description). */
export function staleWriteResponse<Row extends ZodType>(row: Row) {
  return { 412: z.object({ message: z.string(), current: row }) };
}

/**
 * Runs a conditional write: `write` is given the version `If-Match` names (null for none) and checks
 * it inside its transaction (requireVersion). A refused write has changed nothing; its
 * answer is 412 with the row as its GET answers it now, read after the rollback. A row deleted in
 * between answers 404 with `notFound`.
 */
export async function writeIfMatch<Result, Row>(
  request: FastifyRequest,
  reply: FastifyReply,
  options: { current: () => Promise<Row | null>; notFound: string },
  write: (expected: ExpectedVersion) => Promise<Result>,
): Promise<Result | StaleWrite<Row>> {
  const header = request.headers['if-match'];
  const expected = versionOfTag(Array.isArray(header) ? header[0] : header);
  try {
    return await write(expected);
  } catch (error) {
    if (!(error instanceof StaleVersion)) throw error;
    const current = await options.current();
    if (current === null) throw httpErrors.notFound(options.notFound);
    reply.code(412);
    return { message: STALE_WRITE_MESSAGE, current };
  }
}
