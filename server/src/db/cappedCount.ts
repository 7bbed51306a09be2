import { type SQL, sql } from 'drizzle-orm';
import type { Reader } from './client';

/** A list's total: exact up to the cap, else the cap with `capped` set. */
export interface CappedTotal {
  total: number;
  capped: boolean;
}

/**
 * How many rows `rows` (a select) gives, reading at most `cap + 1` of them (listCountCap): a page of
 * a large clinic's list must not count hundreds of thousands of matches to say how many pages follow.
 */
export async function cappedCount(db: Reader, rows: SQL, cap: number): Promise<CappedTotal> {
  const result = await db.execute(sql`select count(*) as total from (${rows} limit ${cap + 1}) as counted`);
  const total = Number((result.rows[0] as { total?: string | number } | undefined)?.total ?? 0);
  return total > cap ? { total: cap, capped: true } : { total, capped: false };
}

/**
 * The total a page already tells: a page with rows that is not full is the last one, so the list
 * holds what precedes it and its rows; the first page empty means nothing matches. Null when only a
 * count can tell (a full page, or an empty page past the first).
 */
export function totalOfPage(rowsOnPage: number, page: { offset: number; limit: number }): number | null {
  if (rowsOnPage === 0) return page.offset === 0 ? 0 : null;
  return rowsOnPage < page.limit ? page.offset + rowsOnPage : null;
}

/**
 * A page and its total: the page is read first, and the matches are counted (up to the cap) only
 * when the page cannot tell how many there are. A short list, a last page and a whole calendar month
 * are one statement.
 */
export async function pageWithTotal<T>(
  page: { offset: number; limit: number },
  readPage: () => Promise<T[]>,
  /** Up to a cap (cappedCount), or exact (a number). */
  count: () => Promise<CappedTotal | number>,
): Promise<{ data: T[] } & CappedTotal> {
  const data = await readPage();
  const known = totalOfPage(data.length, page) ?? (await count());
  return { data, ...(typeof known === 'number' ? { total: known, capped: false } : known) };
}

/** A page's rows carrying `list_total` (cappedCountColumn). */
export interface CountedRow {
  list_total?: number | string | null;
}

/**
 * A select column counting `rows` up to the cap, for a page read: PostgreSQL counts once per
 * statement (an uncorrelated subquery) and only when the page has a row, so a page and its total
 * are one statement. Where the page is short the matches are few and the count reads as few.
 */
export const cappedCountColumn = (rows: SQL, cap: number) =>
  sql`(select count(*) from (${rows} limit ${cap + 1}) as counted) as list_total`;

/**
 * The total of a page read with cappedCountColumn: from its rows; the first page empty is nothing;
 * an empty page past the first (a list that shrank, a typed URL) is counted apart.
 */
export async function totalOfCountedPage(
  rows: CountedRow[],
  page: { offset: number },
  count: () => Promise<CappedTotal>,
  cap: number,
): Promise<CappedTotal> {
  const [first] = rows;
  if (!first) return page.offset === 0 ? { total: 0, capped: false } : count();
  const total = Number(first.list_total ?? 0);
  return total > cap ? { total: cap, capped: true } : { total, capped: false };
}
