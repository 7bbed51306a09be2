/**
 * `npm run module:prune -- [--days N]`: removes the module releases no clinic and not the default runs,
 * and none has run for N days (default 7), so that the releases folder does not only grow
 * (docs/architecture.md, Module releases). Run where the server keeps MODULE_RELEASES_DIR.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { openScriptDatabase } from '../db/client';
import { removeRelease } from '../resources/modules/releaseFiles';
import { pruneReleases } from '../resources/modules/releasesData';

const DEFAULT_GRACE_DAYS = 7;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { days: { type: 'string' } } });
  const days = values.days === undefined ? DEFAULT_GRACE_DAYS : Number(values.days);
  if (!Number.isInteger(days) || days < 1) {
    console.error('Usage: npm run module:prune -- [--days N]   (N ≥ 1, default 7)');
    process.exit(2);
  }
  const config = loadConfig();
  const database = await openScriptDatabase(config);
  try {
    const pruned = await pruneReleases(database.db, days);
    for (const { moduleId, release } of pruned)
      await removeRelease(config.moduleReleasesDir, moduleId, release);
    console.log(
      pruned.length === 0
        ? `No release to remove (none unused for ${days} days).`
        : `Removed ${pruned.length} release(s): ${pruned.map((one) => `${one.moduleId} ${one.release}`).join(', ')}.`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
