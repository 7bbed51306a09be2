import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, type Page, test } from './fixtures';
import { signIn, turnOnlineBookingOn } from './helpers';

/**
 * What each page makes the browser download, from the built app, against the budgets of
 * `bench/pageBudgets.json` (docs/architecture.md, The UI kit): the sign-in page, the dashboard after
 * sign-in, each module's own code over all its screens, and a clinic's booking page. Sizes are gzip
 * sizes of the script bodies, as `bench/size.mjs` prints them: the same build gives the same figures
 * on any machine, so this fails only when a change makes a page heavier than its budget.
 */
const BUDGETS = JSON.parse(readFileSync(path.join(__dirname, '../../bench/pageBudgets.json'), 'utf8')) as {
  signInKB: number;
  dashboardKB: number;
  moduleCodeKB: number;
  bookingPageKB: number;
};
const KB = 1024;

/** Every script the page downloads from now on: its path and gzip size. */
function scriptsOf(page: Page): Map<string, number> {
  const scripts = new Map<string, number>();
  page.on('response', async (response) => {
    const url = new URL(response.url());
    if (!url.pathname.endsWith('.js')) return;
    const body = await response.body().catch(() => null);
    if (body) scripts.set(url.pathname, gzipSync(body).length);
  });
  return scripts;
}
const kilobytes = (sizes: Iterable<number>) =>
  Math.round(([...sizes].reduce((a, b) => a + b, 0) / KB) * 10) / 10;

/** Waits until the page has fetched all it needs; the event stream stays open, so it is cut off. */
async function settled(page: Page) {
  await page.waitForLoadState('networkidle');
}

test('the sign-in page, the dashboard and each module stay within their JavaScript budgets', async ({
  page,
}) => {
  // What the pages need themselves: with Save-Data the app does not preload modules while idle.
  const session = await page.context().newCDPSession(page);
  await session.send('Emulation.setDataSaverOverride', { dataSaverEnabled: true });
  await page.route('**/api/events', (route) => route.abort());
  const scripts = scriptsOf(page);
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await settled(page);
  const signInKB = kilobytes(scripts.values());
  expect(signInKB, `sign-in page: ${signInKB} KB of JavaScript`).toBeLessThanOrEqual(BUDGETS.signInKB);
  expect([...scripts.keys()].filter((file) => file.startsWith('/modules/'))).toEqual([]);

  await signIn(page, 'admin');
  await settled(page);
  const dashboardKB = kilobytes(scripts.values());
  expect(dashboardKB, `dashboard after sign-in: ${dashboardKB} KB`).toBeLessThanOrEqual(BUDGETS.dashboardKB);

  for (const screen of [
    'Appointments',
    'Patients',
    'Dentists',
    'Availability',
    'Calendar',
    'Users',
    'Settings',
  ]) {
    await page.getByRole('menuitem', { name: screen }).click();
    await expect(page.getByRole('heading', { name: screen, level: 1 })).toBeVisible();
    await settled(page);
  }
  const byModule = new Map<string, number[]>();
  for (const [file, size] of scripts) {
    const moduleId = file.match(/^\/modules\/([^/]+)\//)?.[1];
    if (moduleId) byModule.set(moduleId, [...(byModule.get(moduleId) ?? []), size]);
  }
  expect([...byModule.keys()].sort()).toEqual([
    'admin',
    'appointments',
    'dentists',
    'patients',
    'scheduling',
  ]);
  for (const [moduleId, sizes] of byModule) {
    const moduleKB = kilobytes(sizes);
    expect(moduleKB, `the ${moduleId} module's own code: ${moduleKB} KB`).toBeLessThanOrEqual(
      BUDGETS.moduleCodeKB,
    );
  }
});

test("a clinic's booking page stays within its JavaScript budget", async ({
  page,
  browser,
  baseURL,
  journey,
}) => {
  await turnOnlineBookingOn(page, journey);
  // A patient's phone holds none of the staff app's scripts: a browser context of its own.
  const patient = await (await browser.newContext({ baseURL })).newPage();
  const scripts = scriptsOf(patient);
  await patient.goto('/book/bright-smile-dental');
  await expect(patient.getByRole('heading', { name: /^Free times on / })).toBeVisible();
  await settled(patient);
  const bookingKB = kilobytes(scripts.values());
  expect(bookingKB, `booking page: ${bookingKB} KB`).toBeLessThanOrEqual(BUDGETS.bookingPageKB);
  await patient.context().close();
});
