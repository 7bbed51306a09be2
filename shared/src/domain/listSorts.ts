import { z } from 'zod';

/** A list's order by one field: ascending (`name`), or descending with a '-' (`-name`). */
export type SortOf<Field extends string> = Field | `-${Field}`;

/**
 * A list's orders: each field ascending, then descending ('name', '-name', …); the first is the
 * default order (the server's, and the list screen's).
 */
export function sortsOf<const Fields extends readonly [string, ...string[]]>(fields: Fields) {
  return fields.flatMap((field) => [field, `-${field}`]) as unknown as readonly [
    SortOf<Fields[number]>,
    ...SortOf<Fields[number]>[],
  ];
}

/** A list query's `sort`: one of the list's orders, or none for the default. */
export function sortField<const Sorts extends readonly [string, ...string[]]>(sorts: Sorts) {
  return z.enum(sorts, { message: `sort must be one of ${sorts.join(', ')}` }).optional();
}

/**
 * The list query's rule for `after` (the previous page's `next_cursor`): a page starts at a cursor
 * only in the orders that seek, `order` and its reverse (`name`, `-name`); no `sort` is `order`.
 * For a list query's `.refine(...afterOnlyWhenSeeking('name', SEEKING_SORTS))`.
 */
export function afterOnlyWhenSeeking(
  order: string,
  seeking: ReadonlySet<string>,
): [
  check: (query: { after?: unknown; sort?: string }) => boolean,
  params: { message: string; path: string[] },
] {
  return [
    (query) => !query.after || seeking.has(query.sort ?? order),
    { message: `after is for the ${order} orders (sort ${order} or -${order})`, path: ['after'] },
  ];
}
