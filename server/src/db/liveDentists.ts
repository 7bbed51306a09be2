import { type AnyColumn, and, eq, isNull, type SQL } from 'drizzle-orm';
import { dentists } from './schema';

/**
 * The clinic's dentists who have not been deleted (a deleted dentist keeps their row, for the visits
 * and the history that name them), or the one of them with this id. With `active`, only those who are
 * also active: the ones a visit, an offer or a calendar feed may still name (docs/product.md, Statuses
 * and how they change). The clinic and the id may be another table's columns, to join dentists on.
 */
export function liveDentist(
  clinicId: number | AnyColumn,
  dentistId?: number | AnyColumn,
  { active = false }: { active?: boolean } = {},
): SQL {
  return and(
    eq(dentists.clinicId, clinicId),
    ...(dentistId === undefined ? [] : [eq(dentists.id, dentistId)]),
    isNull(dentists.deletedAt),
    ...(active ? [eq(dentists.status, 'active')] : []),
  ) as SQL;
}
