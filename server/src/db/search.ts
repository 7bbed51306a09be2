/** A `like` pattern matching the term anywhere: `%` and `_` typed by a person are literal characters. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
