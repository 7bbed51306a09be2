import {
  type ActivityRecord,
  apiRequest,
  type DashboardAppointment,
  type DashboardStat,
  ERROR_MESSAGES,
  toPage,
} from '@dental/shared';
import { useQuery } from '@dental/shared/kit';

/** The dashboard's calls (spec §7 Dashboard), each typed with the shared wire schemas. */

/** How many recent changes the dashboard card and the bell read (one request serves both). */
export const ACTIVITY_LIMIT = 20;
/** The bell follows other desks' changes this often; the dashboard follows the bell. */
export const ACTIVITY_POLL_MS = 60_000;

export const dashboardKeys = {
  all: ['dashboard'] as const,
  stats: ['dashboard', 'stats'] as const,
  today: ['dashboard', 'today'] as const,
  activity: ['dashboard', 'activity', ACTIVITY_LIMIT] as const,
};

type ListBody<T> = T[] | { data?: T[] };

export async function getDashboardStats(): Promise<DashboardStat[]> {
  const body = await apiRequest<ListBody<DashboardStat>>(
    { method: 'GET', url: '/api/dashboard/stats' },
    ERROR_MESSAGES.fetchDashboardStats,
  );
  return toPage(body).data;
}

/** Today in the clinic's time zone, every status (cancelled too), in time order. */
export async function getTodayAppointments(): Promise<DashboardAppointment[]> {
  const body = await apiRequest<ListBody<DashboardAppointment>>(
    { method: 'GET', url: '/api/dashboard/appointments/today' },
    ERROR_MESSAGES.fetchTodayAppointments,
  );
  return toPage(body).data;
}

/** The clinic's latest recorded changes, newest first. */
export async function getRecentActivity(limit: number = ACTIVITY_LIMIT): Promise<ActivityRecord[]> {
  const body = await apiRequest<ListBody<ActivityRecord>>(
    { method: 'GET', url: '/api/dashboard/activity', params: { limit } },
    ERROR_MESSAGES.fetchRecentActivity,
  );
  return toPage(body).data;
}

export function useDashboardStats() {
  return useQuery({ queryKey: dashboardKeys.stats, queryFn: getDashboardStats });
}

export function useTodayAppointments() {
  return useQuery({ queryKey: dashboardKeys.today, queryFn: getTodayAppointments });
}

/** Shared by the top bar's bell and the dashboard's card: one request, polled modestly. */
export function useRecentActivity() {
  return useQuery({
    queryKey: dashboardKeys.activity,
    queryFn: () => getRecentActivity(ACTIVITY_LIMIT),
    refetchInterval: ACTIVITY_POLL_MS,
    // The poll keeps it fresh: a screen that mounts later reuses the last answer instead of asking again.
    staleTime: ACTIVITY_POLL_MS / 2,
  });
}
