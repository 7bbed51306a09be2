import {
  createParser,
  debounce,
  type inferParserType,
  type ParserMap,
  parseAsInteger,
  parseAsString,
  parseAsStringLiteral,
  useQueryStates,
} from 'nuqs';
import { useCallback, useMemo } from 'react';
import { dateString, PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from '../domain';

/** A day `YYYY-MM-DD` in the query string; anything else reads as absent. */
export const parseAsDay = createParser({
  parse: (value: string) => (dateString.safeParse(value).success ? value : null),
  serialize: (value: string) => value,
});

/** A positive id (a dentist, a patient) in the query string. */
export const parseAsId = createParser({
  parse: (value: string) => (/^\d{1,9}$/.test(value) && Number(value) > 0 ? Number(value) : null),
  serialize: (value: number) => String(value),
});

export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100] as const;

const paging = {
  page: parseAsInteger.withDefault(1),
  pageSize: parseAsInteger.withDefault(PAGE_LIMIT_DEFAULT),
  search: parseAsString.withDefault(''),
};

type Paging = { page: number; pageSize: number; search: string };

export interface ListStateOptions<Sorts extends readonly string[], Filters extends ParserMap> {
  /** The sorts the list offers, e.g. `['date', '-date']`; the first is the default. */
  sorts: Sorts;
  /** The screen's own filters, as nuqs parsers (`parseAsStringLiteral(STATUSES)`, `parseAsDay`, ...). */
  filters: Filters;
}

export type ListState<Sorts extends readonly string[], Filters extends ParserMap> = Paging & {
  sort: Sorts[number];
} & { [K in keyof Filters]: inferParserType<Filters[K]> };

/**
 * A list screen's page, page size, search, sort and filters, kept in the query string: a reload or
 * a shared link shows the same view, and Back undoes the last filter. Changing what is shown goes
 * back to page 1. Values a hand-edited URL gets wrong read as their defaults.
 */
export function useListState<const Sorts extends readonly [string, ...string[]], Filters extends ParserMap>(
  options: ListStateOptions<Sorts, Filters>,
) {
  const { sorts, filters } = options;
  const parsers = useMemo(
    () => ({
      ...paging,
      sort: parseAsStringLiteral(sorts).withDefault(sorts[0]),
      ...filters,
    }),
    [sorts, filters],
  );
  const [values, setValues] = useQueryStates(parsers, { history: 'push' });
  const raw = values as unknown as ListState<Sorts, Filters>;
  // nuqs types each key by the merged parser map, which TypeScript cannot resolve for a generic
  // screen's filters; every key written below is one of the parsers above.
  const setRaw = setValues as unknown as (
    changes: Record<string, unknown>,
    options?: { limitUrlUpdates?: ReturnType<typeof debounce> },
  ) => Promise<URLSearchParams>;

  const state = useMemo(() => {
    const pageSize = Math.min(Math.max(raw.pageSize, 1), PAGE_LIMIT_MAX);
    return { ...raw, page: Math.max(raw.page, 1), pageSize } as ListState<Sorts, Filters>;
  }, [raw]);

  /** Sets filters (null clears one) and returns to the first page. */
  const setFilters = useCallback(
    (
      changes: Partial<{ [K in keyof Filters]: inferParserType<Filters[K]> | null }> & {
        sort?: string | null;
      },
    ) =>
      // nuqs types each key by its parser; the keys here are the screen's own filters.
      void setRaw({ ...changes, page: null }),
    [setRaw],
  );

  /** Typing in the search box: the URL follows once the user pauses, one history entry per search. */
  const setSearch = useCallback(
    (search: string) =>
      void setRaw({ search: search || null, page: null }, { limitUrlUpdates: debounce(350) }),
    [setRaw],
  );

  const setPage = useCallback(
    (page: number, pageSize?: number) =>
      void setRaw({
        page: page > 1 ? page : null,
        pageSize: pageSize && pageSize !== PAGE_LIMIT_DEFAULT ? pageSize : null,
      }),
    [setRaw],
  );

  /** Back to the screen's defaults: no search, no filter, first page. */
  const reset = useCallback(
    () => void setRaw(Object.fromEntries(Object.keys(parsers).map((key) => [key, null]))),
    [setRaw, parsers],
  );

  const isFiltered =
    state.search !== '' || Object.keys(filters).some((key) => (raw as Record<string, unknown>)[key] !== null);

  return { state, setFilters, setSearch, setPage, reset, isFiltered };
}

/** antd Table's controlled sort order of a column, from a sort like `-date`. */
export function sortOrderOf(sort: string, column: string): 'ascend' | 'descend' | null {
  if (sort === column) return 'ascend';
  if (sort === `-${column}`) return 'descend';
  return null;
}

/** The sort antd Table asks for (a column and an order) as the list's sort value, or null for the default. */
export function sortFromTable(
  sorter: { columnKey?: unknown; order?: 'ascend' | 'descend' | null } | Array<unknown>,
): string | null {
  if (Array.isArray(sorter) || !sorter.order || typeof sorter.columnKey !== 'string') return null;
  return sorter.order === 'descend' ? `-${sorter.columnKey}` : sorter.columnKey;
}

/**
 * What an empty list says: nothing while it loads, nothing when its load failed (the page's banner
 * says why, and 'No patients yet' would be untrue), else whether a filter or nothing at all left it empty.
 */
export function emptyListText(
  query: { isPending: boolean; isError: boolean },
  isFiltered: boolean,
  words: { noMatch: string; none: string },
): string {
  if (query.isPending || query.isError) return ' ';
  return isFiltered ? words.noMatch : words.none;
}

/** antd Table's pagination for a server-paged list. */
export function tablePagination(
  state: Paging,
  total: number,
  onChange: (page: number, size: number) => void,
  /** The server stopped counting at `total` (listCountCap): there are more. */
  capped = false,
) {
  return {
    current: state.page,
    pageSize: state.pageSize,
    total,
    showSizeChanger: true,
    pageSizeOptions: PAGE_SIZE_OPTIONS.map(String),
    showTotal: (count: number, [from, to]: [number, number]) =>
      `${from}-${to} of ${count}${capped ? '+' : ''}`,
    onChange,
  };
}
