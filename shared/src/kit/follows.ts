import type { Query } from '@tanstack/react-query';
import { LIVE_RESOURCES, type LiveResource } from '../domain/liveDesk';

/**
 * What a read shows of the clinic, declared beside its query: `useQuery({ queryKey, queryFn, meta:
 * follows('appointment', 'patient') })`. When another desk changes one of these resources the shell
 * invalidates the read (at once if a screen shows it, else at its next use). A module declares its own
 * reads, so a module released on its own follows the desks without the shell knowing its keys.
 */
export interface LiveQueryMeta extends Record<string, unknown> {
  follows?: readonly LiveResource[];
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: LiveQueryMeta;
  }
}

export const follows = (...resources: LiveResource[]): LiveQueryMeta => ({ follows: resources });

/** Every change of clinic data (each writes an audit record): what the recent activity follows. */
export const CLINIC_DATA: readonly LiveResource[] = LIVE_RESOURCES.filter(
  (resource) => resource !== 'activity_seen',
);

/** Whether a change of this resource makes the query's data stale. */
export const queryFollows = (query: Pick<Query, 'meta'>, resource: LiveResource): boolean =>
  query.meta?.follows?.includes(resource) ?? false;
