import {
  keepPreviousData,
  type QueryClient,
  type QueryKey,
  type QueryMeta,
  queryOptions,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';

/**
 * A page's parameters, `after` the `next_cursor` of the page before when that page is in the cache:
 * the server then seeks to where the previous page ended instead of counting off every earlier
 * page's rows. The first page, a page reached by a jump, or a list that gives no cursor is asked by
 * its number alone.
 */
export function afterPreviousPage<Params extends { page?: number }>(
  queryClient: QueryClient,
  keyOf: (params: Params) => QueryKey,
  params: Params,
): Params & { after?: string } {
  const page = params.page ?? 1;
  if (page < 2) return params;
  const previous = queryClient.getQueryData<{ next_cursor?: string }>(keyOf({ ...params, page: page - 1 }));
  return previous?.next_cursor ? { ...params, after: previous.next_cursor } : params;
}

/**
 * A list read a page at a time, as a query factory: each page under `keyOf(params)`, told which
 * changes it follows (`meta`), the previous page kept on screen while the next loads, and a next
 * page after one already read asked from that page's `next_cursor`.
 */
export function pagedList<Params extends { page?: number }, Page, Key extends QueryKey>(list: {
  keyOf: (params: Params) => Key;
  meta: QueryMeta;
  getPage: (params: Params & { after?: string }) => Promise<Page>;
}) {
  return (queryClient: QueryClient, params: Params) =>
    queryOptions({
      queryKey: list.keyOf(params),
      meta: list.meta,
      queryFn: () => list.getPage(afterPreviousPage(queryClient, list.keyOf, params)),
      placeholderData: keepPreviousData,
    });
}

/** A page of a `pagedList`, read through the app's query client. */
export function usePagedList<Params extends { page?: number }, Page, Key extends QueryKey>(
  pageOf: ReturnType<typeof pagedList<Params, Page, Key>>,
  params: Params,
) {
  const queryClient = useQueryClient();
  return useQuery(pageOf(queryClient, params));
}
