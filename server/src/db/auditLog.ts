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
  /** The desk (browser tab) the change was made at, for live screens (migration 0026). */
  desk?: string | null;
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
    desk: entry.desk ?? null,
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
 * Gives the audit records written since the last sealing their places in their clinics' chains
 * (migration 0017: seal_audit_chain); answers how many were sealed. Safe from any number of API
 * processes at once: one seals a clinic while the others pass it by.
 */
export async function sealAuditChain(db: Database): Promise<number> {
  const { rows } = await db.execute(sql`select seal_audit_chain() as sealed`);
  return Number((rows[0] as { sealed?: number | string } | undefined)?.sealed ?? 0);
}

/** What a check of a clinic's chain found. */
export interface AuditChainCheck {
  /** Sealed records checked. */
  records: number;
  /** The first record that does not fit the chain (edited, or its neighbour deleted), or null. */
  firstUnfit: { id: number; place: number } | null;
}

/**
 * Checks a clinic's audit chain after sealing what is new: each record's hash must be that of the
 * record before it and its own fields, and the places must run 1, 2, 3… without a gap. A record
 * edited behind the API's back (the database refuses it, unless its triggers were disabled) or a
 * record removed breaks the chain there.
 */
export async function verifyAuditChain(db: Database, clinicId: number): Promise<AuditChainCheck> {
  await sealAuditChain(db);
  const { rows } = await db.execute(sql`
    with checked as (
      select a.id, a.chain_seq,
        a.hash = audit_chain_hash(coalesce(lag(a.hash) over w, ''), a) as fits,
        a.chain_seq = row_number() over w as in_place
      from audit_log a
      where a.clinic_id = ${clinicId} and a.chain_seq > 0
      window w as (order by a.chain_seq)
    )
    select (select count(*) from checked) as records,
      (select json_build_object('id', id, 'place', chain_seq) from checked
       where not fits or not in_place order by chain_seq limit 1) as first_unfit
  `);
  const row = rows[0] as {
    records: number | string;
    first_unfit: { id: number; place: number | string } | null;
  };
  return {
    records: Number(row.records),
    firstUnfit: row.first_unfit
      ? { id: Number(row.first_unfit.id), place: Number(row.first_unfit.place) }
      : null,
  };
}
