#!/usr/bin/env node
/**
 * The first visit of a module's screen, with and without the sidebar's hover preload and the idle
 * preload after sign-in (docs/architecture.md, Module releases). For each of ROUNDS rounds and each
 * module screen, a new browser context signs in, waits on the Dashboard, then clicks the screen's
 * sidebar entry: "cold" clicks at once with Save-Data on (no idle preload); "hovered" (Save-Data on)
 * rests the pointer on the entry for HOVER_MS first (a pointer on its way), then clicks; "idle" lets the
 * browser preload the modules while it is idle (the network quiet), then clicks. Timed from the click to
 * the screen's heading. The network is loopback, so the gain is the module's code fetched, parsed and
 * run before the click; on a clinic's network it is more.
 *
 * Usage: node bench/modulePreload.mjs   (ROUNDS=5, HOVER_MS=300, BENCH_PORT=3293; builds if needed)
 */
import { launchChromium, saveData } from './browser.mjs';
import { startBuiltApp } from './builtApp.mjs';
import { median } from './stats.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 3293);
const BASE = `http://localhost:${PORT}`;
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const HOVER_MS = Number(process.env.HOVER_MS ?? 300);
const SCREENS = ['Appointments', 'Patients', 'Dentists', 'Calendar', 'Users'];

const app = await startBuiltApp({
  port: PORT,
  name: 'preload',
  env: { LOGIN_RATE_LIMIT: '1000', PASSWORD_HASH_COST: '14' },
});
const browser = await launchChromium();
const timings = { cold: new Map(), hovered: new Map(), idle: new Map() };
try {
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const way of ['cold', 'hovered', 'idle']) {
      for (const screen of SCREENS) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const page = await context.newPage();
        if (way !== 'idle') await saveData(page);
        await page.route('**/api/events', (route) => route.abort());
        await page.goto(`${BASE}/login`);
        await page.getByLabel('Username or Email').fill('admin');
        await page.locator('#login-password').fill('admin123');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
        await page.waitForLoadState('networkidle');
        const entry = page
          .getByRole('menu', { name: 'Main navigation' })
          .getByRole('menuitem', { name: screen });
        if (way === 'hovered') {
          await entry.hover();
          await page.waitForTimeout(HOVER_MS);
        }
        const started = await page.evaluate(() => performance.now());
        await entry.click();
        await page.getByRole('heading', { name: screen, level: 1 }).waitFor();
        const shown = await page.evaluate(() => performance.now());
        const list = timings[way].get(screen) ?? [];
        list.push(shown - started);
        timings[way].set(screen, list);
        await context.close();
      }
    }
  }
  console.log(
    `First visit of a module's screen, click to heading, median of ${ROUNDS} (ms), hover ${HOVER_MS} ms:`,
  );
  console.log('screen         cold   hovered   idle');
  for (const screen of SCREENS) {
    const [cold, hovered, idle] = ['cold', 'hovered', 'idle'].map((way) => median(timings[way].get(screen)));
    console.log(
      `${screen.padEnd(13)} ${cold.toFixed(0).padStart(5)} ${hovered.toFixed(0).padStart(9)} ${idle.toFixed(0).padStart(6)}`,
    );
  }
} finally {
  await browser.close();
  app.stop();
}
