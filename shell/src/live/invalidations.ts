import type { ClinicEvent } from '@dental/shared';
import { type QueryClient, queryFollows } from '@dental/shared/kit';

/**
 * A change at any desk, turned into the module kit's invalidations: every read whose query declares
 * that it follows the changed resource (`meta: follows(...)`, beside each module's query) is stale.
 * Reads on screen are read again at once; the others are read when next shown. A change of what one
 * user has seen of the bell (`activity_seen`) concerns only that user's screens.
 */
export function invalidateForChange(
  client: QueryClient,
  event: ClinicEvent,
  userId: number | undefined,
): void {
  if (event.resource === 'activity_seen' && event.id !== userId) return;
  void client.invalidateQueries({
    predicate: (query) => queryFollows(query, event.resource),
    refetchType: 'active',
  });
}

/** The stream could not replay what was missed: every read is stale, those on screen are read again. */
export function invalidateEverything(client: QueryClient): void {
  void client.invalidateQueries({ refetchType: 'active' });
}
