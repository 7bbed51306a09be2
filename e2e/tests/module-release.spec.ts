import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, test } from './fixtures';
import { openScreen, readModuleBuildTime, signIn } from './helpers';

/**
 * Releasing one module: its package rebuilt on disk, which every app server serves. The config runs
 * this file after every other journey, alone.
 */
const root = path.resolve(__dirname, '..', '..');

test('a module rebuilt alone is live on the next page load, without restarting anything', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, 'admin');
  await openScreen(page, '/patients', 'Patients');
  const before = await readModuleBuildTime(page, 'patients');

  execFileSync(process.execPath, ['scripts/build-all.mjs', 'mf-patients'], { cwd: root, stdio: 'ignore' });

  // A new page load serves the new build: the shell is not rebuilt, the server not restarted...
  await openScreen(page, '/', 'Dashboard');
  expect(await readModuleBuildTime(page, 'patients')).not.toBe(before);
  // ...and the rebuilt module's screen works.
  await openScreen(page, '/patients', 'Patients');
});
