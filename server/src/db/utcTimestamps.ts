import { type SQL, sql } from 'drizzle-orm';

/**
 * Timestamps of long lists travel as PostgreSQL's own text of the UTC time
 * ('2026-11-25 06:15:23.123456', ISO DateStyle, which node-postgres itself requires) and are turned
 * into JavaScript's toISOString() form here: to_char() on every row, or a Date parsed and formatted
 * again per row, were a fifth of a month's read in the database or in the API.
 */
export const utcText = (column: SQL) => sql`(${column} at time zone 'UTC')::text`;

/**
 * A timestamp as JavaScript's toISOString() writes it ('2026-11-25T06:15:23.123Z', milliseconds
 * truncated as a Date keeps them), for JSON the database writes itself (row_to_json).
 */
export const isoText = (column: SQL) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** '2026-11-25 06:15:23.123456' (or without its fraction) → '2026-11-25T06:15:23.123Z'. */
export function isoFromUtcText(text: string): string {
  // Milliseconds truncated, as to_char's MS and a JavaScript Date both keep them.
  const fraction = text.length > 20 ? text.slice(20, 23).padEnd(3, '0') : '000';
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${fraction}Z`;
}

/** A timestamp as UTC ISO 8601 whichever driver answered (node-postgres gives Dates, PGlite may too). */
export function isoTimestamp(value: string | Date): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
