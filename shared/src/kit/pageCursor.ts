import type { QueryClient, QueryKey } from '@tanstack/react-query';

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
