import type { AuditRecord } from '@dental/shared/domain';
import { type auditQuerySchema, listCountCap } from '@dental/shared/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { type CappedTotal, cappedCount } from '../../db/cappedCount';
import type { Database } from '../../db/client';
import { addDays, clinicTimeZone, zonedInstant } from '../../db/clinicTime';

type Filters = z.output<typeof auditQuerySchema>;
type CsvFilters = Omit<Filters, 'page' | 'limit'>;

/** The most records one CSV download holds. */
export const AUDIT_CSV_MAX = 10_000;

/** The filters as one condition on `audit_log a`, the days taken in the clinic's time zone. */
async function whereOf(db: Database, clinicId: number, filters: CsvFilters): Promise<SQL> {
  const conditions: SQL[] = [sql`a.clinic_id = ${clinicId}`];
  if (filters.user_id !== undefined) conditions.push(sql`a.user_id = ${filters.user_id}`);
  if (filters.patient_id !== undefined)
    // Their record's own rows, and the lists and searches that showed them (plugins/readTrail.ts).
    conditions.push(
      sql`a.entity = 'patient' and (a.entity_id = ${String(filters.patient_id)} or (a.entity_id is null and a.details -> 'patients' @> ${JSON.stringify([filters.patient_id])}::jsonb))`,
    );
  if (filters.action) conditions.push(sql`a.action = ${filters.action}`);
  if (filters.from || filters.to) {
    const zone = await clinicTimeZone(db, clinicId);
    if (filters.from) conditions.push(sql`a.created_at >= ${zonedInstant(filters.from, '00:00', zone)}`);
    if (filters.to)
      conditions.push(sql`a.created_at < ${zonedInstant(addDays(filters.to, 1), '00:00', zone)}`);
  }
  return sql.join(conditions, sql` and `);
}

const recordColumns = sql`
  a.id, a.chain_seq as place, a.created_at, a.user_id, u.name as user_name, a.action, a.entity,
  a.entity_id, a.details`;

interface RawRecord {
  id: number;
  place: number | string;
  created_at: Date | string;
  user_id: number | null;
  user_name: string | null;
  action: string;
  entity: string;
  entity_id: string | null;
  details: Record<string, unknown> | null;
}

const toRecord = (row: RawRecord): AuditRecord => ({
  id: row.id,
  place: Number(row.place),
  created_at: new Date(row.created_at).toISOString(),
  user_id: row.user_id,
  user_name: row.user_name,
  action: row.action,
  entity: row.entity,
  entity_id: row.entity_id,
  details: row.details,
});

/** The records `where` shows, newest first, the part of them `range` (limit, offset) says. */
async function recordsWhere(db: Database, where: SQL, range: SQL): Promise<AuditRecord[]> {
  const { rows } = await db.execute(sql`
    select ${recordColumns}
    from audit_log a left join users u on u.clinic_id = a.clinic_id and u.id = a.user_id
    where ${where}
    order by a.created_at desc, a.id desc
    ${range}
  `);
  return (rows as unknown as RawRecord[]).map(toRecord);
}

/** A page of the clinic's audit records, newest first, with its total (capped as every list's). */
export async function listAudit(
  db: Database,
  clinicId: number,
  filters: Filters,
): Promise<{ data: AuditRecord[]; total: CappedTotal }> {
  const where = await whereOf(db, clinicId, filters);
  const data = await recordsWhere(
    db,
    where,
    sql`limit ${filters.limit} offset ${(filters.page - 1) * filters.limit}`,
  );
  const total = await cappedCount(
    db,
    sql`select 1 from audit_log a where ${where}`,
    listCountCap(filters.page, filters.limit),
  );
  return { data, total };
}

/** Every record the filters show (up to AUDIT_CSV_MAX), newest first, as CSV. */
export async function auditCsv(db: Database, clinicId: number, filters: CsvFilters): Promise<string> {
  const records = await recordsWhere(db, await whereOf(db, clinicId, filters), sql`limit ${AUDIT_CSV_MAX}`);
  const cell = (value: unknown) => {
    const raw =
      value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
    // A spreadsheet runs a cell that starts with = + - @ (or a tab or return) as a formula: a staff
    // name or a typed detail must read as text (OWASP CSV injection), so such a cell starts with '.
    const text = /^[=+\-@\t\r]/.test(raw) ? `'${raw}` : raw;
    return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const lines = [
    ['id', 'place', 'when', 'user_id', 'user', 'action', 'entity', 'entity_id', 'details'].join(','),
  ];
  for (const record of records) {
    lines.push(
      [
        record.id,
        record.place,
        record.created_at,
        record.user_id,
        record.user_name,
        record.action,
        record.entity,
        record.entity_id,
        record.details,
      ]
        .map(cell)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
