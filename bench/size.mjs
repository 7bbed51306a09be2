#!/usr/bin/env node
/**
 * Front-end budgets (issue: foundation): builds every package from scratch and times it, then serves
 * the built app on a fresh embedded database and, in Chromium, measures the JavaScript a user's
 * browser downloads (gzip size of each script body):
 *   - the sign-in screen (budget 350 KB, no module code before sign-in),
 *   - the dashboard after sign-in, all JavaScript together (budget 600 KB),
 *   - what each module's first visit adds (budget 60 KB each),
 *   - production builds of all six front-end packages (budget 60 s).
 * Prints a table; exits non-zero when a budget is missed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { launchChromium, waitForServer } from './browser.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PORT = 3290;
const BASE = `http://localhost:${PORT}`;
const KB = 1024;
const results = [];
const record = (name, value, unit, budget) =>
  results.push({ name, value, unit, budget, ok: value <= budget });

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
  // The app's stream of changes (GET /api/events) stays open, so the network is never idle with it.
  await page.route('**/api/events', (route) => route.abort());
  const scripts = new Map(); // url -> gzip bytes
  page.on('response', async (response) => {
    const url = response.url();
    const type = response.headers()['content-type'] ?? '';
    if (!url.endsWith('.js') && !type.includes('javascript')) return;
    try {
      scripts.set(url, gzipSync(await response.body()).length);
    } catch {}
  });
  const total = () => [...scripts.values()].reduce((a, b) => a + b, 0);
  const settle = () => page.waitForLoadState('networkidle');

  await page.goto(`${BASE}/login`);
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await settle();
  const loginBytes = total();
  const moduleCodeBeforeSignIn = [...scripts.keys()].filter((url) => url.includes('/modules/'));
  record('Sign-in screen, initial JavaScript (gzip)', loginBytes / KB, 'KB', 350);
  record('Module scripts loaded before sign-in', moduleCodeBeforeSignIn.length, 'files', 0);

  await page.getByLabel('Username or Email').fill('admin');
  await page.getByLabel('Password', { exact: true }).fill('admin123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  await settle();
  record('Dashboard after sign-in, all JavaScript (gzip)', total() / KB, 'KB', 600);

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
    record(`First visit of ${route} adds (gzip)`, (total() - before) / KB, 'KB', 60);
  }
} finally {
  await browser.close();
  server.kill();
  rmSync(dataDir, { recursive: true, force: true });
}

const width = Math.max(...results.map((r) => r.name.length));
console.log(`${'measure'.padEnd(width)}  value      budget     ok`);
for (const r of results) {
  console.log(
    `${r.name.padEnd(width)}  ${`${r.value.toFixed(1)} ${r.unit}`.padEnd(10)} ${`${r.budget} ${r.unit}`.padEnd(10)} ${r.ok ? 'yes' : 'NO'}`,
  );
}
process.exit(results.every((r) => r.ok) ? 0 : 1);
