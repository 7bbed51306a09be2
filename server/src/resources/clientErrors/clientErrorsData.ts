import {
  CLIENT_ERRORS_WINDOW_HOURS,
  type ClientErrorCounts,
  type ClientErrorReport,
  type ModuleId,
} from '@dental/shared/domain';
import { sql } from 'drizzle-orm';
import type { Database, Reader } from '../../db/client';
import { clientErrors } from '../../db/schema';

/** Keeps a module failure a staff browser reported. */
export async function recordClientError(
  db: Database,
  clinicId: number,
  userId: number,
  report: ClientErrorReport,
): Promise<void> {
  await db.insert(clientErrors).values({
    clinicId,
    userId,
    moduleId: report.module,
    release: report.release,
    phase: report.phase,
    message: report.message,
  });
}

/** Each module's failures in the clinic over the last day, through the recent-failures index. */
export async function clientErrorCounts(db: Reader, clinicId: number): Promise<ClientErrorCounts> {
  const result = await db.execute(sql`
    select module_id, count(*)::int as count, max(created_at) as last_at
    from client_errors
    where clinic_id = ${clinicId} and created_at > now() - make_interval(hours => ${CLIENT_ERRORS_WINDOW_HOURS})
    group by module_id order by module_id`);
  const rows = result.rows as Array<{ module_id: string; count: number | string; last_at: string | Date }>;
  return {
    data: rows.map((row) => ({
      module: row.module_id as ModuleId,
      count: Number(row.count),
      last_at: new Date(row.last_at).toISOString(),
    })),
  };
}
