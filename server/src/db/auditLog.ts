import { isTimeZone } from '@dental/shared/domain';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database } from './client';
import { auditLog } from './schema';

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

/**
 * What every cached read of a clinic depends on, in one round trip: the clinic's zone (for its today) and its
 * newest audit record, one probe of the audit log's primary key. Every write to clinic data records
 * one in its own transaction, so while that has not moved, neither has anything read from the clinic's data.
 */
export async function readClinicVersion(
  db: Database,
  clinicId: number,
): Promise<{ timeZone: string; latestAuditId: number }> {
  const result = await db.execute(sql`
    select time_zone as "timeZone",
      (select coalesce(max(id), 0) from audit_log where clinic_id = ${clinicId}) as "latestAuditId"
    from clinics where id = ${clinicId}
  `);
  const row = result.rows[0] as { timeZone?: string; latestAuditId?: string | number } | undefined;
  const zone = row?.timeZone ?? 'UTC';
  return { timeZone: isTimeZone(zone) ? zone : 'UTC', latestAuditId: Number(row?.latestAuditId ?? 0) };
}
