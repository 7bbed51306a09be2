import { queryOptions } from '@tanstack/react-query';
import { type DentistPage, PAGE_LIMIT_MAX } from '../domain';
import { follows } from '../kit/follows';
import { apiRequest, ERROR_MESSAGES } from './client';

/** The dentists as every module's dentist choice lists them: the first hundred by name. */
const CHOICE_PARAMS = { limit: PAGE_LIMIT_MAX, sort: 'name' } as const;

export function getDentistChoices(): Promise<DentistPage> {
  return apiRequest(
    { method: 'GET', url: '/api/dentists', params: CHOICE_PARAMS },
    ERROR_MESSAGES.fetchDentists,
  );
}

/**
 * The dentists' reads (docs/architecture.md, Modules). `key` is the start of every dentist read of
 * every module, so a dentist's write at this desk refreshes them all (the booking form's choice too).
 */
export const dentistQueries = {
  key: ['dentists'] as const,
  /** Every dentist of the clinic, for a filter or a form's choice: one read shared by every module. */
  choices: () =>
    queryOptions({
      queryKey: [...dentistQueries.key, 'list', CHOICE_PARAMS] as const,
      queryFn: getDentistChoices,
      staleTime: 60_000,
      // Another desk's new or renamed dentist shows in the choice at once.
      meta: follows('dentist'),
    }),
};
