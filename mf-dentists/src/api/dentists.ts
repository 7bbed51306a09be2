import {
  apiRequest,
  type DentistListQuery,
  type DentistPage,
  type DentistWriteRequest,
  ERROR_MESSAGES,
  type WireDentist,
} from '@dental/shared';
import { keepPreviousData, useQuery } from '@dental/shared/kit';

/** The Dentists screen's calls (spec §7), each typed with the shared schemas. */

type DentistListParams = Partial<
  Pick<DentistListQuery, 'page' | 'limit' | 'search' | 'status' | 'specialty' | 'sort'>
>;

export const dentistKeys = {
  // Every dentist query of every module starts with 'dentists': a write here refreshes them all
  // (the appointment form's dentist choice included).
  all: ['dentists'] as const,
  list: (params: DentistListParams) => ['dentists', 'list', params] as const,
};

export function getDentists(params: DentistListParams): Promise<DentistPage> {
  return apiRequest({ method: 'GET', url: '/api/dentists', params }, ERROR_MESSAGES.fetchDentists);
}

export function createDentist(body: DentistWriteRequest): Promise<WireDentist> {
  return apiRequest({ method: 'POST', url: '/api/dentists', data: body }, ERROR_MESSAGES.createDentist);
}

export function updateDentist(id: number, body: DentistWriteRequest): Promise<WireDentist> {
  return apiRequest({ method: 'PUT', url: `/api/dentists/${id}`, data: body }, ERROR_MESSAGES.updateDentist);
}

export function deleteDentist(id: number): Promise<{ message: string }> {
  return apiRequest({ method: 'DELETE', url: `/api/dentists/${id}` }, ERROR_MESSAGES.deleteDentist);
}

/** One page of the clinic's dentists; the previous page stays on screen while the next loads. */
export function useDentists(params: DentistListParams) {
  return useQuery({
    queryKey: dentistKeys.list(params),
    queryFn: () => getDentists(params),
    placeholderData: keepPreviousData,
  });
}
