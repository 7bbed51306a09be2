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
