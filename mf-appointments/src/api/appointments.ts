import {
  type Appointment,
  type AppointmentListQuery,
  type AppointmentPage,
  type AppointmentStatus,
  type AppointmentWriteRequest,
  apiRequest,
  appointmentQueries,
  availabilityQueries,
  dashboardQueries,
  ERROR_MESSAGES,
  ifMatch,
  type OverlappingAppointments,
  patientQueries,
  SERIES_ERROR_MESSAGES,
  type SeriesBookingRequest,
  type SeriesCheckAnswer,
  type SeriesCheckRequest,
  type SeriesScope,
} from '@dental/shared';
import {
  follows,
  pagedList,
  type QueryClient,
  queryOptions,
  usePagedList,
  useQuery,
} from '@dental/shared/kit';

/** The Appointments screen's calls (docs/product.md, API calls), each typed with the shared schemas. */

export type AppointmentListParams = Partial<
  Pick<
    AppointmentListQuery,
    'page' | 'limit' | 'search' | 'status' | 'dentist_id' | 'patient_id' | 'date' | 'from' | 'to' | 'sort'
  >
>;

/** What other desks change that these reads show: the shell invalidates them on those changes. */
const APPOINTMENTS_FOLLOW = follows('appointment', 'patient', 'dentist');

/** Under the shared appointments key: a visit's write in any module reads these again. */
export const appointmentKeys = {
  all: appointmentQueries.key,
  lists: [...appointmentQueries.key, 'list'] as const,
  list: (params: AppointmentListParams) => [...appointmentQueries.key, 'list', params] as const,
  detail: (id: number) => [...appointmentQueries.key, 'detail', id] as const,
  overlapping: [...appointmentQueries.key, 'overlapping'] as const,
};

/** Visits kept overlapping from before overlaps were refused: staff move or cancel one of each. */
export function getOverlapping(): Promise<OverlappingAppointments> {
  return apiRequest(
    { method: 'GET', url: '/api/appointments/overlapping', params: { limit: 20 } },
    ERROR_MESSAGES.fetchOverlapping,
  );
}

export const overlappingQuery = () =>
  queryOptions({ queryKey: appointmentKeys.overlapping, queryFn: getOverlapping, meta: APPOINTMENTS_FOLLOW });

export function useOverlapping() {
  return useQuery(overlappingQuery());
}

export function getAppointments(
  params: AppointmentListParams & { after?: string },
): Promise<AppointmentPage> {
  return apiRequest({ method: 'GET', url: '/api/appointments', params }, ERROR_MESSAGES.fetchAppointments);
}

export function getAppointment(id: number): Promise<Appointment> {
  return apiRequest({ method: 'GET', url: `/api/appointments/${id}` }, ERROR_MESSAGES.fetchAppointment);
}

export function createAppointment(body: AppointmentWriteRequest): Promise<Appointment> {
  return apiRequest(
    { method: 'POST', url: '/api/appointments', data: body },
    ERROR_MESSAGES.createAppointment,
  );
}

/** Saves the visit as shown at `version` (If-Match): a newer one meanwhile is refused with 412. */
export function updateAppointment(
  id: number,
  body: AppointmentWriteRequest,
  version?: number,
  scope: SeriesScope = 'this',
): Promise<Appointment> {
  return apiRequest(
    { method: 'PUT', url: `/api/appointments/${id}`, data: body, ...asShown(version, scope) },
    ERROR_MESSAGES.updateAppointment,
  );
}

export function setAppointmentStatus(
  id: number,
  status: AppointmentStatus,
  version?: number,
  scope: SeriesScope = 'this',
): Promise<Appointment> {
  return apiRequest(
    { method: 'PATCH', url: `/api/appointments/${id}/status`, data: { status }, ...asShown(version, scope) },
    ERROR_MESSAGES.updateAppointmentStatus,
  );
}

/**
 * A write to a visit as shown at `version` (If-Match), alone or with the later visits of its series
 * (`scope=following`).
 */
const asShown = (version: number | undefined, scope: SeriesScope) => ({
  headers: ifMatch(version),
  ...(scope === 'following' ? { params: { scope } } : {}),
});

/** The dry run of a series: each visit of the rule, bookable or why not and the nearest free time. */
export function checkSeries(body: SeriesCheckRequest): Promise<SeriesCheckAnswer> {
  return apiRequest(
    { method: 'POST', url: '/api/appointments/series/check', data: body },
    SERIES_ERROR_MESSAGES.checkSeries,
  );
}

/** Books the visits of a series as chosen: all of them or none. */
export function bookSeries(body: SeriesBookingRequest): Promise<{ series_id: number; data: Appointment[] }> {
  return apiRequest(
    { method: 'POST', url: '/api/appointments/series', data: body },
    SERIES_ERROR_MESSAGES.bookSeries,
  );
}

export function deleteAppointment(id: number, version?: number): Promise<{ message: string }> {
  return apiRequest(
    { method: 'DELETE', url: `/api/appointments/${id}`, headers: ifMatch(version) },
    ERROR_MESSAGES.deleteAppointment,
  );
}

/** One appointment, read when a link names it (`/appointments?appointment=12`). */
export const appointmentQuery = (id: number | null) =>
  queryOptions({
    queryKey: appointmentKeys.detail(id ?? 0),
    meta: APPOINTMENTS_FOLLOW,
    queryFn: () => getAppointment(id ?? 0),
    enabled: id !== null,
  });

export function useAppointment(id: number | null) {
  return useQuery(appointmentQuery(id));
}

/** A page of the list; the next page after one already read starts at its `next_cursor`. */
export const appointmentsQuery = pagedList({
  keyOf: appointmentKeys.list,
  meta: APPOINTMENTS_FOLLOW,
  getPage: getAppointments,
});

export const useAppointments = (params: AppointmentListParams) => usePagedList(appointmentsQuery, params);

/**
 * What an appointment's change makes stale in other modules: a patient's next visit and last visit,
 * the dashboard's figures, a dentist's booked slots. The calendar's month is under the appointments'
 * own key, which every write here invalidates.
 */
export function invalidateAround(queryClient: QueryClient): void {
  for (const queryKey of [patientQueries.key, dashboardQueries.key, availabilityQueries.key]) {
    void queryClient.invalidateQueries({ queryKey });
  }
}

/**
 * Shows the appointment the server answered in every list that holds it, and marks the lists stale
 * without refetching them now: the row stays where the user acted on it, as the server left it.
 */
export function showSavedAppointment(queryClient: QueryClient, saved: Appointment): void {
  queryClient.setQueriesData<AppointmentPage>({ queryKey: appointmentKeys.lists }, (page) =>
    page ? { ...page, data: page.data.map((row) => (row.id === saved.id ? saved : row)) } : page,
  );
  queryClient.setQueryData(appointmentKeys.detail(saved.id), saved);
  void queryClient.invalidateQueries({ queryKey: appointmentKeys.all, refetchType: 'none' });
  invalidateAround(queryClient);
}
