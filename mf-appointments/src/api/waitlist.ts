import {
  apiRequest,
  ifMatch,
  WAITLIST_MATCHES_URL,
  WAITLIST_URL,
  type WaitlistBody,
  type WaitlistEntry,
  type WaitlistFreeTimes,
  type WaitlistMatches,
  type WaitlistMatchesQuery,
  type WaitlistPage,
  type WaitlistQuery,
  waitlistEntryUrl,
  waitlistFreeTimesUrl,
} from '@dental/shared';
import { follows, keepPreviousData, useQuery } from '@dental/shared/kit';

/** The Waitlist screen's calls and "Fill this time" (shared/src/domain/waitlist.ts). */

export type WaitlistListParams = Omit<WaitlistQuery, 'page' | 'limit'> & { page: number; limit: number };

/** An entry changes with its own writes; its free times and matches with any visit, day or setting too. */
const WAITLIST_FOLLOW = follows('waitlist', 'patient', 'dentist', 'settings');
const OFFERS_FOLLOW = follows('waitlist', 'appointment', 'dentist', 'availability', 'settings');

export const waitlistKeys = {
  all: ['waitlist'] as const,
  list: (params: WaitlistListParams) => ['waitlist', 'list', params] as const,
  freeTimes: (id: number) => ['waitlist', 'free-times', id] as const,
  matches: (freed: WaitlistMatchesQuery) => ['waitlist', 'matches', freed] as const,
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
export function useWaitlist(params: WaitlistListParams) {
  return useQuery({
    queryKey: waitlistKeys.list(params),
    meta: WAITLIST_FOLLOW,
    queryFn: () => getWaitlist(params),
    placeholderData: keepPreviousData,
  });
}

/** The entry's earliest free times now. */
export function useEntryFreeTimes(id: number) {
  return useQuery({
    queryKey: waitlistKeys.freeTimes(id),
    meta: OFFERS_FOLLOW,
    queryFn: () =>
      apiRequest<WaitlistFreeTimes>(
        { method: 'GET', url: waitlistFreeTimesUrl(id) },
        'Failed to fetch the free times',
      ),
  });
}

/** The waitlisted patients a freed time suits, best first; nothing is asked without a freed time. */
export function useFreedTimeMatches(freed: WaitlistMatchesQuery | null) {
  return useQuery({
    queryKey: waitlistKeys.matches(freed ?? { dentist_id: 0, date: '', time: '', duration: 0 }),
    meta: OFFERS_FOLLOW,
    queryFn: () =>
      apiRequest<WaitlistMatches>(
        { method: 'GET', url: WAITLIST_MATCHES_URL, params: freed ?? {} },
        'Failed to fetch the waitlist matches',
      ),
    enabled: freed !== null,
  });
}
