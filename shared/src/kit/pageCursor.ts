import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * The `next_cursor` of the page before `params.page` when that page is in the cache: the page is
 * then asked `after` it, and the server seeks to where the previous page ended instead of counting
 * off every earlier page's rows. Undefined for the first page, a page reached by a jump, or a list
 * that gives no cursor: the page is then asked by its number alone.
 */
export function previousPageCursor<Params extends { page?: number }>(
  queryClient: QueryClient,
  keyOf: (params: Params) => QueryKey,
  params: Params,
): string | undefined {
  const page = params.page ?? 1;
  if (page < 2) return undefined;
  const previous = queryClient.getQueryData<{ next_cursor?: string }>(keyOf({ ...params, page: page - 1 }));
  return previous?.next_cursor;
}
