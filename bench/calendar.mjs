#!/usr/bin/env node
/**
 * The Calendar with a busy month (issue: scheduling): serves the built app on a fresh embedded
 * database, books 500 appointments into one month through the API, then in Chromium measures
 *   - the requests the month needs (budget: one request for the month's appointments),
 *   - the time from loading /calendar on that month afresh to the grid showing it (budget 2500 ms),
 *     and from Next month in the app (budget 500 ms, the month read from the server again),
 *   - the longest main-thread task while the page scrolls and the selected day moves through the
 *     whole month (budget 50 ms: a task longer than that is a dropped frame, i.e. jank).
 * Prints a table; exits non-zero when a budget is missed. `node bench/calendar.mjs`
 */
import { launchChromium } from './browser.mjs';
import { startBuiltApp } from './builtApp.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 3292);
const BASE = `http://localhost:${PORT}`;
const APPOINTMENTS = 500;
const results = [];
const record = (name, value, unit, budget) =>
  results.push({ name, value, unit, budget, ok: value <= budget });

const app = await startBuiltApp({
  port: PORT,
  name: 'calendar',
  env: { LOG_FORMAT: 'json', API_RATE_LIMIT: '100000', REMINDERS_POLL_S: '0' },
});

async function call(token, method, url, body) {
  const response = await fetch(`${BASE}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** The month after next, so that every day of it can be booked. */
function benchMonth() {
  const now = new Date();
  const first = new Date(now.getFullYear(), now.getMonth() + 2, 1);
  return { year: first.getFullYear(), month: first.getMonth() + 1 };
}
const pad = (n) => String(n).padStart(2, '0');

/** 500 visits spread over the month's days and the clinic's dentists, every quarter hour from 08:00. */
async function bookMonth(token, { year, month }) {
  const dentists = (await call(token, 'GET', '/api/dentists?limit=100&status=active')).data;
  const days = new Date(year, month, 0).getDate();
  let booked = 0;
  for (let slot = 0; booked < APPOINTMENTS; slot++) {
    for (let day = 1; day <= days && booked < APPOINTMENTS; day++) {
      for (const dentist of dentists) {
        if (booked >= APPOINTMENTS) break;
        const minutes = 8 * 60 + slot * 15;
        await call(token, 'POST', '/api/appointments', {
          patient: `Bench Patient ${booked + 1}`,
          phone: `555-${pad(Math.floor(booked / 100))}${pad(booked % 100)}`,
          dentist_id: dentist.id,
          date: `${year}-${pad(month)}-${pad(day)}`,
          time: `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`,
          treatment: 'Dental Checkup',
          notes: '',
          status: 'pending',
        });
        booked += 1;
      }
    }
  }
  return booked;
}

const browser = await launchChromium();
try {
  const { access_token: token } = await call(null, 'POST', '/auth/login', {
    username: 'admin',
    password: 'admin123',
  });
  const target = benchMonth();
  const monthParam = `${target.year}-${pad(target.month)}`;
  const bookingStarted = Date.now();
  const booked = await bookMonth(token, target);
  console.log(
    `Booked ${booked} appointments into ${monthParam} in ${((Date.now() - bookingStarted) / 1000).toFixed(1)} s`,
  );

  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  // The app's stream of changes (GET /api/events) stays open, so the network is never idle with it.
  await page.route('**/api/events', (route) => route.abort());
  await page.goto(`${BASE}/login`);
  await page.getByLabel('Username or Email').fill('admin');
  await page.getByLabel('Password', { exact: true }).fill('admin123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  // The module's code once, so that what is timed is the month, not the first download of the screen.
  await page.goto(`${BASE}/calendar`);
  await page.getByRole('grid', { name: 'Month' }).waitFor();

  const monthRequests = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/calendar/appointments')) monthRequests.push(request.url());
  });
  // Long tasks of the main thread, from here on.
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        window.__longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  // A fresh load of the month's address: the whole app boots, signs the session in again, then the month.
  let opened = Date.now();
  await page.goto(`${BASE}/calendar?month=${monthParam}&day=${monthParam}-01`);
  await page
    .getByText(/^\+\d+ more$/)
    .first()
    .waitFor();
  record(`Load /calendar afresh on a month of ${booked} appointments`, Date.now() - opened, 'ms', 2500);
  await page.waitForLoadState('networkidle');
  record("Requests for the month's appointments", monthRequests.length, 'requests', 1);

  // Within the app: from the month before, Next month, until the grid shows the busy month.
  const busyFirst = page.locator(`td:has(button[data-day="${monthParam}-01"])`).getByText(/^\+\d+ more$/);
  await page.getByRole('button', { name: 'Previous month' }).click();
  await busyFirst.waitFor({ state: 'detached' });
  await page.waitForLoadState('networkidle');
  opened = Date.now();
  await page.getByRole('button', { name: 'Next month' }).click();
  await busyFirst.waitFor();
  record(`Next month onto ${booked} appointments, until the grid shows them`, Date.now() - opened, 'ms', 500);

  // Scroll the page, then walk the selected day through the month with the keyboard (each day's
  // panel lists its visits): the tasks that ran meanwhile are what a user would feel.
  const mark = await page.evaluate(() => performance.now());
  for (let step = 0; step < 10; step++) await page.mouse.wheel(0, step < 5 ? 400 : -400);
  await page.locator(`[data-day="${monthParam}-01"]`).focus();
  const days = new Date(target.year, target.month, 0).getDate();
  for (let day = 2; day <= days; day++) {
    await page.keyboard.press('ArrowRight');
    await page.locator(`[data-day="${monthParam}-${pad(day)}"]:focus`).waitFor();
  }
  const longest = await page.evaluate(
    (since) =>
      Math.max(0, ...window.__longTasks.filter((task) => task.start >= since).map((task) => task.duration)),
    mark,
  );
  record(
    'Longest main-thread task while scrolling and moving day by day through the month',
    longest,
    'ms',
    50,
  );
} finally {
  await browser.close();
  app.stop();
}

const width = Math.max(...results.map((r) => r.name.length));
console.log(`\n${'measure'.padEnd(width)}  value        budget   ok`);
for (const r of results) {
  const value = `${Number.isInteger(r.value) ? r.value : r.value.toFixed(1)} ${r.unit}`;
  console.log(
    `${r.name.padEnd(width)}  ${value.padEnd(12)} ${`${r.budget} ${r.unit}`.padEnd(8)} ${r.ok ? 'yes' : 'NO'}`,
  );
}
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
