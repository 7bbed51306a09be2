import type { FastifyRequest } from 'fastify';
import type { Staff } from '../auth/staff';
import { type AuditEntry, recordAudit } from '../db/auditLog';
import type { Database } from '../db/client';

/** Who acts on a clinic's rows: the clinic that scopes the write, and the user its audit record names. */
export interface Actor {
  clinicId: number;
  userId: number;
  /** The desk (browser tab) the write came from, named in its audit record; none for the server's own work. */
  desk?: string | null;
}

/** The actor a signed-in staff member is, at the desk the request came from. */
export function actorOfStaff(
  staff: Pick<Staff, 'clinicId' | 'id'>,
  request: Pick<FastifyRequest, 'desk'>,
): Actor {
  return { clinicId: staff.clinicId, userId: staff.id, desk: request.desk };
}

/**
 * The audit record of `actor`'s write, in their clinic and under their name. Pass the write's
 * transaction, so that the record shares its fate.
 */
export function recordActorAudit(
  tx: Pick<Database, 'insert'>,
  actor: Actor,
  entry: Omit<AuditEntry, 'clinicId' | 'userId'>,
): Promise<void> {
  return recordAudit(tx, { clinicId: actor.clinicId, userId: actor.userId, desk: actor.desk, ...entry });
}
