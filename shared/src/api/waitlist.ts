import { queryOptions } from '@tanstack/react-query';
import { WAITLIST_MATCHES_URL, type WaitlistMatches, type WaitlistMatchesQuery } from '../domain';
import { follows } from '../kit/follows';
import { apiRequest } from './client';

const NO_FREED_TIME: WaitlistMatchesQuery = { dentist_id: 0, date: '', time: '', duration: 0 };

/**
 * The waitlist's reads (docs/product.md, Waitlist). `key` starts every one of them, so a write to
 * the waitlist at this desk reads its list, an entry's free times and a freed time's matches again.
 */
export const waitlistQueries = {
  key: ['waitlist'] as const,
  /** The waitlisted patients a freed time suits, best first; nothing is asked without a freed time. */
  matches: (freed: WaitlistMatchesQuery | null) =>
    queryOptions({
      queryKey: [...waitlistQueries.key, 'matches', freed ?? NO_FREED_TIME] as const,
      queryFn: () =>
        apiRequest<WaitlistMatches>(
          { method: 'GET', url: WAITLIST_MATCHES_URL, params: freed ?? {} },
          'Failed to fetch the waitlist matches',
        ),
      enabled: freed !== null,
      // A freed time's matches change with any visit, day, dentist or setting, and with the waitlist.
      meta: follows('waitlist', 'appointment', 'dentist', 'availability', 'settings'),
    }),
};
