import { ACTIVITY_SEEN_URL, apiRequest, readStoredSession, readStoredToken } from '@dental/shared/session';

/**
 * The first reads of a signed-in page, sent as the page starts when a session is stored: they travel
 * while the signed-in app's code downloads instead of after it has run (docs/architecture.md, The
 * shell). Each is taken once, by the first query that asks for it while it is fresh and the session
 * is the one it was sent for (a user signed in after another never sees the other's answers); a failed
 * one is asked again by that query as any read is.
 */

/** How many recent changes the dashboard card and the bell read (one request serves both). */
export const ACTIVITY_LIMIT = 20;
/** An answer older than this is not a page's first read any more: the query asks afresh. */
const FRESH_MS = 10_000;

const READS = {
  /** The clinic's modules: the sidebar and every module screen wait for them. */
  modules: { url: '/api/modules', onDashboardOnly: false },
  /** The bell's, on every signed-in page. */
  activity: { url: '/api/dashboard/activity', params: { limit: ACTIVITY_LIMIT }, onDashboardOnly: false },
  seen: { url: ACTIVITY_SEEN_URL, onDashboardOnly: false },
  stats: { url: '/api/dashboard/stats', onDashboardOnly: true },
  today: { url: '/api/dashboard/appointments/today', onDashboardOnly: true },
} as const;
export type EarlyReadName = keyof typeof READS;

let startedAt = 0;
let sentWith: string | null = null;
const pending = new Map<EarlyReadName, Promise<unknown>>();

/** Sends the first reads of the page at `path`, if a session is stored (else sign-in comes first). */
export function startEarlyReads(path: string): void {
  const session = readStoredSession();
  if (!session) return;
  startedAt = Date.now();
  sentWith = session.token;
  for (const [name, read] of Object.entries(READS) as Array<[EarlyReadName, (typeof READS)[EarlyReadName]]>) {
    if (read.onDashboardOnly && path !== '/') continue;
    const answer = apiRequest<unknown>(
      { method: 'GET', url: read.url, params: 'params' in read ? read.params : undefined },
      '',
    );
    // Nobody may ever ask for it: its failure is the asking query's, which sends its own read.
    answer.catch(() => {});
    pending.set(name, answer);
  }
}

/** The early answer to `name` the first time it is asked for while fresh, else `request()`'s. */
export function earlyRead<T>(name: EarlyReadName, request: () => Promise<T>): Promise<T> {
  const early = pending.get(name);
  pending.delete(name);
  if (!early || Date.now() - startedAt > FRESH_MS || readStoredToken() !== sentWith) return request();
  return (early as Promise<T>).catch(() => request());
}
