import { apiRequest, type DentistPage, ERROR_MESSAGES, PAGE_LIMIT_MAX } from '@dental/shared';
import { follows, useQuery } from '@dental/shared/kit';

/** The clinic's dentists, for the dentist filter and the form's dentist choice (GET /api/dentists). */

export const dentistKeys = {
  choices: ['dentists', 'list', { limit: PAGE_LIMIT_MAX, sort: 'name' }] as const,
};

export function getDentistChoices(): Promise<DentistPage> {
  return apiRequest(
    { method: 'GET', url: '/api/dentists', params: { limit: PAGE_LIMIT_MAX, sort: 'name' } },
    ERROR_MESSAGES.fetchDentists,
  );
}

/** Every dentist of the clinic (a clinic has a few; the first hundred by name). */
export function useDentistChoices() {
  return useQuery({
    queryKey: dentistKeys.choices,
    queryFn: getDentistChoices,
    staleTime: 60_000,
    // Another desk's new or renamed dentist shows in the choice at once.
    meta: follows('dentist'),
  });
}
