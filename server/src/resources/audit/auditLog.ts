import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/client';
import { auditLog } from '../../db/schema';

export interface AuditEntry {
  clinicId: number;
  userId: number | null;
  action: string;
  entity: string;
  entityId?: string | number | null;
  details?: Record<string, unknown>;
}

/** Who did what to which row, and when (UTC). Pass the transaction so the record shares its fate. */
export async function recordAudit(db: Pick<Database, 'insert'>, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    clinicId: entry.clinicId,
    userId: entry.userId,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId === undefined || entry.entityId === null ? null : String(entry.entityId),
    details: entry.details ?? null,
  });
}

/**
 * A refused call (403) of a signed-in staff member: the route, the row it named (its `:id`), the
 * method and why it was refused.
 */
export async function recordRefusal(
  db: Pick<Database, 'insert'>,
  request: FastifyRequest,
  staff: { clinicId: number; id: number },
  details: Record<string, unknown>,
): Promise<void> {
  const params = request.params as { id?: unknown } | undefined;
  await recordAudit(db, {
    clinicId: staff.clinicId,
    userId: staff.id,
    action: 'access_denied',
    entity: request.routeOptions.url ?? request.url,
    entityId: typeof params?.id === 'string' || typeof params?.id === 'number' ? params.id : null,
    details: { method: request.method, ...details },
  });
}
