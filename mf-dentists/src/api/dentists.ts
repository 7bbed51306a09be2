import {
  apiRequest,
  type DentistListQuery,
  type DentistPage,
  type DentistWriteRequest,
  dentistQueries,
  ERROR_MESSAGES,
  ifMatch,
  type WireDentist,
} from '@dental/shared';
import { follows, keepPreviousData, queryOptions, useQuery } from '@dental/shared/kit';

/** The Dentists screen's calls (docs/product.md, API calls), each typed with the shared schemas. */

type DentistListParams = Partial<
  Pick<DentistListQuery, 'page' | 'limit' | 'search' | 'status' | 'specialty' | 'sort'>
>;

/** What other desks change that these reads show: the shell invalidates them on those changes. */
const DENTISTS_FOLLOW = follows('dentist', 'user');

export const dentistKeys = {
  // The shared dentists' key starts every dentist read of every module: a write here refreshes them
  // all (the appointment form's dentist choice included).
  all: dentistQueries.key,
  list: (params: DentistListParams) => [...dentistQueries.key, 'list', params] as const,
};

export function getDentists(params: DentistListParams): Promise<DentistPage> {
  return apiRequest({ method: 'GET', url: '/api/dentists', params }, ERROR_MESSAGES.fetchDentists);
}

export function createDentist(body: DentistWriteRequest): Promise<WireDentist> {
  return apiRequest({ method: 'POST', url: '/api/dentists', data: body }, ERROR_MESSAGES.createDentist);
}

export function getDentist(id: number): Promise<WireDentist> {
  return apiRequest({ method: 'GET', url: `/api/dentists/${id}` }, ERROR_MESSAGES.fetchDentist);
}

/** Saves the dentist as shown at `version` (If-Match): a newer one meanwhile is refused with 412. */
export function updateDentist(id: number, body: DentistWriteRequest, version?: number): Promise<WireDentist> {
  return apiRequest(
    { method: 'PUT', url: `/api/dentists/${id}`, data: body, headers: ifMatch(version) },
    ERROR_MESSAGES.updateDentist,
  );
}

export function deleteDentist(id: number, version?: number): Promise<{ message: string }> {
  return apiRequest(
    { method: 'DELETE', url: `/api/dentists/${id}`, headers: ifMatch(version) },
    ERROR_MESSAGES.deleteDentist,
  );
}

/** One page of the clinic's dentists; the previous page stays on screen while the next loads. */
export const dentistsQuery = (params: DentistListParams) =>
  queryOptions({
    queryKey: dentistKeys.list(params),
    meta: DENTISTS_FOLLOW,
    queryFn: () => getDentists(params),
    placeholderData: keepPreviousData,
  });

export function useDentists(params: DentistListParams) {
  return useQuery(dentistsQuery(params));
}
