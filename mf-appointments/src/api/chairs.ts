import { chairQueries } from '@dental/shared';
import { useQuery } from '@dental/shared/kit';

/** The clinic's chairs in order, for the form's chair choice (GET /api/chairs), read while the form is open. */
export function useChairs(enabled: boolean) {
  return useQuery({ ...chairQueries.all(), enabled });
}
