/**
 * `npm run db:migrate`: brings the database the server uses (DATABASE_URL, else DATA_DIR's embedded
 * database) to this release's schema and stops, so a release's migrations can run before its servers
 * start (docs/operations.md, "Rehearsing a migration"). The server does the same when it starts.
 */
import { loadConfig } from '../config';
import { appliedMigrations, openScriptDatabase } from '../db/client';

async function main(): Promise<void> {
  const config = loadConfig();
  const started = performance.now();
  const database = await openScriptDatabase(config);
  try {
    const taken = await appliedMigrations(database.db);
    console.log(
      `The database has taken ${taken} migrations (${Math.round(performance.now() - started)} ms).`,
    );
  } finally {
    await database.close();
  }
}

void main();
