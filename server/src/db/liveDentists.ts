import { and, eq, isNull, type SQL } from 'drizzle-orm';
import { dentists } from './schema';

/**
 * The clinic's dentists who have not been deleted (a deleted dentist keeps their row, for the visits
 * and the history that name them), or the one of them with this id.
 */
export function liveDentist(clinicId: number, dentistId?: number): SQL {
  return and(
    eq(dentists.clinicId, clinicId),
    ...(dentistId === undefined ? [] : [eq(dentists.id, dentistId)]),
    isNull(dentists.deletedAt),
  ) as SQL;
}
