import {
  type Appointment,
  type AppointmentPage,
  type AppointmentWriteRequest,
  apiRequest,
  appointmentQueries,
  type CalendarFeedGrant,
  type CalendarFeedStatus,
  chairQueries,
  dentistQueries,
  ERROR_MESSAGES,
  freeTimesQueries,
  ifMatch,
  minutesOf,
  type Span,
  settingsQueries,
  VISIT_MINUTES_MIN,
} from '@dental/shared';
import { follows, keepPreviousData, queryOptions, useQueries, useQuery } from '@dental/shared/kit';

/** The Calendar screen's calls (docs/product.md, API calls), each typed with the shared schemas. */

interface MonthParams {
  month: number;
  year: number;
  dentist_id?: number;
}

/** What other desks change that these reads show: the shell invalidates them on those changes. */
const CALENDAR_FOLLOW = follows('appointment', 'patient', 'dentist', 'availability', 'settings', 'chair');

export const calendarKeys = {
  // Under the shared appointments' key: a write to an appointment anywhere refreshes the month shown.
  month: (params: MonthParams) => [...appointmentQueries.key, 'calendar', params] as const,
};

/** One month in one request: the server answers the whole month (up to 5,000 visits) in date and time order. */
export function getCalendarAppointments(params: MonthParams): Promise<AppointmentPage> {
  return apiRequest(
    { method: 'GET', url: '/api/calendar/appointments', params },
    ERROR_MESSAGES.fetchCalendarAppointments,
  );
}

/** Where a visit is moved: another day, time or dentist. */
export interface MoveTarget {
  date: string;
  time: string;
  dentistId?: number;
  /** Another chair (the Day view by chair); without it the visit keeps its chair when free. */
  chairId?: number;
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
    ...(to.chairId === undefined ? {} : { chair_id: to.chairId }),
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

export const calendarMonthQuery = (params: MonthParams) =>
  queryOptions({
    queryKey: calendarKeys.month(params),
    meta: CALENDAR_FOLLOW,
    queryFn: () => getCalendarAppointments(params),
    placeholderData: keepPreviousData,
  });

export function useCalendarMonth(params: MonthParams, enabled = true) {
  return useQuery({ ...calendarMonthQuery(params), enabled });
}

/**
 * The open hours of each (dentist, day) the Day or Week view shows, in their order: null while one
 * is read or when it cannot be (its column is then shown unshaded). The shared free-times read, so a
 * booking at the desk reads them again.
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
      ...freeTimesQueries.of({ dentistId, date, duration: VISIT_MINUTES_MIN }),
      // Each day's own answer or nothing: another day's open hours would shade the wrong column.
      placeholderData: undefined,
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

/** The practice's settings, whose working hours open the Day view's chair columns. */
export function usePracticeHours(enabled: boolean) {
  return useQuery({ ...settingsQueries.practice(), enabled });
}

/** The clinic's chairs in order, for the Day view by chair. */
export function useChairs(enabled: boolean) {
  return useQuery({ ...chairQueries.all(), enabled });
}

/** The clinic's dentists for the dentist filter (a clinic has a few; the first hundred by name). */
export function useDentistChoices() {
  return useQuery(dentistQueries.choices());
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

export const feedStatusQuery = (dentistId: number | null) =>
  queryOptions({
    queryKey: feedKeys.status(dentistId ?? 0),
    meta: follows('calendar_feed', 'dentist'),
    queryFn: () => getFeedStatus(dentistId ?? 0),
    enabled: dentistId !== null,
  });

export function useFeedStatus(dentistId: number | null) {
  return useQuery(feedStatusQuery(dentistId));
}
