/** What the PostgreSQL drivers (pg, PGlite) put on a failed statement; drizzle wraps it in `cause`. */
export interface DatabaseErrorLike {
  code?: string;
  constraint?: string;
  message?: string;
  detail?: string;
  cause?: unknown;
}

export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';
/** An exclusion constraint (two live visits overlapping) refused the write. */
export const EXCLUSION_VIOLATION = '23P01';
/** statement_timeout (or an administrator) cancelled the statement. */
export const QUERY_CANCELED = '57014';

/** The driver's error under drizzle's wrapper, if it carries one of these SQLSTATE codes. */
export function databaseError(error: unknown, codes: readonly string[]): DatabaseErrorLike | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth += 1) {
    const candidate = current as DatabaseErrorLike;
    if (candidate.code && codes.includes(candidate.code)) return candidate;
    current = candidate.cause;
  }
  return null;
}

/** Whether a failed write ran into this constraint or index (by name) with one of these codes. */
export function violated(error: unknown, codes: readonly string[], name: string): boolean {
  const failure = databaseError(error, codes);
  if (!failure) return false;
  return `${failure.constraint ?? ''} ${failure.message ?? ''} ${failure.detail ?? ''}`.includes(name);
}
