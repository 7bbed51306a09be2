import { queryOptions } from '@tanstack/react-query';
import { RECALL_TYPES_URL, type RecallType } from '../domain';
import { follows } from '../kit/follows';
import { apiRequest } from './client';

const FETCH_RECALL_TYPES = 'Failed to fetch the recall types';

export function getRecallTypes(): Promise<{ data: RecallType[] }> {
  return apiRequest({ method: 'GET', url: RECALL_TYPES_URL }, FETCH_RECALL_TYPES);
}

/**
 * The clinic's recall types (docs/product.md, Recall): written on the Settings screen, read there and
 * by the Recall screen's filter under one key, so a save shows on both at once.
 */
export const recallTypeQueries = {
  key: ['recall-types'] as const,
  all: () =>
    queryOptions({
      queryKey: recallTypeQueries.key,
      queryFn: getRecallTypes,
      // Another desk's new or changed recall type shows at once.
      meta: follows('recall_type'),
    }),
};
