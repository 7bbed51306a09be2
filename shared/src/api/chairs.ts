import { queryOptions } from '@tanstack/react-query';
import { CHAIRS_URL, type ChairList } from '../domain';
import { follows } from '../kit/follows';
import { apiRequest } from './client';

const FETCH_CHAIRS = 'Failed to fetch chairs';

export function getChairs(): Promise<ChairList> {
  return apiRequest({ method: 'GET', url: CHAIRS_URL }, FETCH_CHAIRS);
}

/**
 * The clinic's chairs in order (docs/product.md, Chairs): written on the Settings screen, read there,
 * by the calendar's Day view and by the booking form under one key, so a change shows on each at once.
 */
export const chairQueries = {
  key: ['chairs'] as const,
  all: () =>
    queryOptions({
      queryKey: chairQueries.key,
      queryFn: getChairs,
      // Another desk's change to a chair, or to a dentist a chair names, shows at once.
      meta: follows('chair', 'dentist'),
    }),
};
