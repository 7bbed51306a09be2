import { dentistQueries } from '@dental/shared';
import { useQuery } from '@dental/shared/kit';

/** Every dentist of the clinic, for the dentist filter and the form's dentist choice (GET /api/dentists). */
export function useDentistChoices() {
  return useQuery(dentistQueries.choices());
}
