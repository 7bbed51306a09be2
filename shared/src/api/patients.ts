import { queryOptions } from '@tanstack/react-query';
import type { WirePatient } from '../domain';
import { follows } from '../kit/follows';
import { apiRequest, ERROR_MESSAGES } from './client';

/** One patient by id (docs/product.md, API calls: `GET /api/patients/:id`): a patient's file, a booking's patient. */
export function getPatient(id: number): Promise<WirePatient> {
  return apiRequest({ method: 'GET', url: `/api/patients/${id}` }, ERROR_MESSAGES.fetchPatient);
}

/**
 * The patients' reads. `key` starts every patient read of every module (a list, a search, one
 * patient and what hangs under it), so a patient's write, or a visit's, refreshes them all.
 */
export const patientQueries = {
  key: ['patients'] as const,
  /** One patient's key: every module's read of that patient is one cache entry. */
  detailKey: (id: number) => [...patientQueries.key, 'detail', id] as const,
  /** One patient (a visit changes their next and last visit); nothing is asked without an id. */
  detail: (id: number | null) =>
    queryOptions({
      queryKey: patientQueries.detailKey(id ?? 0),
      queryFn: () => getPatient(id ?? 0),
      enabled: id !== null,
      meta: follows('patient', 'appointment'),
    }),
};

/** Kept for modules built before `patientQueries`: shared's contract changes only with a new major. */
export const patientDetailKey = patientQueries.detailKey;
/** Kept for modules built before `patientQueries`. */
export const patientQuery = patientQueries.detail;
