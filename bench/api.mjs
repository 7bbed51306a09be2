#!/usr/bin/env node
/**
 * API load benchmark (issue: the API). Serves the app on the large data set and drives it with
 * autocannon, 50 concurrent connections, on loopback only:
 *   - appointments list page (50 rows, status + dentist filter + search)   budget p95 ≤ 50 ms
 *   - patients search                                                        budget p95 ≤ 50 ms
 *   - calendar month                                                         budget p95 ≤ 50 ms
 *   - dashboard stats                                                        budget p95 ≤ 100 ms
 *   - throughput of the appointments list ≥ 25 % of a bare Fastify JSON endpoint in the same run.
 *
 * Usage:
 *   DATABASE_URL=postgres://… node bench/api.mjs   (the database already holds `npm run seed:large`)
 *   DATA_DIR=/path/to/pglite node bench/api.mjs     (PGlite folder seeded with `npm run seed:large`)
 * Options (env): DURATION seconds per endpoint (10), CONNECTIONS (50), PORT (3295).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Fastify from 'fastify';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PORT = Number(process.env.PORT ?? 3295);
const BARE_PORT = PORT + 1;
const BASE = `http://127.0.0.1:${PORT}`;
const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const database = process.env.DATABASE_URL ? 'PostgreSQL' : `PGlite (${process.env.DATA_DIR ?? 'data'})`;

async function waitFor(url) {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not answer`);
}

/** Runs autocannon and computes p95 from every response time (autocannon reports no p95 itself). */
function load(name, url, headers) {
  return new Promise((resolve, reject) => {
    const times = [];
    let non2xx = 0;
    const instance = autocannon(
      { url, connections: CONNECTIONS, duration: DURATION, headers },
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

const server = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    API_RATE_LIMIT: '100000000',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});

try {
  await waitFor(`${BASE}/api/health`);
  const login = await fetch(`${BASE}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'large.admin', password: 'large123' }),
  });
  if (!login.ok)
    throw new Error(`large.admin could not sign in (${login.status}): run npm run seed:large first`);
  const { access_token: token } = await login.json();
  const headers = { authorization: `Bearer ${token}` };
  const dentists = await (await fetch(`${BASE}/api/dentists?limit=5`, { headers })).json();
  const dentistId = dentists.data[0].id;
  const today = new Date();

  const runs = [];
  runs.push(await load('bare Fastify JSON endpoint', `http://127.0.0.1:${BARE_PORT}/bare`, {}));
  runs.push(
    await load(
      'appointments list (50 rows, status+dentist+search)',
      `${BASE}/api/appointments?status=confirmed&dentist_id=${dentistId}&search=an&limit=50`,
      headers,
    ),
  );
  runs.push(await load('patients search', `${BASE}/api/patients?search=smith&limit=50`, headers));
  runs.push(
    await load(
      'calendar month',
      `${BASE}/api/calendar/appointments?month=${today.getMonth() + 1}&year=${today.getFullYear()}&limit=100`,
      headers,
    ),
  );
  runs.push(await load('dashboard stats', `${BASE}/api/dashboard/stats`, headers));

  const budgets = { 'patients search': 50, 'calendar month': 50, 'dashboard stats': 100 };
  budgets['appointments list (50 rows, status+dentist+search)'] = 50;
  const bareRps = runs[0].rps;
  console.log(`\nDatabase: ${database}; ${CONNECTIONS} connections, ${DURATION} s per endpoint\n`);
  console.log(
    'endpoint                                            req/s     p50 ms  p95 ms  p99 ms  non-2xx  budget',
  );
  let ok = true;
  for (const run of runs) {
    const budget = budgets[run.name];
    const pass = budget === undefined || run.p95 <= budget;
    ok &&= pass && run.non2xx === 0;
    console.log(
      `${run.name.padEnd(50)}  ${run.rps.toFixed(0).padStart(7)}  ${run.p50.toFixed(1).padStart(6)}  ${run.p95
        .toFixed(1)
        .padStart(6)}  ${run.p99.toFixed(1).padStart(6)}  ${String(run.non2xx).padStart(7)}  ${
        budget === undefined ? '' : `p95 ≤ ${budget} ${pass ? 'ok' : 'MISSED'}`
      }`,
    );
  }
  const share = runs[1].rps / bareRps;
  ok &&= share >= 0.25;
  console.log(
    `\nappointments list throughput = ${(share * 100).toFixed(1)} % of bare Fastify (budget ≥ 25 %)`,
  );
  process.exitCode = ok ? 0 : 1;
} finally {
  server.kill();
  await bare.close();
}
