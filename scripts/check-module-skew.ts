/**
 * After the build: every module this tree builds could be published to the shell it builds, by the
 * same rule the server applies at publish (docs/architecture.md, Module releases): each shared package
 * a module needs is provided by the shell in a version that satisfies it. Exits 1 naming the first
 * module, package and both versions that do not meet.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { MODULE_CATALOG, MODULE_IDS } from '@dental/shared/domain';
import { needsOf, shellProvides, skewOf } from '../server/src/resources/modules/releaseFiles';

const root = path.resolve(__dirname, '..');

async function main(): Promise<void> {
  const provides = shellProvides(root);
  if (!provides) throw new Error('No shell/dist/provides.json: build the shell first');
  for (const id of MODULE_IDS) {
    const dist = path.join(root, MODULE_CATALOG[id].packageDir, 'dist');
    const files = await readdir(dist);
    const manifest = files.includes('mf-manifest.json')
      ? [{ path: 'mf-manifest.json', bytes: await readFile(path.join(dist, 'mf-manifest.json')) }]
      : [];
    const needs = needsOf(manifest);
    if (!needs) throw new Error(`The ${id} module's build has no readable mf-manifest.json`);
    const skew = skewOf(needs, provides);
    if (skew) {
      console.error(
        `The ${id} module was built for ${skew.name} ${skew.needed}; the shell provides ${skew.provided ?? 'none'}`,
      );
      process.exit(1);
    }
  }
  console.log(`Each of the ${MODULE_IDS.length} modules' shared needs is met by the shell's provides.json.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
