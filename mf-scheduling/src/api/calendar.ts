import {
  type Appointment,
  type AppointmentPage,
  type AppointmentWriteRequest,
  apiRequest,
  type CalendarFeedGrant,
  type CalendarFeedStatus,
  type DentistPage,
  ERROR_MESSAGES,
  PAGE_LIMIT_MAX,
} from '@dental/shared';
import { keepPreviousData, useQuery } from '@dental/shared/kit';

/** The Calendar screen's calls (spec §7), each typed with the shared schemas. */

interface MonthParams {
  month: number;
  year: number;
  dentist_id?: number;
}

export const calendarKeys = {
  // Under 'appointments': a write to an appointment anywhere refreshes the month shown.
  month: (params: MonthParams) => ['appointments', 'calendar', params] as const,
  dentists: ['dentists', 'list', { limit: PAGE_LIMIT_MAX, sort: 'name' }] as const,
};

/** One month in one request: the server answers the whole month (up to 5,000 visits) in date and time order. */
export function getCalendarAppointments(params: MonthParams): Promise<AppointmentPage> {
  return apiRequest(
    { method: 'GET', url: '/api/calendar/appointments', params },
    ERROR_MESSAGES.fetchCalendarAppointments,
  );
}

export function getDentistChoices(): Promise<DentistPage> {
  return apiRequest(
    { method: 'GET', url: '/api/dentists', params: { limit: PAGE_LIMIT_MAX, sort: 'name' } },
    ERROR_MESSAGES.fetchDentists,
  );
}

/** Moves an appointment (another day or time): the same PUT as editing it. */
export function moveAppointment(appointment: Appointment, to: { date: string; time: string }) {
  const body: AppointmentWriteRequest = {
    patient: appointment.patient,
    phone: appointment.phone,
    patient_id: appointment.patient_id,
    date: to.date,
    time: to.time,
    dentist_id: appointment.dentist_id,
    treatment: appointment.treatment as AppointmentWriteRequest['treatment'],
    notes: appointment.notes,
    status: appointment.status,
  };
  return apiRequest<Appointment>(
    { method: 'PUT', url: `/api/appointments/${appointment.id}`, data: body },
    ERROR_MESSAGES.updateAppointment,
  );
}

export function useCalendarMonth(params: MonthParams) {
  return useQuery({
    queryKey: calendarKeys.month(params),
    queryFn: () => getCalendarAppointments(params),
    placeholderData: keepPreviousData,
  });
}

/** The clinic's dentists for the dentist filter (a clinic has a few; the first hundred by name). */
export function useDentistChoices() {
  return useQuery({ queryKey: calendarKeys.dentists, queryFn: getDentistChoices, staleTime: 60_000 });
}

export const feedKeys = {
  status: (dentistId: number) => ['calendar-feed', dentistId] as const,
};

/** Whether the dentist has a live calendar feed URL (the dentist themself, or an admin). */
export function getFeedStatus(dentistId: number): Promise<CalendarFeedStatus> {
  return apiRequest(
    { method: 'GET', url: `/api/calendar/feeds/${dentistId}` },
    ERROR_MESSAGES.fetchCalendarFeed,
  );
}

/** A new private feed URL, shown this once; the old one stops working. */
export function rotateFeed(dentistId: number): Promise<CalendarFeedGrant> {
  return apiRequest(
    { method: 'POST', url: `/api/calendar/feeds/${dentistId}` },
    ERROR_MESSAGES.rotateCalendarFeed,
  );
}

export function useFeedStatus(dentistId: number | null) {
  return useQuery({
    queryKey: feedKeys.status(dentistId ?? 0),
    queryFn: () => getFeedStatus(dentistId ?? 0),
    enabled: dentistId !== null,
  });
}
