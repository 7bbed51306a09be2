import { type FreeTimesAsked, freeTimesQueries } from '@dental/shared';
import { useQuery } from '@dental/shared/kit';

/** The times a dentist can still take a visit of some length on a day (GET /api/dentists/:id/free-times). */

export type { FreeTimesAsked };

/** Every free-times read, the calendar's open hours too: a booking here reads them again. */
export const freeTimesKeys = { all: freeTimesQueries.key };

/** The free times once dentist, day and length are chosen; none while any is missing. */
export function useFreeTimes(asked: FreeTimesAsked | null) {
  return useQuery(freeTimesQueries.of(asked));
}
