import {
  apiRequest,
  ifMatch,
  WAITLIST_URL,
  type WaitlistBody,
  type WaitlistEntry,
  type WaitlistFreeTimes,
  type WaitlistPage,
  type WaitlistQuery,
  waitlistEntryUrl,
  waitlistFreeTimesUrl,
  waitlistQueries,
} from '@dental/shared';
import { follows, keepPreviousData, queryOptions, useQuery } from '@dental/shared/kit';

/** The Waitlist screen's calls (shared/src/domain/waitlist.ts); "Fill this time" is the UI kit's. */

export type WaitlistListParams = Omit<WaitlistQuery, 'page' | 'limit'> & { page: number; limit: number };

/** An entry changes with its own writes; its free times and matches with any visit, day or setting too. */
const WAITLIST_FOLLOW = follows('waitlist', 'patient', 'dentist', 'settings');
const OFFERS_FOLLOW = follows('waitlist', 'appointment', 'dentist', 'availability', 'settings');

/** Under the shared waitlist key, with a freed time's matches: a write here reads them all again. */
export const waitlistKeys = {
  all: waitlistQueries.key,
  list: (params: WaitlistListParams) => [...waitlistQueries.key, 'list', params] as const,
  freeTimes: (id: number) => [...waitlistQueries.key, 'free-times', id] as const,
};

export function getWaitlist(params: WaitlistListParams): Promise<WaitlistPage> {
  return apiRequest({ method: 'GET', url: WAITLIST_URL, params }, 'Failed to fetch the waitlist');
}

export function getWaitlistEntry(id: number): Promise<WaitlistEntry> {
  return apiRequest({ method: 'GET', url: waitlistEntryUrl(id) }, 'Failed to fetch the waitlist entry');
}

export function createWaitlistEntry(body: WaitlistBody): Promise<WaitlistEntry> {
  return apiRequest({ method: 'POST', url: WAITLIST_URL, data: body }, 'Failed to add to the waitlist');
}

/** Saves the entry as shown at `version` (If-Match): a newer one meanwhile is refused with 412. */
export function updateWaitlistEntry(
  id: number,
  body: WaitlistBody,
  version?: number,
): Promise<WaitlistEntry> {
  return apiRequest(
    { method: 'PUT', url: waitlistEntryUrl(id), data: body, headers: ifMatch(version) },
    'Failed to save the waitlist entry',
  );
}

export function deleteWaitlistEntry(id: number, version?: number): Promise<{ message: string }> {
  return apiRequest(
    { method: 'DELETE', url: waitlistEntryUrl(id), headers: ifMatch(version) },
    'Failed to take the patient off the waitlist',
  );
}

/** One page of the waitlist, oldest entry first; the previous page stays while the next loads. */
export const waitlistQuery = (params: WaitlistListParams) =>
  queryOptions({
    queryKey: waitlistKeys.list(params),
    meta: WAITLIST_FOLLOW,
    queryFn: () => getWaitlist(params),
    placeholderData: keepPreviousData,
  });

export function useWaitlist(params: WaitlistListParams) {
  return useQuery(waitlistQuery(params));
}

/** The entry's earliest free times now. */
export const entryFreeTimesQuery = (id: number) =>
  queryOptions({
    queryKey: waitlistKeys.freeTimes(id),
    meta: OFFERS_FOLLOW,
    queryFn: () =>
      apiRequest<WaitlistFreeTimes>(
        { method: 'GET', url: waitlistFreeTimesUrl(id) },
        'Failed to fetch the free times',
      ),
  });

export function useEntryFreeTimes(id: number) {
  return useQuery(entryFreeTimesQuery(id));
}
