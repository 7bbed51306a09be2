import { listCountCap } from '@dental/shared/domain';
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
export async function pageWithTotal<Rows extends { length: number }>(
  page: { offset: number; limit: number },
  readPage: () => Promise<Rows>,
  count: () => Promise<number>,
): Promise<{ data: Rows; total: number }> {
  const data = await readPage();
  return { data, total: totalOfPage(data.length, page) ?? (await count()) };
}

/** The table of a statement's gathered matches (see readCountedPage's `list.gatherInOrder`). */
export const GATHERED_MATCHES = sql.raw('list_matches');

/**
 * A page read in one statement with its total up to `list.cap` (listCountCap): `readPage` adds the
 * column it is given to its select, a `count(*)` of `list.matches` that PostgreSQL runs once per
 * statement (an uncorrelated subquery) and only when the page has a row; where the page is short the
 * matches are few and the count reads as few. `list.offset` is where the page starts in the matches.
 * An empty page past the first (a list that shrank, a typed URL) is counted apart.
 *
 * With `list.gatherInOrder`, the page is cut from the matches themselves: their first `cap + 1` in
 * that order are gathered once, in a materialized CTE named GATHERED_MATCHES that `readPage` is given
 * to define (`with …`) and both the page and the count read. Otherwise the statement would read
 * them twice, once to cut its page (which lies within them, as listCountCap reaches past it) and
 * once to count them. A search's matches are a union of index ranges, one per matching dentist;
 * planned and read once, the deep page of a two-letter search that matches seven dentists took
 * PostgreSQL 1.0 ms to plan and run instead of 1.6 (bench/explain.mjs).
 */
export async function readCountedPage<T>(
  db: Reader,
  list: { matches: SQL; offset: number; cap: number; gatherInOrder?: SQL },
  readPage: (
    countColumn: SQL,
    gatheredMatches?: SQL,
  ) => Promise<Array<T & { list_total?: number | string | null }>>,
): Promise<{ rows: T[] } & CappedTotal> {
  const rows = await (list.gatherInOrder
    ? readPage(
        sql`(select count(*) from ${GATHERED_MATCHES}) as list_total`,
        sql`${GATHERED_MATCHES} as materialized (
          select * from (${list.matches}) as matched order by ${list.gatherInOrder} limit ${list.cap + 1}
        )`,
      )
    : readPage(sql`(select count(*) from (${list.matches} limit ${list.cap + 1}) as counted) as list_total`));
  const [first] = rows;
  if (first) return { rows, ...cappedTotal(Number(first.list_total ?? 0), list.cap) };
  return {
    rows,
    ...(list.offset === 0 ? cappedTotal(0, list.cap) : await cappedCount(db, list.matches, list.cap)),
  };
}

/**
 * How a page of a capped list is read: from `offset` in the matches, counted up to `cap`. A page
 * asked `after` a cursor (the page before's last row) starts there: the earlier pages' rows are
 * `skipped`, neither read nor counted, and added to the total (seekPage).
 */
export interface PagePlan {
  offset: number;
  limit: number;
  cap: number;
  skipped: number;
}

export function pagePlanOf(query: { page: number; limit: number; after?: unknown }): PagePlan {
  const earlier = (query.page - 1) * query.limit;
  const skipped = query.after ? earlier : 0;
  return {
    offset: earlier - skipped,
    limit: query.limit,
    cap: listCountCap(query.page, query.limit) - skipped,
    skipped,
  };
}

/** A page of a list that can seek: its total, and its `next_cursor` when it is full (cursorOf). */
export interface SeekPage<T> extends CappedTotal {
  data: T[];
  nextCursor?: string;
}

/** The page read by `plan`, its total counted from the list's start; `cursorOf` null: no cursor. */
export function seekPage<T>(
  page: { data: T[] } & CappedTotal,
  plan: PagePlan,
  cursorOf: ((row: T) => string) | null,
): SeekPage<T> {
  const last = page.data.length === plan.limit ? page.data[plan.limit - 1] : undefined;
  return {
    ...page,
    total: page.total + plan.skipped,
    ...(last !== undefined && cursorOf ? { nextCursor: cursorOf(last) } : {}),
  };
}

/** A page in the lists' wire shape (pageSchema). */
export function pageAnswer<T>(asked: { page: number; limit: number }, page: SeekPage<T>) {
  return {
    data: page.data,
    total: page.total,
    total_capped: page.capped,
    page: asked.page,
    limit: asked.limit,
    ...(page.nextCursor ? { next_cursor: page.nextCursor } : {}),
  };
}
