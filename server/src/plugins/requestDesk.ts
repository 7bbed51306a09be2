import { DESK_HEADER, DESK_PATTERN } from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import { serveAtDesk } from '../db/requestDesk';

const HEADER = DESK_HEADER.toLowerCase();

/**
 * Serves each request as made at the desk its `X-Desk` names (shared/src/domain/liveDesk.ts), so the
 * audit record of what it writes, and so the change's announcement, name that desk. A header that is
 * not a desk's name is passed over: it is a hint for live screens, never a reason to refuse a call.
 */
export function registerRequestDesk(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const named = request.headers[HEADER];
    serveAtDesk(typeof named === 'string' && DESK_PATTERN.test(named) ? named : null, done);
  });
}
