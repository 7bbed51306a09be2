import { execFileSync } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequest } from '@playwright/test';
import { APP_URLS, PLATFORM_TOKEN, RELEASES_DIRS } from '../playwright.config';
import { expect, test } from './fixtures';
import { expectScreen, openScreen, readModuleBuildTime, sidebar, signIn } from './helpers';

/** The shared package's version as this tree builds it: what the shell provides and a module requires. */
const SHARED_VERSION = (
  JSON.parse(readFileSync(path.join(__dirname, '../../shared/package.json'), 'utf8')) as { version: string }
).version;

/**
 * Releasing one module: its package rebuilt on disk, which every app server serves, and published
 * releases pointed at one clinic (docs/architecture.md, Module releases). The config runs this file
 * after every other journey, alone.
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

/** Each file of a module's build, as `npm run module:publish` sends it. */
function buildFiles(moduleDir: string): Array<{ path: string; content: string }> {
  const dist = path.join(root, moduleDir, 'dist');
  const walk = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(path.join(folder, entry.name)) : [path.join(folder, entry.name)],
    );
  return walk(dist).map((file) => ({
    path: path.relative(dist, file).split(path.sep).join('/'),
    content: readFileSync(file).toString('base64'),
  }));
}

/** The build with one file changed (a comment added), so it publishes as a release of its own. */
const changed = (files: BuildFiles, name: string, edit: (text: string) => string) =>
  files.map((file) =>
    file.path === name
      ? {
          path: file.path,
          content: Buffer.from(edit(Buffer.from(file.content, 'base64').toString())).toString('base64'),
        }
      : file,
  );

type BuildFiles = ReturnType<typeof buildFiles>;

/** The platform's API as `npm run module:publish` calls it, with the journeys' key. */
async function platformOf(playwright: { request: APIRequest }, baseURL: string | undefined) {
  const request = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: `Bearer ${PLATFORM_TOKEN}`, 'x-release-actor': 'journey' },
  });
  return {
    request,
    async publish(moduleId: string, files: BuildFiles, version: string) {
      const answer = await request.post(`/platform/modules/${moduleId}/releases`, {
        data: { version, commit: null, built_at: new Date().toISOString(), files },
      });
      expect(answer.status(), await answer.text()).toBe(201);
      return ((await answer.json()) as { release: string }).release;
    },
    async point(moduleId: string, release: string, clinic: string | null) {
      const answer = await request.put(`/platform/modules/${moduleId}/pointer`, {
        data: { release, clinic },
      });
      expect(answer.status()).toBe(200);
    },
    async followDefault(moduleId: string, clinic: string) {
      const answer = await request.delete(`/platform/modules/${moduleId}/pointer?clinic=${clinic}`);
      expect(answer.status()).toBe(204);
    },
  };
}

test('a release goes to one clinic first, rolls back by pointing back, and a changed byte or a newer shared is refused', async ({
  browser,
  baseURL,
  playwright,
}) => {
  test.setTimeout(180_000);
  const platform = await platformOf(playwright, baseURL);
  const publish = (files: BuildFiles, version: string) => platform.publish('dentists', files, version);
  const point = (release: string, clinic: string | null) => platform.point('dentists', release, clinic);
  const followDefault = (clinic: string) => platform.followDefault('dentists', clinic);

  const files = buildFiles('mf-dentists');
  const v1 = await publish(files, '1.0.0');
  const v2 = await publish(
    changed(files, 'remoteEntry.js', (text) => `${text}\n/* release two */\n`),
    '1.0.1',
  );
  expect(v2).not.toBe(v1);
  // Two teams' publishes at the same moment both land, each a release of its own.
  const [both1, both2] = await Promise.all([
    publish(
      changed(files, 'remoteEntry.js', (text) => `${text}\n/* at once, one */\n`),
      '1.0.5',
    ),
    publish(
      changed(files, 'remoteEntry.js', (text) => `${text}\n/* at once, two */\n`),
      '1.0.6',
    ),
  ]);
  expect(new Set([v1, v2, both1, both2]).size).toBe(4);
  await point(v1, null);
  await point(v2, 'harbor-dental');

  /** A clinic admin's browser, and the dentists module's files it asks for. */
  const desk = async (account: 'admin' | 'harborAdmin') => {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/modules/dentists/')) asked.push(new URL(request.url()).pathname);
    });
    await signIn(page, account);
    return { context, page, asked };
  };
  const bright = await desk('admin');
  const harbor = await desk('harborAdmin');
  await openScreen(bright.page, '/dentists', 'Dentists');
  await openScreen(harbor.page, '/dentists', 'Dentists');
  expect(harbor.asked).toContain(`/modules/dentists/${v2}/remoteEntry.js`);
  expect(harbor.asked.every((asked) => asked.startsWith(`/modules/dentists/${v2}/`))).toBe(true);
  expect(bright.asked).toContain(`/modules/dentists/${v1}/remoteEntry.js`);

  // The Modules page names the release the clinic runs, and its history says how it came to run it.
  await openScreen(harbor.page, '/modules', 'Modules');
  await harbor.page
    .getByRole('button', { name: 'Release history of Dentists' })
    .filter({ visible: true })
    .click();
  const history = harbor.page.getByRole('dialog', { name: 'Dentists: releases' });
  await expect(history).toContainText(`Runs: ${v2}, this clinic's own release`);
  const releaseHistory = history.getByRole('list', { name: 'Release history' });
  await expect(releaseHistory).toContainText(`This clinic pointed at ${v2}`);
  await expect(releaseHistory).toContainText(`Published ${both1}`);
  await expect(releaseHistory).toContainText(`Published ${both2}`);
  await history.getByRole('button', { name: 'Close' }).click();

  // Rolled back: harbor follows the default (v1) on its very next page load, nothing waited for (no
  // cache holds the old pointer); v2's files stay served.
  await followDefault('harbor-dental');
  harbor.asked.length = 0;
  await openScreen(harbor.page, '/dentists', 'Dentists');
  expect(harbor.asked).toContain(`/modules/dentists/${v1}/remoteEntry.js`);
  expect((await platform.request.get(`/modules/dentists/${v2}/remoteEntry.js`)).status()).toBe(200);

  // A release whose entry changed on disk after publishing is refused by the browser, in its area only.
  const v3 = await publish(
    changed(files, 'remoteEntry.js', (text) => `${text}\n/* release three */\n`),
    '1.0.2',
  );
  const releasesDir = RELEASES_DIRS[APP_URLS.indexOf(baseURL ?? '')] as string;
  appendFileSync(path.join(releasesDir, 'dentists', v3, 'remoteEntry.js'), '/* tampered */');
  await point(v3, 'harbor-dental');
  await openScreen(harbor.page, '/', 'Dashboard');
  await harbor.page.goto('/dentists');
  await expect(harbor.page.getByText('The Dentists module could not be loaded')).toBeVisible();
  await openScreen(harbor.page, '/patients', 'Patients');
  await openScreen(bright.page, '/dentists', 'Dentists');
  // The browser reported it: the Modules page counts the day's failures.
  await openScreen(harbor.page, '/modules', 'Modules');
  await expect(
    harbor.page.getByRole('row').filter({ has: harbor.page.locator('strong', { hasText: /^Dentists$/ }) }),
  ).toContainText(/\d+ failures?/);
  await followDefault('harbor-dental');

  // A build that needs a newer shared package than the deployed shell provides is refused at publish.
  const newer = changed(files, 'mf-manifest.json', (text) =>
    text.replaceAll(`"requiredVersion": "^${SHARED_VERSION}"`, '"requiredVersion": "^2.9.0"'),
  );
  const refused = await platform.request.post('/platform/modules/dentists/releases', {
    data: { version: '1.0.3', commit: null, built_at: new Date().toISOString(), files: newer },
  });
  expect(refused.status()).toBe(409);
  expect(((await refused.json()) as { message: string }).message).toMatch(
    new RegExp(
      `^The dentists module was built for @dental/shared(/[\\w-]+)* \\^2\\.9\\.0; the app provides ${SHARED_VERSION.replaceAll('.', '\\.')}$`,
    ),
  );
  await Promise.all([bright.context.close(), harbor.context.close(), platform.request.dispose()]);
});

test('after visiting all five modules the page runs one copy of react and of the shared package, the shell’s', async ({
  page,
}) => {
  await signIn(page, 'admin');
  for (const screen of ['Appointments', 'Patients', 'Dentists', 'Calendar', 'Users']) {
    await page.getByRole('menuitem', { name: screen }).click();
    await expectScreen(page, screen);
  }
  const copies = await page.evaluate(() => {
    type Shared = Record<string, Record<string, Record<string, { from: string; loaded?: boolean }>>>;
    const federation = (globalThis as { __FEDERATION__?: { __SHARE__?: Record<string, Shared> } })
      .__FEDERATION__;
    const found: Record<string, string[]> = {};
    for (const scopes of Object.values(federation?.__SHARE__ ?? {}))
      for (const packages of Object.values(scopes))
        for (const [name, versions] of Object.entries(packages))
          for (const [version, share] of Object.entries(versions))
            if (share.loaded) found[name] = [...(found[name] ?? []), `${version} from ${share.from}`];
    return found;
  });
  for (const name of ['react', 'react-dom', '@dental/shared', '@dental/shared/ui', '@dental/shared/kit']) {
    expect(copies[name], name).toEqual([expect.stringMatching(/ from shell$/)]);
  }
  // The kit's forms and lists load first on a module's behalf (the runtime names that module), but
  // their only code is the shell's: no module's build carries a copy of any part of @dental/shared.
  for (const name of ['@dental/shared/ui/forms', '@dental/shared/ui/lists']) {
    expect(copies[name], name).toEqual([expect.stringMatching(/^\d+\.\d+\.\d+ from mf_/)]);
  }
  const manifests = ['appointments', 'patients', 'dentists', 'scheduling', 'admin'].map(
    (id) => `/modules/${id}/mf-manifest.json`,
  );
  for (const url of manifests) {
    const manifest = (await (await page.request.get(url)).json()) as {
      shared: Array<{ name: string; assets: { js: { sync: string[]; async: string[] } } }>;
    };
    const ownCopies = manifest.shared
      .filter(({ name }) => name.startsWith('@dental/shared'))
      .flatMap(({ name, assets }) =>
        [...assets.js.sync, ...assets.js.async].map((file) => `${name}: ${file}`),
      );
    expect(ownCopies, url).toEqual([]);
  }
});

test('a tab opened on a release keeps running it, screen after screen, after another release is published and pointed at', async ({
  page,
  baseURL,
  playwright,
}) => {
  test.setTimeout(120_000);
  const platform = await platformOf(playwright, baseURL);
  const files = buildFiles('mf-scheduling');
  const v1 = await platform.publish('scheduling', files, '1.0.0');
  await platform.point('scheduling', v1, null);
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/modules/scheduling/')) asked.push(new URL(request.url()).pathname);
  });
  await signIn(page, 'admin');
  await openScreen(page, '/availability', 'Availability');
  expect(asked).toContain(`/modules/scheduling/${v1}/remoteEntry.js`);

  // Meanwhile the team releases v2 to everyone; this tab opens its next screen from v1, still served.
  const v2 = await platform.publish(
    'scheduling',
    changed(files, 'remoteEntry.js', (text) => `${text}\n/* scheduling two */\n`),
    '1.0.1',
  );
  await platform.point('scheduling', v2, null);
  asked.length = 0;
  await sidebar(page).getByRole('menuitem', { name: 'Calendar' }).click();
  await expectScreen(page, 'Calendar');
  expect(asked.length).toBeGreaterThan(0);
  expect(asked.every((path) => path.startsWith(`/modules/scheduling/${v1}/`))).toBe(true);

  // The next page load runs v2.
  asked.length = 0;
  await openScreen(page, '/calendar', 'Calendar');
  expect(asked).toContain(`/modules/scheduling/${v2}/remoteEntry.js`);
  await platform.request.dispose();
});
