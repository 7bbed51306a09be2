import {
  type Appointment,
  type AppointmentPage,
  type AppointmentWriteRequest,
  apiRequest,
  type CalendarFeedGrant,
  type CalendarFeedStatus,
  type DentistPage,
  ERROR_MESSAGES,
  type FreeTimes,
  ifMatch,
  minutesOf,
  PAGE_LIMIT_MAX,
  type Span,
  VISIT_MINUTES_MIN,
} from '@dental/shared';
import { follows, keepPreviousData, useQueries, useQuery } from '@dental/shared/kit';

/** The Calendar screen's calls (spec §7), each typed with the shared schemas. */

interface MonthParams {
  month: number;
  year: number;
  dentist_id?: number;
}

/** What other desks change that these reads show: the shell invalidates them on those changes. */
const CALENDAR_FOLLOW = follows('appointment', 'patient', 'dentist', 'availability', 'settings');
const DENTISTS_FOLLOW = follows('dentist');

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

/** Where a visit is moved: another day, time or dentist. */
export interface MoveTarget {
  date: string;
  time: string;
  dentistId?: number;
}

/**
 * Moves an appointment (another day, time or dentist): the same PUT as editing it, its length kept.
 * A visit booked outside open hours keeps its reason, so a move to other outside time stays one.
 */
export function moveAppointment(appointment: Appointment, to: MoveTarget) {
  const body: AppointmentWriteRequest = {
    patient: appointment.patient,
    phone: appointment.phone,
    patient_id: appointment.patient_id,
    date: to.date,
    time: to.time,
    dentist_id: to.dentistId ?? appointment.dentist_id,
    duration: appointment.duration,
    ...(appointment.outside_hours
      ? { outside_hours: true, outside_hours_reason: appointment.outside_hours_reason ?? '' }
      : {}),
    treatment: appointment.treatment as AppointmentWriteRequest['treatment'],
    notes: appointment.notes,
    status: appointment.status,
  };
  // Its other fields go back as shown: If-Match names that version, so a change meanwhile is refused
  // (412) instead of overwritten.
  return apiRequest<Appointment>(
    {
      method: 'PUT',
      url: `/api/appointments/${appointment.id}`,
      data: body,
      headers: ifMatch(appointment.version),
    },
    ERROR_MESSAGES.updateAppointment,
  );
}

/** One appointment as the server holds it now (the Move form's 'Load theirs'). */
export function getAppointment(id: number): Promise<Appointment> {
  return apiRequest({ method: 'GET', url: `/api/appointments/${id}` }, ERROR_MESSAGES.fetchAppointment);
}

export function useCalendarMonth(params: MonthParams, enabled = true) {
  return useQuery({
    queryKey: calendarKeys.month(params),
    meta: CALENDAR_FOLLOW,
    queryFn: () => getCalendarAppointments(params),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** A dentist's open time and free starts on a day (GET /api/dentists/:id/free-times). */
export function getFreeTimes(dentistId: number, date: string, duration: number): Promise<FreeTimes> {
  return apiRequest(
    { method: 'GET', url: `/api/dentists/${dentistId}/free-times`, params: { date, duration } },
    ERROR_MESSAGES.fetchFreeTimes,
  );
}

/**
 * The open hours of each (dentist, day) the Day or Week view shows, in their order: null while one
 * is read or when it cannot be (its column is then shown unshaded). Under 'appointments', so a write
 * to a visit anywhere reads them again.
 */
export function useOpenHours(days: ReadonlyArray<{ dentistId: number; date: string }>): {
  /** Each day's open stretches, or null while unknown (not read yet, or the read failed). */
  open: Array<Span[] | null>;
  /** Some day's open hours could not be read: its column is shown unshaded. */
  failed: boolean;
  retry: () => void;
} {
  const answers = useQueries({
    queries: days.map(({ dentistId, date }) => ({
      queryKey: ['appointments', 'free-times', dentistId, date] as const,
      meta: CALENDAR_FOLLOW,
      queryFn: () => getFreeTimes(dentistId, date, VISIT_MINUTES_MIN),
      staleTime: 30_000,
    })),
  });
  return {
    open: answers.map((answer) =>
      answer.data
        ? answer.data.open.map((span) => ({
            start: minutesOf(span.start),
            end: minutesOf(span.end) || 24 * 60,
          }))
        : null,
    ),
    failed: answers.some((answer) => answer.isError),
    retry: () => {
      for (const answer of answers) if (answer.isError) void answer.refetch();
    },
  };
}

/** The clinic's dentists for the dentist filter (a clinic has a few; the first hundred by name). */
export function useDentistChoices() {
  return useQuery({
    queryKey: calendarKeys.dentists,
    queryFn: getDentistChoices,
    staleTime: 60_000,
    meta: DENTISTS_FOLLOW,
  });
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

/** Turns the feed off: its address stops working at once. */
export function turnOffFeed(dentistId: number): Promise<CalendarFeedStatus> {
  return apiRequest(
    { method: 'DELETE', url: `/api/calendar/feeds/${dentistId}` },
    ERROR_MESSAGES.turnOffCalendarFeed,
  );
}

export function useFeedStatus(dentistId: number | null) {
  return useQuery({
    queryKey: feedKeys.status(dentistId ?? 0),
    meta: follows('calendar_feed', 'dentist'),
    queryFn: () => getFeedStatus(dentistId ?? 0),
    enabled: dentistId !== null,
  });
}
