import { apiRequest, ifMatch, RECALL_TYPES_URL, type RecallType, type RecallTypeBody } from '@dental/shared';
import { follows, useQuery } from '@dental/shared/kit';

/** The recall types' calls (shared/src/domain/recall.ts): any staff reads them, an admin writes them. */

/** Another desk's new or changed recall type shows at once. */
const RECALL_TYPES_FOLLOW = follows('recall_type');

export const recallTypeKeys = {
  // The key the Recall screen reads them under too: a save here shows there at once.
  all: ['recall-types'] as const,
};

const FETCH_RECALL_TYPES = 'Failed to fetch the recall types';
const CREATE_RECALL_TYPE = 'Failed to add the recall type';
const UPDATE_RECALL_TYPE = 'Failed to save the recall type';

export function getRecallTypes(): Promise<{ data: RecallType[] }> {
  return apiRequest({ method: 'GET', url: RECALL_TYPES_URL }, FETCH_RECALL_TYPES);
}

export function createRecallType(body: RecallTypeBody): Promise<RecallType> {
  return apiRequest({ method: 'POST', url: RECALL_TYPES_URL, data: body }, CREATE_RECALL_TYPE);
}

/** Saves the type as shown at `version` (If-Match): a newer one meanwhile is refused with 412. */
export function updateRecallType(id: number, body: RecallTypeBody, version?: number): Promise<RecallType> {
  return apiRequest(
    { method: 'PUT', url: `${RECALL_TYPES_URL}/${id}`, data: body, headers: ifMatch(version) },
    UPDATE_RECALL_TYPE,
  );
}

export function useRecallTypes() {
  return useQuery({ queryKey: recallTypeKeys.all, queryFn: getRecallTypes, meta: RECALL_TYPES_FOLLOW });
}
