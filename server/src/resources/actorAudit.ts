import type { Staff } from '../auth/staff';
import { type AuditEntry, recordAudit } from '../db/auditLog';
import type { Database } from '../db/client';

/** Who acts on a clinic's rows: the clinic that scopes the write, and the user its audit record names. */
export interface Actor {
  clinicId: number;
  userId: number;
}

/** The actor a signed-in staff member is. */
export function actorOfStaff(staff: Pick<Staff, 'clinicId' | 'id'>): Actor {
  return { clinicId: staff.clinicId, userId: staff.id };
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
  return recordAudit(tx, { clinicId: actor.clinicId, userId: actor.userId, ...entry });
}
