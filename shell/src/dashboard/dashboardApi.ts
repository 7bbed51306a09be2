import {
  ACTIVITY_SEEN_URL,
  type ActivityRecord,
  type ActivitySeen,
  activitySeenSchema,
  apiRequest,
  type DashboardAppointment,
  type DashboardStat,
  dashboardQueries,
  ERROR_MESSAGES,
  toPage,
} from '@dental/shared';
import { CLINIC_DATA, follows, queryOptions, useQuery } from '@dental/shared/kit';
import { ACTIVITY_LIMIT, firstRead } from '../layout/earlyReads';

/** The dashboard's calls (docs/product.md, API calls: Dashboard), each typed with the shared wire schemas. */

export { ACTIVITY_LIMIT };

/** The figures and today's visits show appointments, patients and dentists (names, counts). */
const VISITS_FOLLOW = follows('appointment', 'patient', 'dentist');
/** Every change of clinic data writes an activity record. */
const ACTIVITY_FOLLOW = follows(...CLINIC_DATA);

/** Under the shared dashboard key, which a module's write that moves the day's figures invalidates. */
export const dashboardKeys = {
  all: dashboardQueries.key,
  stats: [...dashboardQueries.key, 'stats'] as const,
  today: [...dashboardQueries.key, 'today'] as const,
  activity: [...dashboardQueries.key, 'activity', ACTIVITY_LIMIT] as const,
  /** Apart from 'dashboard': a write that makes the figures stale does not move what a user saw. */
  seen: ['activity-seen'] as const,
};

type ListBody<T> = T[] | { data?: T[] };

export async function getDashboardStats(): Promise<DashboardStat[]> {
  const body = await firstRead<ListBody<DashboardStat>>('stats', ERROR_MESSAGES.fetchDashboardStats);
  return toPage(body).data;
}

/** Today in the clinic's time zone, every status (cancelled too), in time order. */
export async function getTodayAppointments(): Promise<DashboardAppointment[]> {
  const body = await firstRead<ListBody<DashboardAppointment>>(
    'today',
    ERROR_MESSAGES.fetchTodayAppointments,
  );
  return toPage(body).data;
}

/** The clinic's latest recorded changes (ACTIVITY_LIMIT of them), newest first. */
export async function getRecentActivity(): Promise<ActivityRecord[]> {
  const body = await firstRead<ListBody<ActivityRecord>>('activity', ERROR_MESSAGES.fetchRecentActivity);
  return toPage(body).data;
}

/** The newest activity record (audit id) the signed-in user has seen, kept on the server. */
export async function getActivitySeen(): Promise<ActivitySeen> {
  return activitySeenSchema.parse(await firstRead<unknown>('seen', ERROR_MESSAGES.fetchRecentActivity));
}

/** Moves the user's marker up to this record (the server never moves it back) and answers where it is. */
export async function putActivitySeen(seenId: number): Promise<ActivitySeen> {
  const body = await apiRequest<unknown>(
    { method: 'PUT', url: ACTIVITY_SEEN_URL, data: { seen_id: seenId } },
    ERROR_MESSAGES.fetchRecentActivity,
  );
  return activitySeenSchema.parse(body);
}

export const dashboardStatsQuery = () =>
  queryOptions({ queryKey: dashboardKeys.stats, queryFn: getDashboardStats, meta: VISITS_FOLLOW });

export function useDashboardStats() {
  return useQuery(dashboardStatsQuery());
}

export const todayAppointmentsQuery = () =>
  queryOptions({ queryKey: dashboardKeys.today, queryFn: getTodayAppointments, meta: VISITS_FOLLOW });

export function useTodayAppointments() {
  return useQuery(todayAppointmentsQuery());
}

/**
 * Shared by the top bar's bell and the dashboard's card: one request, read again when another desk
 * changes something (the shell's stream of the clinic's changes), never polled.
 */
export const recentActivityQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.activity,
    queryFn: getRecentActivity,
    meta: ACTIVITY_FOLLOW,
    // The changes keep it fresh: a screen that mounts later reuses the last answer instead of asking again.
    staleTime: 5 * 60_000,
  });

export function useRecentActivity() {
  return useQuery(recentActivityQuery());
}

/** What this user has seen of the activity; another browser of theirs moving it is announced. */
export const activitySeenQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.seen,
    queryFn: getActivitySeen,
    meta: follows('activity_seen'),
    staleTime: 5 * 60_000,
  });

export function useActivitySeenMarker() {
  return useQuery(activitySeenQuery());
}
