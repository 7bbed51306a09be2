import type { FastifyInstance } from 'fastify';
import { auditBatchWriter } from '../db/auditBatches';
import type { Database } from '../db/client';

/** A read of records that the audit trail keeps: who read which records, and how. */
export interface ReadTrail {
  clinicId: number;
  userId: number | null;
  entity: string;
  entityId: string | null;
  details: Record<string, unknown>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by a route (or its hook) whose answer is a read the audit trail keeps. */
    readTrail: ReadTrail | null;
  }
}

/**
 * Records the read a request's answer makes before that answer leaves: a read that cannot be
 * recorded is not answered (500), so no record is read off the trail. See docs/security.md "Reads".
 */
export function registerReadTrail(app: FastifyInstance, db: Database): void {
  app.decorateRequest('readTrail', null);
  // Many desks read at once: their records share inserts and commits (db/auditBatches.ts).
  const recordRead = auditBatchWriter(db);
  app.addHook('onSend', async (request, reply, payload) => {
    const trail = request.readTrail;
    if (!trail || reply.statusCode !== 200) return payload;
    // Once: an error answer sent after a failed record passes through here again.
    request.readTrail = null;
    // `view`: on the security log, never among the changes the dashboard and the bell tell.
    await recordRead({ ...trail, action: 'view' });
    return payload;
  });
}
