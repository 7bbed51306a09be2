import { ACTIVITY_SEEN_URL, apiRequest, readStoredSession, readStoredToken } from '@dental/shared/session';

/**
 * The first reads of a signed-in page, sent as the page starts when a session is stored: they travel
 * while the signed-in app's code downloads instead of after it has run (docs/architecture.md, The
 * shell). Each read is written here once; its query asks for it through `firstRead`, which takes the
 * early answer once, while fresh and for the session it was sent for (a user signed in after another
 * never sees the other's answers), and otherwise asks the server as any read does.
 */

/** How many recent changes the dashboard card and the bell read (one request serves both). */
export const ACTIVITY_LIMIT = 20;
/** An answer older than this is not a page's first read any more: the query asks afresh. */
const FRESH_MS = 10_000;

const READS = {
  /** The clinic's modules: the sidebar and every module screen wait for them. */
  modules: { request: { method: 'GET', url: '/api/modules' }, onDashboardOnly: false },
  /** The bell's, on every signed-in page. */
  activity: {
    request: { method: 'GET', url: '/api/dashboard/activity', params: { limit: ACTIVITY_LIMIT } },
    onDashboardOnly: false,
  },
  seen: { request: { method: 'GET', url: ACTIVITY_SEEN_URL }, onDashboardOnly: false },
  stats: { request: { method: 'GET', url: '/api/dashboard/stats' }, onDashboardOnly: true },
  today: { request: { method: 'GET', url: '/api/dashboard/appointments/today' }, onDashboardOnly: true },
} as const;
export type FirstReadName = keyof typeof READS;

let startedAt = 0;
let sentWith: string | null = null;
const pending = new Map<FirstReadName, Promise<unknown>>();

/** Sends the first reads of the page at `path`, if a session is stored (else sign-in comes first). */
export function startEarlyReads(path: string): void {
  const session = readStoredSession();
  if (!session) return;
  startedAt = Date.now();
  sentWith = session.token;
  for (const [name, read] of Object.entries(READS) as Array<[FirstReadName, (typeof READS)[FirstReadName]]>) {
    if (read.onDashboardOnly && path !== '/') continue;
    const answer = apiRequest<unknown>(read.request, '');
    // Nobody may ever ask for it: its failure is the asking query's, which sends its own read.
    answer.catch(() => {});
    pending.set(name, answer);
  }
}

/** The read `name`: its early answer the first time it is asked for while fresh, else the server's. */
export function firstRead<T>(name: FirstReadName, fallback: string): Promise<T> {
  const ask = () => apiRequest<T>(READS[name].request, fallback);
  const early = pending.get(name);
  pending.delete(name);
  if (!early || Date.now() - startedAt > FRESH_MS || readStoredToken() !== sentWith) return ask();
  return (early as Promise<T>).catch(ask);
}
