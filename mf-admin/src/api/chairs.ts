import {
  apiRequest,
  CHAIR_ORDER_URL,
  CHAIRS_URL,
  type Chair,
  type ChairBody,
  type ChairList,
  ifMatch,
} from '@dental/shared';
import { follows, queryOptions, useQuery } from '@dental/shared/kit';

/** The chairs' calls (shared/src/domain/chairs.ts): any staff reads them, an admin writes them. */

const FETCH_CHAIRS = 'Failed to fetch chairs';
const CREATE_CHAIR = 'Failed to add the chair';
const UPDATE_CHAIR = 'Failed to save the chair';
const RETIRE_CHAIR = 'Failed to retire the chair';
const REORDER_CHAIRS = 'Failed to move the chair';

export const chairKeys = { all: ['chairs'] as const };

export function getChairs(): Promise<ChairList> {
  return apiRequest({ method: 'GET', url: CHAIRS_URL }, FETCH_CHAIRS);
}

export const chairsQuery = () =>
  queryOptions({ queryKey: chairKeys.all, queryFn: getChairs, meta: follows('chair', 'dentist') });

export function useChairs() {
  return useQuery(chairsQuery());
}

export function createChair(body: ChairBody): Promise<Chair> {
  return apiRequest({ method: 'POST', url: CHAIRS_URL, data: body }, CREATE_CHAIR);
}

/** Saves the chair as shown at `version` (If-Match): a newer one meanwhile is refused with 412. */
export function updateChair(id: number, body: ChairBody, version?: number): Promise<Chair> {
  return apiRequest(
    { method: 'PUT', url: `${CHAIRS_URL}/${id}`, data: body, headers: ifMatch(version) },
    UPDATE_CHAIR,
  );
}

/** Retires the chair as shown at `version`: it leaves the list; its history stays. */
export function retireChair(id: number, version?: number): Promise<{ message: string }> {
  return apiRequest(
    { method: 'DELETE', url: `${CHAIRS_URL}/${id}`, headers: ifMatch(version) },
    RETIRE_CHAIR,
  );
}

export function reorderChairs(ids: number[]): Promise<ChairList> {
  return apiRequest({ method: 'PUT', url: CHAIR_ORDER_URL, data: { ids } }, REORDER_CHAIRS);
}
