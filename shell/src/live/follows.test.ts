import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The invalidations are declared beside each read (`meta: follows(...)`), never re-checked in pages:
 * a read that forgot its declaration would silently stop following the other desks. Every query of
 * the shell and of the modules' api files says what it follows.
 */
const ROOT = join(__dirname, '..', '..', '..');

function sourcesOf(folder: string): string[] {
  const path = join(ROOT, folder);
  return readdirSync(path)
    .filter((name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name))
    .map((name) => join(folder, name));
}

/** The text of each `queryOptions({ … })` factory, `useQuery({ … })` call and query of a `useQueries`. */
function queriesIn(source: string): string[] {
  const found: string[] = [];
  const starts = /queryOptions\(\{|useQuery\(\{|queries: [\w.]+\.map\(\([^)]*\) => \(\{/g;
  for (let match = starts.exec(source); match; match = starts.exec(source)) {
    let depth = 1;
    let at = match.index + match[0].length;
    while (depth > 0 && at < source.length) {
      if (source[at] === '{') depth += 1;
      else if (source[at] === '}') depth -= 1;
      at += 1;
    }
    found.push(source.slice(match.index, at));
  }
  return found;
}

const FOLDERS = [
  ...readdirSync(ROOT)
    .filter((name) => name.startsWith('mf-'))
    .map((name) => join(name, 'src', 'api')),
  join('shared', 'src', 'api'),
  join('shell', 'src', 'dashboard'),
  join('shell', 'src', 'auth'),
];

/**
 * A read declares what it follows, or is built on a factory (`...dentistQueries.choices()`), whose
 * own `queryOptions` is checked where it is written.
 */
const declares = (query: string) => /\bmeta: /.test(query) || /\.\.\.[\w.]+\(/.test(query);

describe('every read declares which changes it follows', () => {
  const files = FOLDERS.flatMap(sourcesOf);
  it('finds the reads', () => {
    expect(files.flatMap((file) => queriesIn(readFileSync(join(ROOT, file), 'utf8'))).length).toBeGreaterThan(
      15,
    );
  });
  it.each(files)('%s', (file) => {
    const undeclared = queriesIn(readFileSync(join(ROOT, file), 'utf8')).filter((query) => !declares(query));
    expect(undeclared).toEqual([]);
  });
});
