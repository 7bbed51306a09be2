import {
  apiRequest,
  ifMatch,
  RECALL_TYPES_URL,
  type RecallType,
  type RecallTypeBody,
  recallTypeQueries,
} from '@dental/shared';
import { useQuery } from '@dental/shared/kit';

/** The recall types' calls (shared/src/domain/recall.ts): any staff reads them, an admin writes them. */

export const recallTypeKeys = {
  // The shared read the Recall screen's filter uses too: a save here shows there at once.
  all: recallTypeQueries.key,
};

const CREATE_RECALL_TYPE = 'Failed to add the recall type';
const UPDATE_RECALL_TYPE = 'Failed to save the recall type';

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
  return useQuery(recallTypeQueries.all());
}
