import { DESK_HEADER, DESK_PATTERN } from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The desk (browser tab) the request came from, as its `X-Desk` names it
     * (shared/src/domain/liveDesk.ts); null when it names none, or not a desk's name.
     */
    desk: string | null;
  }
}

const HEADER = DESK_HEADER.toLowerCase();

/**
 * Reads the desk each request came from, for the audit record of what it writes: the change's
 * announcement then names that desk. A header that is not a desk's name is passed over: it is a hint
 * for live screens, never a reason to refuse a call.
 */
export function registerRequestDesk(app: FastifyInstance): void {
  app.decorateRequest('desk', null);
  app.addHook('onRequest', (request, _reply, done) => {
    const named = request.headers[HEADER];
    request.desk = typeof named === 'string' && DESK_PATTERN.test(named) ? named : null;
    done();
  });
}
