import { type AnyColumn, and, eq, type SQL } from 'drizzle-orm';

/** A table whose rows each belong to one user of one clinic. */
interface OwnedByUser {
  clinicId: AnyColumn;
  userId: AnyColumn;
}

/** The rows of this user of this clinic: `where(ofUser(userFactors, clinicId, userId))`. */
export function ofUser(table: OwnedByUser, clinicId: number, userId: number): SQL {
  return and(eq(table.clinicId, clinicId), eq(table.userId, userId)) as SQL;
}
