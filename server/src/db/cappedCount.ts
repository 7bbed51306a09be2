import { LIST_COUNT_CAP } from '@dental/shared/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { Reader } from './client';

/** A list's total: exact up to the cap, else the cap with `capped` set. */
export interface CappedTotal {
  total: number;
  capped: boolean;
}

/**
 * How many rows `rows` (a select) gives, reading at most `cap + 1` of them: a page of a large
 * clinic's list must not count hundreds of thousands of matches to say how many pages follow.
 */
export async function cappedCount(db: Reader, rows: SQL, cap = LIST_COUNT_CAP): Promise<CappedTotal> {
  const result = await db.execute(sql`select count(*) as total from (${rows} limit ${cap + 1}) as counted`);
  const total = Number((result.rows[0] as { total?: string | number } | undefined)?.total ?? 0);
  return total > cap ? { total: cap, capped: true } : { total, capped: false };
}
