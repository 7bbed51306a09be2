import {
  type AppointmentPage,
  apiRequest,
  ERROR_MESSAGES,
  ifMatch,
  type PatientListQuery,
  type PatientPage,
  type PatientWriteRequest,
  patientQueries,
  type WirePatient,
} from '@dental/shared';
import {
  follows,
  keepPreviousData,
  pagedList,
  queryOptions,
  usePagedList,
  useQuery,
} from '@dental/shared/kit';

/** The Patients screen's calls (docs/product.md, API calls), each typed with the shared schemas. */

type PatientListParams = Partial<Pick<PatientListQuery, 'page' | 'limit' | 'search' | 'status' | 'sort'>>;

/** What other desks change that these reads show: the shell invalidates them on those changes. */
const PATIENTS_FOLLOW = follows('patient', 'appointment');
const HISTORY_FOLLOW = follows('appointment', 'patient', 'dentist');

/** Under the shared patients' key: a patient's write in any module reads these again. */
export const patientKeys = {
  all: patientQueries.key,
  list: (params: PatientListParams) => [...patientQueries.key, 'list', params] as const,
  detail: patientQueries.detailKey,
  appointments: (id: number, page: number) =>
    [...patientQueries.detailKey(id), 'appointments', page] as const,
};

export function getPatients(params: PatientListParams & { after?: string }): Promise<PatientPage> {
  return apiRequest({ method: 'GET', url: '/api/patients', params }, ERROR_MESSAGES.fetchPatients);
}

export function createPatient(body: PatientWriteRequest): Promise<WirePatient> {
  return apiRequest({ method: 'POST', url: '/api/patients', data: body }, ERROR_MESSAGES.createPatient);
}

/** Saves the patient as shown at `version` (If-Match): a newer one meanwhile is refused with 412. */
export function updatePatient(id: number, body: PatientWriteRequest, version?: number): Promise<WirePatient> {
  return apiRequest(
    { method: 'PUT', url: `/api/patients/${id}`, data: body, headers: ifMatch(version) },
    ERROR_MESSAGES.updatePatient,
  );
}

export function deletePatient(id: number, version?: number): Promise<{ message: string }> {
  return apiRequest(
    { method: 'DELETE', url: `/api/patients/${id}`, headers: ifMatch(version) },
    ERROR_MESSAGES.deletePatient,
  );
}

export function getPatientAppointments(id: number, page: number): Promise<AppointmentPage> {
  return apiRequest(
    { method: 'GET', url: `/api/patients/${id}/appointments`, params: { page, limit: 10 } },
    ERROR_MESSAGES.fetchPatientAppointments,
  );
}

/**
 * One page of the clinic's patients; the previous page stays on screen while the next loads, and a
 * next page after one already read starts at its `next_cursor`.
 */
export const patientsQuery = pagedList({
  keyOf: patientKeys.list,
  meta: PATIENTS_FOLLOW,
  getPage: getPatients,
});

export const usePatients = (params: PatientListParams) => usePagedList(patientsQuery, params);

export function usePatient(id: number | null) {
  return useQuery(patientQueries.detail(id));
}

export const patientAppointmentsQuery = (id: number | null, page: number) =>
  queryOptions({
    queryKey: patientKeys.appointments(id ?? 0, page),
    meta: HISTORY_FOLLOW,
    queryFn: () => getPatientAppointments(id ?? 0, page),
    enabled: id !== null,
    placeholderData: keepPreviousData,
  });

export function usePatientAppointments(id: number | null, page: number) {
  return useQuery(patientAppointmentsQuery(id, page));
}
