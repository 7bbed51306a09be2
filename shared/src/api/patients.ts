import type { WirePatient } from '../domain';
import { apiRequest, ERROR_MESSAGES } from './client';

/** One patient by id (spec §7 `GET /api/patients/:id`): a patient's file, a booking's patient. */
export function getPatient(id: number): Promise<WirePatient> {
  return apiRequest({ method: 'GET', url: `/api/patients/${id}` }, ERROR_MESSAGES.fetchPatient);
}

/** One patient's query key: every module's read of that patient is one cache entry. */
export const patientDetailKey = (id: number) => ['patients', 'detail', id] as const;

/** One patient's read for `useQuery` (with the module's own `meta`): nothing is asked without an id. */
export function patientQuery(id: number | null) {
  return {
    queryKey: patientDetailKey(id ?? 0),
    queryFn: () => getPatient(id ?? 0),
    enabled: id !== null,
  };
}
