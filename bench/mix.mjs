#!/usr/bin/env node
/**
 * A front desk's real mix of reads on the large clinic: every request a different query, as staff at
 * many desks ask them (a search of 2-4 letters, a status, a dentist, a page 1-10, a month of the last
 * two years, one patient's history, the dashboard). Each kind of request runs on its own share of the
 * connections, all at the same time, so each kind's p95 is measured under the whole mix.
 *
 * Usage (the database already holds `npm run seed:large`):
 *   DATABASE_URL=postgres://… node bench/mix.mjs            50 connections, read cache off
 *   DATA_DIR=/path/to/pglite CONNECTIONS=10 node bench/mix.mjs
 *   READ_CACHE=on node bench/mix.mjs                         the same mix with the read cache on
 * Options (env): DURATION seconds (20), CONNECTIONS (50), PORT (3297), SEED (1); PROF=1 writes the API
 * process's CPU profile to /tmp/prof (node --cpu-prof); ALONE=1 runs each kind by itself instead and
 * prints the CPU time a request costs the API, PostgreSQL and the load generator (ONLY=text: just the
 * kinds whose name holds it; ALONE_CONNECTIONS: 10 unless told).
 * After the mix it prints what one of its requests cost the machine's CPU in all (API, database, load
 * generator), the most requests per second the cores allow at that cost, and the least mean wait
 * of each closed-loop connection at that rate. Then the same mix at half the rate it reached
 * (OPEN_SHARE, 0.5) on a fixed schedule, an open loop, each kind's p95 timed from when its request
 * was due against its budget; and the throughput of a bare Fastify endpoint and of a bare Node HTTP
 * server (a process of its own), asked by the same generator, with the mix's share of each.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { signIn, startApi, waitForApi } from './apiProcess.mjs';
import { keptAliveGetter, pickByShare, sendOnSchedule } from './openLoop.mjs';
import { cpuSecondsOf, postgresCpuSeconds } from './processCpu.mjs';
import { generator } from './seededRandom.mjs';
import { quantile } from './stats.mjs';

const PORT = Number(process.env.PORT ?? 3297);
const BASE = `http://127.0.0.1:${PORT}`;
const DURATION = Number(process.env.DURATION ?? 20);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const READ_CACHE = process.env.READ_CACHE ?? 'off';
const ALONE = process.env.ALONE === '1';
/** With ALONE=1: only the kinds whose name holds this text (`ONLY=calendar`). */
const ONLY = process.env.ONLY ?? '';
const ALONE_CONNECTIONS = Number(process.env.ALONE_CONNECTIONS ?? 10);
/** The open loop's rate, as a share of what the closed loop reached. */
const OPEN_SHARE = Number(process.env.OPEN_SHARE ?? 0.5);
const database = process.env.DATABASE_URL ? 'PostgreSQL' : `PGlite (${process.env.DATA_DIR ?? 'data'})`;
/** PGlite serves a clinic's few desks from inside the API process: its budget is 100 ms for every kind. */
const PGLITE_BUDGET = process.env.DATABASE_URL ? null : 100;

const random = generator(Number(process.env.SEED ?? 1));
const pick = (values) => values[Math.floor(random() * values.length)];
const between = (low, high) => low + Math.floor(random() * (high - low + 1));

const STATUSES = ['pending', 'confirmed', 'cancelled', 'completed'];
/** Starts of first names, last names and phone numbers, as staff type them. */
const TERMS = [
  'an',
  'ma',
  'jo',
  'li',
  'sa',
  'em',
  'ol',
  'no',
  'sm',
  'wi',
  'jon',
  'mar',
  'gar',
  'lee',
  'ken',
  'nat',
  'ava',
  'soph',
  'will',
  'brow',
  'tay',
  'mil',
  'dav',
  'and',
  'har',
  'wal',
  'cla',
  'rob',
  '555',
  '5551',
  '55512',
];

function monthOfLastTwoYears() {
  const now = new Date();
  const back = between(0, 23);
  const when = new Date(now.getFullYear(), now.getMonth() - back, 1);
  return { month: when.getMonth() + 1, year: when.getFullYear() };
}

function monthRange({ month, year }) {
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const mm = String(month).padStart(2, '0');
  return { from: `${year}-${mm}-01`, to: `${year}-${mm}-${String(last).padStart(2, '0')}` };
}

/**
 * The mix's kinds of request: each a name, its p95 budget, its share of the connections and the
 * next path to ask (a new query each time). memory.mjs sends the same mix on a fixed schedule.
 */
export function kinds({ dentistIds, patientIds }) {
  return [
    {
      name: 'appointments list',
      budget: 50,
      share: 0.3,
      path: () => {
        const query = new URLSearchParams({ page: String(between(1, 10)), limit: '20' });
        if (random() < 0.5) query.set('status', pick(STATUSES));
        if (random() < 0.5) query.set('dentist_id', String(pick(dentistIds)));
        if (random() < 0.4) query.set('search', pick(TERMS));
        if (random() < 0.5) {
          const range = monthRange(monthOfLastTwoYears());
          query.set('from', range.from);
          query.set('to', range.to);
        }
        return `/api/appointments?${query}`;
      },
    },
    {
      name: 'patient search',
      budget: 50,
      share: 0.3,
      path: () => `/api/patients?search=${pick(TERMS)}&page=${between(1, 10)}&limit=20`,
    },
    {
      name: 'calendar month',
      budget: 50,
      share: 0.15,
      path: () => {
        const { month, year } = monthOfLastTwoYears();
        return `/api/calendar/appointments?month=${month}&year=${year}&dentist_id=${pick(dentistIds)}`;
      },
    },
    {
      name: "a patient's appointments",
      budget: 50,
      share: 0.15,
      path: () => `/api/patients/${pick(patientIds)}/appointments`,
    },
    { name: 'dashboard stats', budget: 100, share: 0.1, path: () => '/api/dashboard/stats' },
  ];
}

function load(kind, connections, headers) {
  return new Promise((resolve, reject) => {
    const times = [];
    let non2xx = 0;
    const instance = autocannon(
      {
        url: BASE,
        connections,
        duration: DURATION,
        headers,
        requests: [{ setupRequest: (request) => ({ ...request, path: kind.path() }) }],
      },
      (error, result) => {
        if (error) return reject(error);
        times.sort((a, b) => a - b);
        const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? Number.NaN;
        resolve({ ...kind, connections, rps: result.requests.average, p50: at(0.5), p95: at(0.95), non2xx });
      },
    );
    instance.on('response', (_client, status, _bytes, responseTime) => {
      times.push(responseTime);
      if (status < 200 || status >= 300) non2xx++;
    });
  });
}

/**
 * ALONE=1: each kind by itself (on ALONE_CONNECTIONS connections), with the CPU time one request
 * costs the API process, the PostgreSQL server (all its processes on this machine) and this load
 * generator: what the mix's two cores are spent on.
 */
async function eachKindAlone(mix, headers, server) {
  console.log(
    `\nEach kind alone, ${ALONE_CONNECTIONS} connections, ${DURATION} s; CPU ms per request (Linux /proc):\n`,
  );
  console.log(
    `${'kind of request'.padEnd(26)}  ${'req/s'.padStart(7)}  ${'p95 ms'.padStart(6)}  API    PostgreSQL  load generator`,
  );
  for (const kind of mix.filter((each) => !ONLY || each.name.includes(ONLY))) {
    const before = { api: cpuSecondsOf(server.pid), db: postgresCpuSeconds(), own: process.cpuUsage() };
    const run = await load(kind, ALONE_CONNECTIONS, headers);
    const requests = run.rps * DURATION;
    const api = ((cpuSecondsOf(server.pid) - before.api) * 1000) / requests;
    const db = ((postgresCpuSeconds() - before.db) * 1000) / requests;
    const own = process.cpuUsage(before.own);
    const loader = (own.user + own.system) / 1000 / requests;
    console.log(
      `${kind.name.padEnd(26)}  ${run.rps.toFixed(0).padStart(7)}  ${run.p95.toFixed(1).padStart(6)}  ${api.toFixed(2).padStart(4)}   ${db.toFixed(2).padStart(10)}  ${loader.toFixed(2).padStart(14)}`,
    );
  }
}

/**
 * What the machine's cores allow this mix: the CPU one request of it cost the API, the database and
 * this load generator (all on this machine), the requests per second all cores would serve at that
 * cost, and the least mean wait of CONNECTIONS closed-loop clients at that rate (Little's law: each
 * client waits connections / throughput on average).
 */
function printCeiling(spent, requests) {
  const perRequest = (seconds) => (seconds * 1000) / requests;
  const cpuMs = perRequest(spent.api + spent.db + spent.loader);
  const cores = os.availableParallelism();
  const ceiling = (cores * 1000) / cpuMs;
  console.log(
    `CPU per request: ${cpuMs.toFixed(2)} ms (API ${perRequest(spent.api).toFixed(2)}, database ${perRequest(spent.db).toFixed(2)}${
      process.env.DATABASE_URL ? '' : ' (inside the API)'
    }, load generator ${perRequest(spent.loader).toFixed(2)}); ${cores} cores serve at most ${ceiling.toFixed(0)} requests/s at that cost, where ${CONNECTIONS} connections wait ${((CONNECTIONS / ceiling) * 1000).toFixed(0)} ms each on average`,
  );
}

/** The large clinic's dentists and 500 of its patients, spread over its list: what the kinds ask about. */
export async function idsOf(base, headers) {
  const dentists = await (await fetch(`${base}/api/dentists?limit=100`, { headers })).json();
  const dentistIds = dentists.data.map((dentist) => dentist.id);
  const patientIds = [];
  for (let page = 1; page <= 5; page++) {
    const answer = await (
      await fetch(`${base}/api/patients?limit=100&page=${page * 37}`, { headers })
    ).json();
    patientIds.push(...answer.data.map((patient) => patient.id));
  }
  return { dentistIds, patientIds };
}

/** `url` asked again and again on CONNECTIONS connections for 10 s (autocannon's result). */
function closedLoop(url) {
  return new Promise((resolve, reject) =>
    autocannon({ url, connections: CONNECTIONS, duration: 10 }, (error, result) =>
      error ? reject(error) : resolve(result),
    ),
  );
}

/** A Node HTTP server answering one small JSON body, in a child process on `port`; kill() it after. */
async function bareNodeServer(port) {
  const source = `require('node:http').createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"hello":"world"}');
  }).listen(${port}, '127.0.0.1', () => console.log('listening'));`;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    child.stdout.once('data', resolve);
    child.once('exit', (code) => reject(new Error(`the bare Node HTTP server exited with ${code}`)));
  });
  return child;
}

/** The mix at `rate` requests/s on a fixed schedule for DURATION s: each kind's times from due, and its non-2xx. */
async function openLoopAt(mix, rate, headers) {
  const get = keptAliveGetter({ port: PORT, connections: CONNECTIONS });
  const rows = new Map(mix.map((kind) => [kind.name, { times: [], non2xx: 0 }]));
  await sendOnSchedule({
    rate,
    until: performance.now() + DURATION * 1000,
    send: (due) => {
      const kind = pickByShare(mix, random);
      return get(kind.path(), headers).then((status) => {
        const row = rows.get(kind.name);
        row.times.push(performance.now() - due);
        if (status < 200 || status >= 300) row.non2xx++;
      });
    },
  });
  return rows;
}

async function main() {
  const server = startApi({
    port: PORT,
    env: { SEED_DEMO: 'false', READ_CACHE },
    nodeArgs: process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : [],
  });

  try {
    await waitForApi(BASE, 300);
    const token = await signIn(BASE, 'large.admin', 'large123', 'run npm run seed:large first');
    const headers = { authorization: `Bearer ${token}` };
    const { dentistIds, patientIds } = await idsOf(BASE, headers);

    const load1 = os.loadavg()[0];
    const mix = kinds({ dentistIds, patientIds });
    if (ALONE) {
      await eachKindAlone(mix, headers, server);
      server.kill();
      process.exit(0);
    }
    const before = { api: cpuSecondsOf(server.pid), db: postgresCpuSeconds(), own: process.cpuUsage() };
    const runs = await Promise.all(
      mix.map((kind) => load(kind, Math.max(1, Math.round(CONNECTIONS * kind.share)), headers)),
    );
    const own = process.cpuUsage(before.own);
    const spent = {
      api: cpuSecondsOf(server.pid) - before.api,
      db: postgresCpuSeconds() - before.db,
      loader: (own.user + own.system) / 1e6,
    };

    console.log(
      `\nDatabase: ${database}; read cache ${READ_CACHE}; ${CONNECTIONS} connections in all, ${DURATION} s; load average before: ${load1.toFixed(2)} (${os.cpus().length} cores)\n`,
    );
    console.log(
      `${'kind of request'.padEnd(26)}  ${'conns'.padStart(5)}  ${'req/s'.padStart(7)}  ${'p50 ms'.padStart(6)}  ${'p95 ms'.padStart(6)}  non-2xx  budget`,
    );
    let ok = true;
    for (const run of runs) {
      const budget = PGLITE_BUDGET ?? run.budget;
      const pass = run.p95 <= budget && run.non2xx === 0;
      ok &&= pass;
      console.log(
        `${run.name.padEnd(26)}  ${String(run.connections).padStart(5)}  ${run.rps.toFixed(0).padStart(7)}  ${run.p50
          .toFixed(1)
          .padStart(
            6,
          )}  ${run.p95.toFixed(1).padStart(6)}  ${String(run.non2xx).padStart(7)}  p95 ≤ ${budget} ${
          pass ? 'ok' : 'MISSED'
        }`,
      );
    }
    const total = runs.reduce((sum, run) => sum + run.rps, 0);
    console.log(`\nall kinds together: ${total.toFixed(0)} requests/s`);
    printCeiling(spent, total * DURATION);

    // The mix's second budget: half that rate on a fixed schedule (open loop), each kind's p95
    // timed from when its request was due, so a backlog counts as waiting.
    const openRate = total * OPEN_SHARE;
    const open = await openLoopAt(mix, openRate, headers);
    console.log(
      `\nOpen loop at ${(OPEN_SHARE * 100).toFixed(0)} % of that, ${openRate.toFixed(0)} requests/s on a fixed schedule for ${DURATION} s, on ${CONNECTIONS} kept-alive connections; ms from due to answered:\n`,
    );
    console.log(
      `${'kind of request'.padEnd(26)}  ${'answered'.padStart(8)}  ${'p50 ms'.padStart(6)}  ${'p95 ms'.padStart(6)}  non-2xx  budget`,
    );
    for (const kind of mix) {
      const row = open.get(kind.name) ?? { times: [], non2xx: 0 };
      const times = row.times.sort((a, b) => a - b);
      const budget = PGLITE_BUDGET ?? kind.budget;
      const p95 = quantile(times, 0.95);
      const pass = p95 <= budget && row.non2xx === 0;
      ok &&= pass;
      console.log(
        `${kind.name.padEnd(26)}  ${String(times.length).padStart(8)}  ${quantile(times, 0.5).toFixed(1).padStart(6)}  ${p95.toFixed(1).padStart(6)}  ${String(row.non2xx).padStart(7)}  p95 ≤ ${budget} ${pass ? 'ok' : 'MISSED'}`,
      );
    }

    // What the machine serves when no request does any work, by the same generator: a bare Fastify
    // JSON endpoint in this process, and a bare Node HTTP server in a process of its own (as the API is).
    const bare = Fastify();
    bare.get('/bare', async () => ({ hello: 'world' }));
    await bare.listen({ port: PORT + 1, host: '127.0.0.1' });
    const bareRun = await closedLoop(`http://127.0.0.1:${PORT + 1}/bare`);
    await bare.close();
    const nodeServer = await bareNodeServer(PORT + 2);
    const nodeRun = await closedLoop(`http://127.0.0.1:${PORT + 2}/`).finally(() => nodeServer.kill());
    console.log('');
    for (const [name, run] of [
      ['bare Fastify JSON endpoint (in the generator)', bareRun],
      ['bare Node HTTP server (its own process)', nodeRun],
    ]) {
      console.log(
        `${name}, ${CONNECTIONS} connections: ${run.requests.average.toFixed(0)} requests/s, p97.5 ${run.latency.p97_5} ms; the mix is ${((total / run.requests.average) * 100).toFixed(1)} % of it`,
      );
    }
    process.exitCode = ok ? 0 : 1;
  } finally {
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    server.kill();
  }
}

// Run, not imported (memory.mjs imports the kinds).
if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
