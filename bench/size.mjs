#!/usr/bin/env node
/**
 * Front-end budgets (issue: foundation): builds every package from scratch and times it, then serves
 * the built app on a fresh embedded database and, in Chromium, measures the JavaScript a user's
 * browser downloads (gzip size of each script body):
 *   - the sign-in screen (no module code before sign-in),
 *   - the dashboard after sign-in, all JavaScript together,
 *   - each module's own code over all its screens, and what each first visit adds with the kit's
 *     entries it is the first to need (printed, no budget),
 *   - a clinic's booking page, a cold first load until it shows its free times, and none of the staff
 *     app's scripts on it (antd, the sign-in page, other modules),
 *   - production builds of all six front-end packages (budget 60 s).
 * The budgets are `pageBudgets.json`'s, which the page-weight journey (e2e) checks in CI too.
 * Prints each page's biggest scripts and a table; exits non-zero when a budget is missed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { launchChromium, saveData, waitForServer } from './browser.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PORT = 3290;
const BASE = `http://localhost:${PORT}`;
const KB = 1024;
const BUDGETS = JSON.parse(readFileSync(path.join(root, 'bench/pageBudgets.json'), 'utf8'));
const results = [];
/** A figure beside its budget; `budget` null prints the figure alone. */
const record = (name, value, unit, budget) =>
  results.push({ name, value, unit, budget, ok: budget === null || value <= budget });

/**
 * What a script is, from its address and its text: the page's entry, a module's, or a library found by
 * a string only it holds. antd and the sign-in page are the staff app's, never the booking page's.
 */
const MARKERS = [
  ['antd', 'data-ant-cssinjs', true],
  ['the sign-in page', 'Username or Email', true],
  ['react-dom', '__reactContainer', false],
  ['react-router', 'React Router', false],
  ['react', 'react.transitional.element', false],
  ['zod', 'ZodError', false],
];
function partOf(url, text) {
  const { pathname } = new URL(url);
  const module = pathname.match(/^\/modules\/([^/]+)\//)?.[1];
  if (module) {
    const what = pathname.endsWith('/remoteEntry.js') ? 'entry' : 'code';
    return { label: `mf-${module} ${what}`, staff: module !== 'booking' };
  }
  if (/^\/main\.[0-9a-f]+\.js$/.test(pathname)) return { label: "the staff app's entry", staff: true };
  if (/^\/book\.[0-9a-f]+\.js$/.test(pathname))
    return { label: "the booking page's entry, federation runtime", staff: false };
  const marker = MARKERS.find(([, needle]) => text.includes(needle));
  return marker ? { label: marker[0], staff: marker[2] } : { label: '', staff: false };
}

const parts = []; // [page, scripts] to print before the table
/** Keeps a page's five biggest scripts (gzip) for the printout. */
function keepParts(pageName, scripts) {
  const biggest = [...scripts.entries()].sort((a, b) => b[1].gzip - a[1].gzip).slice(0, 5);
  parts.push([pageName, biggest]);
}

/** Collects the gzip size of every script `page` downloads into `scripts` (url -> {gzip, label, staff}). */
function collectScripts(page, scripts) {
  page.on('response', async (response) => {
    const url = response.url();
    const type = response.headers()['content-type'] ?? '';
    if (!url.endsWith('.js') && !type.includes('javascript')) return;
    try {
      const body = await response.body();
      scripts.set(url, { gzip: gzipSync(body).length, ...partOf(url, body.toString()) });
    } catch {}
  });
}
const sum = (scripts) => [...scripts.values()].reduce((total, script) => total + script.gzip, 0);

// 1. Build time, from scratch.
const buildStarted = Date.now();
const build = spawnSync(process.execPath, [path.join(root, 'scripts/build-all.mjs')], {
  cwd: root,
  stdio: 'ignore',
});
if (build.status !== 0) throw new Error('build failed');
record('Production build of all six front-end packages', (Date.now() - buildStarted) / 1000, 's', 60);

// 2. Serve the built app.
const dataDir = mkdtempSync(path.join(tmpdir(), 'dental-bench-'));
const server = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
  cwd: root,
  env: { ...process.env, PORT: String(PORT), HOST: 'localhost', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  stdio: 'ignore',
});

const browser = await launchChromium();
try {
  await waitForServer(BASE);
  const page = await browser.newPage();
  // What the pages need themselves: Save-Data keeps the app's idle preload of modules out of it.
  await saveData(page);
  // The app's stream of changes (GET /api/events) stays open, so the network is never idle with it.
  await page.route('**/api/events', (route) => route.abort());
  const scripts = new Map(); // url -> { gzip bytes, label, staff }
  collectScripts(page, scripts);
  const total = () => sum(scripts);
  const settle = () => page.waitForLoadState('networkidle');

  await page.goto(`${BASE}/login`);
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await settle();
  const loginBytes = total();
  const moduleCodeBeforeSignIn = [...scripts.keys()].filter((url) => url.includes('/modules/'));
  record('Sign-in screen, initial JavaScript (gzip)', loginBytes / KB, 'KB', BUDGETS.signInKB);
  record('Module scripts loaded before sign-in', moduleCodeBeforeSignIn.length, 'files', 0);
  keepParts('Sign-in screen', scripts);

  await page.getByLabel('Username or Email').fill('admin');
  await page.getByLabel('Password', { exact: true }).fill('admin123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  await settle();
  record('Dashboard after sign-in, all JavaScript (gzip)', total() / KB, 'KB', BUDGETS.dashboardKB);
  keepParts('Dashboard after sign-in', scripts);

  for (const [label, route] of [
    ['Appointments', '/appointments'],
    ['Patients', '/patients'],
    ['Dentists', '/dentists'],
    ['Availability', '/availability'],
    ['Calendar', '/calendar'],
    ['Users', '/users'],
    ['Settings', '/settings'],
  ]) {
    const before = total();
    await page.getByRole('menuitem', { name: label }).click();
    await page.waitForURL(`**${route}`);
    await page.getByRole('heading', { name: label, level: 1 }).waitFor();
    await settle();
    record(`First visit of ${route} adds (gzip)`, (total() - before) / KB, 'KB', null);
  }
  const moduleCode = new Map();
  for (const [url, script] of scripts) {
    const moduleId = new URL(url).pathname.match(/^\/modules\/([^/]+)\//)?.[1];
    if (moduleId) moduleCode.set(moduleId, (moduleCode.get(moduleId) ?? 0) + script.gzip);
  }
  for (const [moduleId, bytes] of [...moduleCode].sort())
    record(
      `The ${moduleId} module's own code, all its screens (gzip)`,
      bytes / KB,
      'KB',
      BUDGETS.moduleCodeKB,
    );

  // 3. A clinic's booking page (issue 41): the demo clinic's, once its admin turns online booking on.
  // A new browser context: a patient's phone holds none of the staff app's scripts in its cache.
  const login = await fetch(`${BASE}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'admin123' }),
  });
  const { access_token: token } = await login.json();
  const saved = await fetch(`${BASE}/api/settings`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      onlineBooking: {
        enabled: true,
        visitTypes: [{ treatment: 'Dental Checkup', newPatients: true, returningPatients: true }],
      },
    }),
  });
  if (!saved.ok) throw new Error(`turning online booking on answered ${saved.status}`);
  const { slug } = await saved.json();
  const booking = await (await browser.newContext()).newPage();
  const bookingScripts = new Map();
  collectScripts(booking, bookingScripts);
  await booking.goto(`${BASE}/book/${slug}`);
  await booking.getByRole('heading', { name: /^Free times on / }).waitFor();
  await booking.waitForLoadState('networkidle');
  record(
    `Booking page /book/${slug}, first load JavaScript (gzip)`,
    sum(bookingScripts) / KB,
    'KB',
    BUDGETS.bookingPageKB,
  );
  const staffScripts = [...bookingScripts].filter(([, script]) => script.staff);
  record("Staff app's scripts on the booking page", staffScripts.length, 'files', 0);
  for (const [url, script] of staffScripts)
    console.log(`staff app's script on the booking page: ${url} (${script.label})`);
  keepParts(`Booking page /book/${slug}`, bookingScripts);
} finally {
  await browser.close();
  server.kill();
  rmSync(dataDir, { recursive: true, force: true });
}

for (const [pageName, biggest] of parts) {
  console.log(`${pageName}, biggest scripts (gzip):`);
  for (const [url, script] of biggest) {
    const label = script.label ? ` (${script.label})` : '';
    console.log(`  ${(script.gzip / KB).toFixed(1).padStart(6)} KB  ${new URL(url).pathname}${label}`);
  }
}
console.log('');
const width = Math.max(...results.map((r) => r.name.length));
console.log(`${'measure'.padEnd(width)}  value      budget     ok`);
for (const r of results) {
  console.log(
    `${r.name.padEnd(width)}  ${`${r.value.toFixed(1)} ${r.unit}`.padEnd(10)} ${(r.budget === null ? '-' : `${r.budget} ${r.unit}`).padEnd(10)} ${r.ok ? 'yes' : 'NO'}`,
  );
}
process.exit(results.every((r) => r.ok) ? 0 : 1);
