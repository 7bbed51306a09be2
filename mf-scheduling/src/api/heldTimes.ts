import { apiRequest, type HeldTimes } from '@dental/shared';
import { follows, queryOptions, useQuery } from '@dental/shared/kit';

/** A hold is made or let go on the booking page, or becomes a visit: the day's held times are read again. */
const HELD_FOLLOW = follows('booking_hold', 'appointment');
/** A hold also lets go by itself, with no change to tell: the list is read again this often. */
const HELD_REFRESH_MS = 30_000;

/** The times patients hold on the booking page on a day (docs/product.md, Online booking). */
export function getHeldTimes(date: string): Promise<HeldTimes> {
  return apiRequest(
    { method: 'GET', url: '/api/held-times', params: { date } },
    'Failed to load the times held online',
  );
}

export const heldTimesQuery = (date: string) =>
  queryOptions({
    queryKey: ['held-times', date] as const,
    meta: HELD_FOLLOW,
    queryFn: () => getHeldTimes(date),
    refetchInterval: HELD_REFRESH_MS,
  });

/** The Day view's held times; nothing is read for the other views. */
export function useHeldTimes(date: string, enabled: boolean) {
  return useQuery({ ...heldTimesQuery(date), enabled });
}
