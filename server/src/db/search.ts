import { type SQL, sql } from 'drizzle-orm';

/** `%`, `_` and `\` typed by a person are literal characters in a `like` pattern. */
const literally = (term: string) => term.replace(/[\\%_]/g, (character) => `\\${character}`);

/** A `like` pattern matching the term anywhere. */
export function containsPattern(term: string): string {
  return `%${literally(term)}%`;
}

/** A `like` pattern matching what starts with the term: an index range in a byte-ordered column. */
export function prefixPattern(term: string): string {
  return `${literally(term)}%`;
}

/** A `like` pattern for words each with a space before and after (` maria martin `): one starts with the term. */
export function wordStartPattern(term: string): string {
  return `% ${literally(term)}%`;
}

/** The smallest text after every text that starts with `term`, in code point (C collation) order; null when none. */
function afterEveryStartOf(term: string): string | null {
  const points = Array.from(term, (character) => character.codePointAt(0) ?? 0);
  while (points.length) {
    const last = (points.pop() ?? 0) + 1;
    if (last > 0x10ffff) continue;
    // UTF-16 surrogates are not characters of a text: the next one is U+E000.
    points.push(last >= 0xd800 && last <= 0xdfff ? 0xe000 : last);
    return String.fromCodePoint(...points);
  }
  return null;
}

/**
 * `column` starts with `term`, as a range of a C-collated column (byte order is code point order in
 * UTF-8): unlike `like`, a range with parameters keeps its index bounds in a prepared statement's
 * generic plan, so the statement is prepared once per connection (db/client.ts) instead of planned
 * on every search.
 */
export function startsWithInBytes(column: SQL, term: string): SQL {
  const after = afterEveryStartOf(term);
  return after === null ? sql`${column} >= ${term}` : sql`(${column} >= ${term} and ${column} < ${after})`;
}
