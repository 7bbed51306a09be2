#!/usr/bin/env node
/**
 * Largest Contentful Paint (LCP) in Chromium, on loopback, cold cache: every load in a new browser
 * context, so nothing of the app is in its HTTP cache. Serves the built app on a fresh embedded
 * database and measures, LOADS times each, with the median beside its budget:
 *   - the sign-in page: /login, until its Sign in button shows and the network is idle (budget 500 ms);
 *   - the dashboard: / loaded afresh with a stored session (budget 1000 ms). Sign-in moves to the
 *     dashboard inside the page, and a page's LCP ends at its first input (the click on Sign in), so
 *     no paint of the dashboard after it is an LCP. Instead the bench signs in once through the API and
 *     each context starts with that session where Remember me keeps it (localStorage): the dashboard
 *     is then a page load of its own, with Chromium's LCP entry. The entry is read once the
 *     dashboard's data shows (its stat cards, today's appointments and recent activity, none
 *     loading) and the network is idle, so no later, larger paint is missed.
 * LCP is the last `largest-contentful-paint` entry's start time (from the navigation's start), read
 * through a buffered PerformanceObserver. Beside the dashboard's it prints when its data was on screen
 * (two animation frames after it first showed whole, no budget): an LCP well before that means the
 * largest paint came before the data. The signed-in app's event stream (GET /api/events) never ends,
 * so the dashboard's loads refuse it: the network would never be idle with it, and no paint needs it.
 * Exits non-zero when a median misses its budget.
 *
 * Usage: npm run bench:paint -w bench   (LOADS=5, BENCH_PORT=3294; builds if needed)
 */
import { launchChromium } from './browser.mjs';
import { startBuiltApp } from './builtApp.mjs';
import { median } from './stats.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 3294);
const BASE = `http://localhost:${PORT}`;
const LOADS = Number(process.env.LOADS ?? 5);
const BUDGETS = { signIn: 500, dashboard: 1000 };
// The session's keys in the browser's storage, as the shell reads them at start.
const TOKEN_KEY = 'authToken';
const USER_KEY = 'dental_user';
const VIEWPORT = { width: 1280, height: 800 };

/**
 * The page's LCP so far: the last candidate Chromium reported, with the element it painted. LCP entries
 * are not in the performance timeline's lists, only given to an observer; `buffered` hands over those
 * already reported. None at all (a page that painted no content) fails the load.
 */
function readLcp(page) {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const none = setTimeout(() => reject(new Error('no largest-contentful-paint entry')), 2000);
        new PerformanceObserver((list, observer) => {
          const last = list.getEntries().at(-1);
          observer.disconnect();
          clearTimeout(none);
          const element = last.element;
          // The app's own class names say what it is; antd's generated ones say nothing.
          const classes = String(element?.className ?? '')
            .split(/\s+/)
            .filter((name) => name && !/^(ant|css)-/.test(name));
          const what = element
            ? `${[element.tagName.toLowerCase(), ...classes].join('.')} "${(element.textContent ?? '').trim().slice(0, 40)}"`
            : '(element no longer in the page)';
          resolve({ ms: last.startTime, size: last.size, what });
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      }),
  );
}

/**
 * Runs in the page before its own scripts: notes the time the dashboard's data is first on screen
 * whole (stat cards, today's appointments, recent activity, no loading line), two animation frames
 * after it is in the document: the frame holding it has been painted by then, though the LCP entry's
 * time, when that frame reached the screen, can come a frame later.
 */
function watchDashboard() {
  const complete = () =>
    document.querySelector('.dashboard .dashboard-stat') &&
    document.querySelector('.dashboard .dashboard-today') &&
    document.querySelector('.dashboard .dashboard-activity') &&
    !document.querySelector('.dashboard [role="status"]');
  const observer = new MutationObserver(() => {
    if (!complete()) return;
    observer.disconnect();
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        window.__dashboardPainted = performance.now();
      }),
    );
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
}

async function signInThroughApi() {
  const response = await fetch(`${BASE}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'admin123' }),
  });
  if (!response.ok) throw new Error(`POST /auth/login answered ${response.status}`);
  const { access_token: token, user } = await response.json();
  return { token, user };
}

async function loadSignIn(browser) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    await page.goto(`${BASE}/login`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.waitForLoadState('networkidle');
    return await readLcp(page);
  } finally {
    await context.close();
  }
}

async function loadDashboard(browser, session) {
  const context = await browser.newContext({
    viewport: VIEWPORT,
    storageState: {
      cookies: [],
      origins: [
        {
          origin: BASE,
          localStorage: [
            { name: TOKEN_KEY, value: session.token },
            { name: USER_KEY, value: JSON.stringify(session.user) },
          ],
        },
      ],
    },
  });
  try {
    const page = await context.newPage();
    await page.route('**/api/events', (route) => route.abort());
    await page.addInitScript(watchDashboard);
    await page.goto(`${BASE}/`);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    const painted = await page.waitForFunction(() => window.__dashboardPainted);
    await page.waitForLoadState('networkidle');
    if (await page.locator('.dashboard-sample-tag').count())
      throw new Error('the dashboard shows sample data: its requests failed');
    return { ...(await readLcp(page)), dataMs: await painted.jsonValue() };
  } finally {
    await context.close();
  }
}

const app = await startBuiltApp({ port: PORT, name: 'paint', env: { LOGIN_RATE_LIMIT: '1000' } });
const browser = await launchChromium();
const results = [];
try {
  const signIn = [];
  for (let load = 0; load < LOADS; load += 1) signIn.push(await loadSignIn(browser));
  const session = await signInThroughApi();
  const dashboard = [];
  for (let load = 0; load < LOADS; load += 1) dashboard.push(await loadDashboard(browser, session));

  console.log('Sign-in page: /login, a page load, cold cache; LCP entry');
  signIn.forEach((lcp, i) => {
    console.log(`  load ${i + 1}: LCP ${lcp.ms.toFixed(0).padStart(5)} ms  ${lcp.what} (${lcp.size} px²)`);
  });
  console.log(
    'Dashboard: / as a page load with a stored session (Remember me), cold cache; LCP entry (not click to content)',
  );
  dashboard.forEach((lcp, i) => {
    console.log(
      `  load ${i + 1}: LCP ${lcp.ms.toFixed(0).padStart(5)} ms, data painted ${lcp.dataMs.toFixed(0).padStart(5)} ms  ${lcp.what} (${lcp.size} px²)`,
    );
  });
  results.push(
    { name: 'Sign-in page LCP, median', value: median(signIn.map((l) => l.ms)), budget: BUDGETS.signIn },
    { name: 'Dashboard LCP, median', value: median(dashboard.map((l) => l.ms)), budget: BUDGETS.dashboard },
    { name: 'Dashboard data painted, median', value: median(dashboard.map((l) => l.dataMs)), budget: null },
  );
} finally {
  await browser.close();
  app.stop();
}

console.log('');
const width = Math.max(...results.map((r) => r.name.length));
console.log(`${'measure'.padEnd(width)}  value     budget    ok`);
for (const r of results) {
  const ok = r.budget === null || r.value <= r.budget;
  r.ok = ok;
  console.log(
    `${r.name.padEnd(width)}  ${`${r.value.toFixed(0)} ms`.padEnd(9)} ${(r.budget === null ? '-' : `${r.budget} ms`).padEnd(9)} ${r.budget === null ? '-' : ok ? 'yes' : 'NO'}`,
  );
}
process.exit(results.every((r) => r.ok) ? 0 : 1);
