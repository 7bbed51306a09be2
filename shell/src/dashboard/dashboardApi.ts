import { type AppointmentStatus, apiRequest, ERROR_MESSAGES, toPage } from '@dental/shared';

export interface StatCard {
  name: string;
  value: string | number;
  change: string;
  changeType: 'positive' | 'negative';
}

export interface TodayAppointment {
  id: number;
  patient: string;
  treatment: string;
  time: string;
  status: AppointmentStatus;
  dentist_name?: string;
}

export async function fetchDashboardStats(): Promise<StatCard[]> {
  const body = await apiRequest<StatCard[] | { data: StatCard[] }>(
    { method: 'GET', url: '/api/dashboard/stats' },
    ERROR_MESSAGES.fetchDashboardStats,
  );
  return toPage(body).data;
}

export async function fetchTodayAppointments(): Promise<TodayAppointment[]> {
  const body = await apiRequest<TodayAppointment[] | { data: TodayAppointment[] }>(
    { method: 'GET', url: '/api/dashboard/appointments/today' },
    ERROR_MESSAGES.fetchTodayAppointments,
  );
  return toPage(body).data;
}
