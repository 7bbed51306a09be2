import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { startsWithInBytes } from './search';

/** Words in a C-collated column, as the search tables keep them. */
const WORDS = [
  'ma',
  'maria',
  'mb',
  'm',
  'mz',
  'é',
  'éa',
  'ê',
  'a\u{10FFFF}',
  'a\u{10FFFF}z',
  'b',
  '\u{D7FF}x',
  '\u{E000}',
  '50%',
  '5_0',
];

describe('startsWithInBytes', () => {
  const client = new PGlite();
  const db = drizzle(client);

  beforeAll(async () => {
    await db.execute(sql`create table words (word text collate "C" not null)`);
    for (const word of WORDS) await db.execute(sql`insert into words values (${word})`);
  });
  afterAll(() => client.close());

  const matching = async (term: string) =>
    (
      await db.execute(sql`select word from words where ${startsWithInBytes(sql`word`, term)} order by word`)
    ).rows.map((row) => (row as { word: string }).word);

  it.each(['ma', 'm', 'é', 'a\u{10FFFF}', '\u{D7FF}', '50%', '5_', 'z'])(
    'selects exactly the words that start with %j',
    async (term) => {
      const expected = WORDS.filter((word) => word.startsWith(term)).sort((a, b) =>
        Buffer.compare(Buffer.from(a), Buffer.from(b)),
      );
      expect(await matching(term)).toEqual(expected);
    },
  );
});
