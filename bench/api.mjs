#!/usr/bin/env node
/**
 * API load benchmark (issue: the API). Serves the app on the large data set and drives it with
 * autocannon, 50 concurrent connections, on loopback only:
 *   - appointments list page (50 rows, status + dentist filter + search)   budget p95 ≤ 50 ms
 *   - patients search                                                        budget p95 ≤ 50 ms
 *   - calendar month (one dentist's whole month; all dentists' first 100)    budget p95 ≤ 50 ms
 *   - dashboard stats                                                        budget p95 ≤ 100 ms
 *   - throughput of the appointments list ≥ 25 % of a bare Fastify JSON endpoint in the same run.
 * The same URL asked again is answered from the clinic's read cache while nothing changed; each
 * endpoint is then run again with a new URL every request, all answered from the database.
 *
 * Usage:
 *   DATABASE_URL=postgres://… node bench/api.mjs   (the database already holds `npm run seed:large`)
 *   DATA_DIR=/path/to/pglite node bench/api.mjs     (PGlite folder seeded with `npm run seed:large`)
 * Options (env): DURATION seconds per endpoint (10), CONNECTIONS (50), PORT (3295).
 */
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { signIn, startApi, waitForApi } from './apiProcess.mjs';

const PORT = Number(process.env.PORT ?? 3295);
const BARE_PORT = PORT + 1;
const BASE = `http://127.0.0.1:${PORT}`;
const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const database = process.env.DATABASE_URL ? 'PostgreSQL' : `PGlite (${process.env.DATA_DIR ?? 'data'})`;

/** Runs autocannon and computes p95 from every response time (autocannon reports no p95 itself). */
function load(name, url, headers, { uncached = false } = {}) {
  return new Promise((resolve, reject) => {
    const times = [];
    let non2xx = 0;
    let serial = 0;
    // A query parameter the API ignores makes every URL new, so no answer comes from memory.
    const requests = uncached
      ? [
          {
            setupRequest: (request) => {
              serial += 1;
              return { ...request, path: `${request.path}&uncached=${serial}` };
            },
          },
        ]
      : undefined;
    const instance = autocannon(
      { url, connections: CONNECTIONS, duration: DURATION, headers, requests },
      (error, result) => {
        if (error) return reject(error);
        times.sort((a, b) => a - b);
        const pick = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? Number.NaN;
        resolve({
          name,
          requests: times.length,
          rps: result.requests.average,
          p50: pick(0.5),
          p95: pick(0.95),
          p99: pick(0.99),
          non2xx,
        });
      },
    );
    instance.on('response', (_client, status, _bytes, responseTime) => {
      times.push(responseTime);
      if (status < 200 || status >= 300) non2xx++;
    });
  });
}

const bare = Fastify();
bare.get('/bare', async () => ({ hello: 'world' }));
await bare.listen({ port: BARE_PORT, host: '127.0.0.1' });

const server = startApi({ port: PORT, env: { SEED_DEMO: 'false' } });

try {
  await waitForApi(BASE, 300);
  const token = await signIn(BASE, 'large.admin', 'large123', 'run npm run seed:large first');
  const headers = { authorization: `Bearer ${token}` };
  const dentists = await (await fetch(`${BASE}/api/dentists?limit=5`, { headers })).json();
  const dentistId = dentists.data[0].id;
  const today = new Date();

  const month = `month=${today.getMonth() + 1}&year=${today.getFullYear()}`;
  const endpoints = [
    {
      name: 'appointments list (50 rows, status+dentist+search)',
      path: `/api/appointments?status=confirmed&dentist_id=${dentistId}&search=an&limit=50`,
      budget: 50,
    },
    { name: 'patients search', path: '/api/patients?search=smith&limit=50', budget: 50 },
    {
      name: "calendar month (a dentist's whole month)",
      path: `/api/calendar/appointments?${month}&dentist_id=${dentistId}`,
      budget: 50,
    },
    {
      name: 'calendar month (all dentists, first 100)',
      path: `/api/calendar/appointments?${month}&limit=100`,
      budget: 50,
    },
    // The stats keep their own per-clinic cache whatever the URL: no uncached run.
    { name: 'dashboard stats', path: '/api/dashboard/stats', budget: 100, cachedOnly: true },
  ];

  const bareRun = await load('bare Fastify JSON endpoint', `http://127.0.0.1:${BARE_PORT}/bare`, {});
  const runs = [{ ...bareRun }];
  for (const endpoint of endpoints) {
    runs.push({
      ...(await load(endpoint.name, `${BASE}${endpoint.path}`, headers)),
      budget: endpoint.budget,
    });
  }
  for (const endpoint of endpoints.filter((candidate) => !candidate.cachedOnly)) {
    runs.push(
      await load(`${endpoint.name}, uncached`, `${BASE}${endpoint.path}`, headers, { uncached: true }),
    );
  }

  console.log(`\nDatabase: ${database}; ${CONNECTIONS} connections, ${DURATION} s per endpoint\n`);
  console.log(
    `${'endpoint'.padEnd(60)}  ${'req/s'.padStart(7)}  ${'p50 ms'.padStart(6)}  ${'p95 ms'.padStart(6)}  ${'p99 ms'.padStart(6)}  non-2xx  budget`,
  );
  let ok = true;
  for (const run of runs) {
    const pass = run.budget === undefined || run.p95 <= run.budget;
    ok &&= pass && run.non2xx === 0;
    console.log(
      `${run.name.padEnd(60)}  ${run.rps.toFixed(0).padStart(7)}  ${run.p50.toFixed(1).padStart(6)}  ${run.p95
        .toFixed(1)
        .padStart(6)}  ${run.p99.toFixed(1).padStart(6)}  ${String(run.non2xx).padStart(7)}  ${
        run.budget === undefined ? '' : `p95 ≤ ${run.budget} ${pass ? 'ok' : 'MISSED'}`
      }`,
    );
  }
  const share = runs[1].rps / bareRun.rps;
  ok &&= share >= 0.25;
  console.log(
    `\nappointments list throughput = ${(share * 100).toFixed(1)} % of bare Fastify (budget ≥ 25 %)`,
  );
  console.log(
    'Uncached rows: every request a new URL, so each is answered from the database (not budgeted).',
  );
  process.exitCode = ok ? 0 : 1;
} finally {
  // Requests still running when the last run ended finish before the server stops.
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  server.kill();
  await bare.close();
}
