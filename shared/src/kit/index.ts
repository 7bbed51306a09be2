/**
 * The module kit: what every screen is built from. Server state through TanStack Query (one client
 * from the shell), list state in the URL through nuqs. Forms live in the UI kit (`schemaRules`).
 */
export {
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useMutation,
  useQueries,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
export {
  createParser,
  parseAsInteger,
  parseAsString,
  parseAsStringLiteral,
  useQueryState,
  useQueryStates,
} from 'nuqs';
// Typing paused before a look-up: one copy of the library for every module.
export { useDebounce, useDebouncedCallback } from 'use-debounce';
export { CLINIC_DATA, follows, type LiveQueryMeta, queryFollows } from './follows';
export { formatDateTime, formatDay, initialsOf, todayDay } from './format';
export { KitProvider } from './KitProvider';
export {
  emptyListText,
  type ListState,
  PAGE_SIZE_OPTIONS,
  parseAsDay,
  parseAsId,
  sortFromTable,
  sortOrderOf,
  tablePagination,
  useListState,
} from './listState';
export {
  type LiveEvents,
  LiveEventsProvider,
  type LiveStatus,
  useClinicEvents,
  useLiveEvents,
  useLiveStatus,
} from './liveEvents';
export { mayOpen, useMayOpen } from './mayOpen';
export { afterPreviousPage, pagedList, usePagedList } from './pageCursor';
export { createQueryClient, shouldRetryRead } from './queryClient';
export { useNow } from './useNow';
