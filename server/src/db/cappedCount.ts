import { type SQL, sql } from 'drizzle-orm';
import type { Reader } from './client';

/** A list's total: exact up to the cap, else the cap with `capped` set. */
export interface CappedTotal {
  total: number;
  capped: boolean;
}

/** A count read up to `cap + 1` rows, as the list's total. */
const cappedTotal = (total: number, cap: number): CappedTotal =>
  total > cap ? { total: cap, capped: true } : { total, capped: false };

/**
 * How many rows `rows` (a select) gives, reading at most `cap + 1` of them (listCountCap): a page of
 * a large clinic's list must not count hundreds of thousands of matches to say how many pages follow.
 */
export async function cappedCount(db: Reader, rows: SQL, cap: number): Promise<CappedTotal> {
  const result = await db.execute(sql`select count(*) as total from (${rows} limit ${cap + 1}) as counted`);
  return cappedTotal(Number((result.rows[0] as { total?: string | number } | undefined)?.total ?? 0), cap);
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
 * A page and its exact total: the page is read first, and the matches are counted only when the
 * page cannot tell how many there are. A short list, a last page and a whole calendar month are one
 * statement.
 */
export async function pageWithTotal<T>(
  page: { offset: number; limit: number },
  readPage: () => Promise<T[]>,
  count: () => Promise<number>,
): Promise<{ data: T[]; total: number }> {
  const data = await readPage();
  return { data, total: totalOfPage(data.length, page) ?? (await count()) };
}

/**
 * A page read in one statement with its total up to `list.cap` (listCountCap): `readPage` adds the
 * column it is given to its select, a `count(*)` of `list.matches` that PostgreSQL runs once per
 * statement (an uncorrelated subquery) and only when the page has a row; where the page is short the
 * matches are few and the count reads as few. `list.offset` is where the page starts in the matches.
 * An empty page past the first (a list that shrank, a typed URL) is counted apart.
 */
export async function readCountedPage<T>(
  db: Reader,
  list: { matches: SQL; offset: number; cap: number },
  readPage: (countColumn: SQL) => Promise<Array<T & { list_total?: number | string | null }>>,
): Promise<{ rows: T[] } & CappedTotal> {
  const rows = await readPage(
    sql`(select count(*) from (${list.matches} limit ${list.cap + 1}) as counted) as list_total`,
  );
  const [first] = rows;
  if (first) return { rows, ...cappedTotal(Number(first.list_total ?? 0), list.cap) };
  return {
    rows,
    ...(list.offset === 0 ? cappedTotal(0, list.cap) : await cappedCount(db, list.matches, list.cap)),
  };
}
