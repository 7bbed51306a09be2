/**
 * `npm run keys:rotate`: reseals every stored authenticator key under FACTOR_KEY, opening each with
 * FACTOR_KEY_PREVIOUS (comma-separated) or the key the database kept before FACTOR_KEY was set.
 * Run it with the new key as FACTOR_KEY and the old one as FACTOR_KEY_PREVIOUS, on the database the
 * server uses (DATABASE_URL, else DATA_DIR's embedded database). Exits 1 when a key could not be
 * opened. See docs/security.md "Keys".
 */

import { factorSealOfConfig } from '../auth/factorKeys';
import { factorKeyIdOf } from '../auth/factorSeal';
import { resealStoredKeys } from '../auth/secondFactor';
import { loadConfig } from '../config';
import { openScriptDatabase } from '../db/client';

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.factorKey) {
    console.error('Set FACTOR_KEY to the new key (and FACTOR_KEY_PREVIOUS to the old one) to rotate.');
    process.exitCode = 2;
    return;
  }
  const database = await openScriptDatabase(config);
  try {
    const seal = await factorSealOfConfig(database.db, config);
    const done = await resealStoredKeys(database.db, seal);
    console.log(
      `Authenticator keys resealed under key ${factorKeyIdOf(config.factorKey)}: ${done.resealed}; not opened by any known key: ${done.unopened}`,
    );
    if (done.unopened > 0) process.exitCode = 1;
  } finally {
    await database.close();
  }
}

void main();
