import {
  apiRequest,
  CHAIR_ORDER_URL,
  CHAIRS_URL,
  type Chair,
  type ChairBody,
  type ChairList,
  chairQueries,
  ifMatch,
} from '@dental/shared';
import { useQuery } from '@dental/shared/kit';

/** The chairs' calls (shared/src/domain/chairs.ts): any staff reads them, an admin writes them. */

const CREATE_CHAIR = 'Failed to add the chair';
const UPDATE_CHAIR = 'Failed to save the chair';
const RETIRE_CHAIR = 'Failed to retire the chair';
const REORDER_CHAIRS = 'Failed to move the chair';

/** The chairs' shared read (chairQueries): the Settings card's writes invalidate it for every screen. */
export const chairKeys = { all: chairQueries.key };

export function useChairs() {
  return useQuery(chairQueries.all());
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
