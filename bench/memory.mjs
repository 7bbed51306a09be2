#!/usr/bin/env node
/**
 * The memory of one API process over a long run: the front desk's mix of reads (mix.mjs's kinds, in
 * their shares) sent on a fixed schedule of RATE requests a second, a patient edited every
 * WRITE_SECONDS so that 500 open event streams (GET /api/events, as streams.mjs opens them) each
 * hear a change, for MINUTES. Every SAMPLE_SECONDS it reads the process's resident memory (VmRSS,
 * /proc) and its V8 heap, and prints them over time with the requests of each interval.
 *
 * Budget: after the first third (warm-up), the process's memory must level off: the median RSS of
 * the last third at most 10 % above the second third's, and no steady climb over the last two
 * thirds (a least-squares slope that would add 10 % within an hour, with R² ≥ 0.5: a trend, not the
 * sawtooth of garbage collection). Every request answered 2xx, every stream still open at the end
 * and having read every edit. Exits non-zero when any of these fails.
 *
 * Usage (the database already holds `npm run seed:large`; the edited patient is restored at the end):
 *   DATABASE_URL=postgres://… node bench/memory.mjs             10 minutes, 200 requests/s
 *   DATABASE_URL=postgres://… MINUTES=1 SAMPLE_SECONDS=5 node bench/memory.mjs     a quick try
 * Options (env): MINUTES (10), RATE requests/s (200: about half what mix.mjs's closed loop reached on
 * two busy cores at scale 1), STREAMS (500), WRITE_SECONDS (2), SAMPLE_SECONDS (15), CONNECTIONS the
 * mix is sent on (50), PORT (3296), SEED (1). The read cache is the server's default (on) unless
 * READ_CACHE says otherwise: a bounded cache filling up is part of what a long run has to show.
 */
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signIn, startApi, waitForApi } from './apiProcess.mjs';
import { idsOf, kinds } from './mix.mjs';
import { keptAliveGetter, pickByShare, sendOnSchedule } from './openLoop.mjs';
import { generator } from './seededRandom.mjs';
import { quantile as at, median } from './stats.mjs';
import { openStream, rssOf } from './streams.mjs';

const PORT = Number(process.env.PORT ?? 3296);
const BASE = `http://127.0.0.1:${PORT}`;
const MINUTES = Number(process.env.MINUTES ?? 10);
const RATE = Number(process.env.RATE ?? 200);
const STREAMS = Number(process.env.STREAMS ?? 500);
const WRITE_SECONDS = Number(process.env.WRITE_SECONDS ?? 2);
const SAMPLE_SECONDS = Number(process.env.SAMPLE_SECONDS ?? 15);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const GROWTH_BUDGET = 0.1;
/** A slope is a trend, not noise, when the line explains at least this much of the samples' spread. */
const STEADY_R2 = 0.5;
const database = process.env.DATABASE_URL
  ? `PostgreSQL (${new URL(process.env.DATABASE_URL).pathname.slice(1)})`
  : `PGlite (${process.env.DATA_DIR ?? 'data'})`;

const random = generator(Number(process.env.SEED ?? 1));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The heap is only known inside the process: a module loaded before the server (a data: URL, so the
// server's code is untouched) writes process.memoryUsage() to a file when sent SIGUSR2.
const HEAP_FILE = path.join(os.tmpdir(), `memory-bench-heap-${process.pid}.json`);
const heapProbe = `import { writeFileSync } from 'node:fs';
process.on('SIGUSR2', () => writeFileSync(${JSON.stringify(HEAP_FILE)}, JSON.stringify({ at: Date.now(), ...process.memoryUsage() })));`;

const server = startApi({
  port: PORT,
  env: { SEED_DEMO: 'false' },
  nodeArgs: ['--import', `data:text/javascript,${encodeURIComponent(heapProbe)}`],
});

/** The API's V8 heap (used and total, MB), or null when the process did not answer within a second. */
async function heapOf() {
  const asked = Date.now();
  server.kill('SIGUSR2');
  for (let tries = 0; tries < 20; tries++) {
    await sleep(50);
    try {
      const usage = JSON.parse(readFileSync(HEAP_FILE, 'utf8'));
      if (usage.at >= asked) return { used: usage.heapUsed / 2 ** 20, total: usage.heapTotal / 2 ** 20 };
    } catch {}
  }
  return null;
}

const get = keptAliveGetter({ port: PORT, connections: CONNECTIONS });

/** What was sent and answered, in all and since the last sample; errors by status (0: no answer). */
const totals = { sent: 0, answered: 0, errors: new Map(), times: [] };
let interval = { answered: 0, errors: 0, times: [] };
const byKind = new Map();

/** A kind's own counts (the mix's kinds and the patient edits). */
function rowOf(kind) {
  const row = byKind.get(kind) ?? { sent: 0, answered: 0, errors: 0, times: [] };
  byKind.set(kind, row);
  return row;
}

function record(kind, status, ms) {
  const ok = status >= 200 && status < 300;
  const row = rowOf(kind);
  if (status !== 0) {
    totals.answered++;
    interval.answered++;
    row.answered++;
  }
  if (!ok) {
    totals.errors.set(status, (totals.errors.get(status) ?? 0) + 1);
    interval.errors++;
    row.errors++;
  }
  totals.times.push(ms);
  interval.times.push(ms);
  row.times.push(ms);
}

/** The mix on RATE's schedule until `until`, each answer timed from when it was due (openLoop.mjs). */
async function sendMix(mix, headersOf, until) {
  await sendOnSchedule({
    rate: RATE,
    until,
    send: (due) => {
      const kind = pickByShare(mix, random);
      totals.sent++;
      rowOf(kind.name).sent++;
      return get(kind.path(), headersOf()).then((status) =>
        record(kind.name, status, performance.now() - due),
      );
    },
  });
}

/** Least-squares line through (minute, MB): its slope in MB a minute and R². */
function fit(points) {
  const n = points.length;
  const mx = points.reduce((sum, [x]) => sum + x, 0) / n;
  const my = points.reduce((sum, [, y]) => sum + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (const [x, y] of points) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
    syy += (y - my) ** 2;
  }
  const slope = sxx ? sxy / sxx : Number.NaN;
  return { slope, r2: sxx && syy ? (sxy * sxy) / (sxx * syy) : 0 };
}

/** m:ss, rounded to the second first (119.9 s is 2:00, not 1:60). */
function clock(seconds) {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

let closeStreams = [];
try {
  await waitForApi(BASE, 300);
  const load1 = os.loadavg()[0];
  let token = await signIn(BASE, 'large.admin', 'large123', 'run npm run seed:large first');
  let tokenAt = Date.now();
  let headers = { authorization: `Bearer ${token}` };
  const mix = kinds(await idsOf(BASE, headers));

  // The patient whose record is edited, as it was, to be put back at the end.
  const [first] = (await (await fetch(`${BASE}/api/patients?limit=1&status=active`, { headers })).json())
    .data;
  const patient = await (await fetch(`${BASE}/api/patients/${first.id}`, { headers })).json();
  const record0 = {
    name: patient.name,
    email: patient.email,
    phone: patient.phone,
    dateOfBirth: patient.dateOfBirth,
    address: patient.address,
    emergencyContact: patient.emergencyContact,
    medicalHistory: patient.medicalHistory,
  };

  await sleep(2_000);
  const rssBeforeStreams = rssOf(server.pid);

  // Every stream counts the edits it reads; one that ends before the run does is no longer open.
  const heard = new Array(STREAMS).fill(0);
  const ended = new Set();
  for (let index = 0; index < STREAMS; index++) {
    closeStreams.push(
      await openStream(
        token,
        (event) => {
          if (event.resource === 'patient' && event.id === patient.id) heard[index]++;
        },
        { base: BASE, onEnd: () => ended.add(index) },
      ),
    );
  }
  await sleep(2_000);

  console.log(
    `\nDatabase: ${database}; read cache ${process.env.READ_CACHE ?? 'on (default)'}; ${RATE} requests/s of the front desk's mix on ${CONNECTIONS} connections, a patient edit every ${WRITE_SECONDS} s, ${STREAMS} open streams, ${MINUTES} min; load average before: ${load1.toFixed(2)} (${os.cpus().length} cores)`,
  );
  console.log(`API memory before the streams: RSS ${rssBeforeStreams.toFixed(1)} MB\n`);
  console.log(
    `${'time'.padStart(5)}  ${'RSS MB'.padStart(7)}  ${'heap used'.padStart(9)}  ${'heap total'.padStart(10)}  ${'answered/s'.padStart(10)}  ${'p95 ms'.padStart(7)}  errors  streams open`,
  );

  const samples = [];
  const sample = async (seconds, elapsed) => {
    const rss = rssOf(server.pid);
    const heap = await heapOf();
    const times = interval.times.sort((a, b) => a - b);
    const perSecond = elapsed ? interval.answered / elapsed : 0;
    samples.push({ seconds, rss, heap });
    console.log(
      `${clock(seconds).padStart(5)}  ${rss.toFixed(1).padStart(7)}  ${(heap ? heap.used.toFixed(1) : '-').padStart(9)}  ${(heap ? heap.total.toFixed(1) : '-').padStart(10)}  ${perSecond.toFixed(0).padStart(10)}  ${(times.length ? at(times, 0.95).toFixed(1) : '-').padStart(7)}  ${String(interval.errors).padStart(6)}  ${String(STREAMS - ended.size).padStart(12)}`,
    );
    interval = { answered: 0, errors: 0, times: [] };
  };

  const runMs = MINUTES * 60_000;
  const start = performance.now();
  const until = start + runMs;
  await sample(0, 0);

  const writes = { sent: 0, ok: 0 };
  const editing = (async () => {
    for (let due = start; due < until; due += WRITE_SECONDS * 1000) {
      await sleep(Math.max(0, due - performance.now()));
      writes.sent++;
      rowOf('patient edit').sent++;
      const answer = await fetch(`${BASE}/api/patients/${patient.id}`, {
        method: 'PUT',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ ...record0, medicalHistory: `memory bench ${Date.now()} ${writes.sent}` }),
      }).catch(() => null);
      await answer?.arrayBuffer();
      record('patient edit', answer?.status ?? 0, performance.now() - due);
      if (answer?.ok) writes.ok++;
    }
  })();

  const sampling = (async () => {
    let last = start;
    for (let due = start + SAMPLE_SECONDS * 1000; due <= until + 1; due += SAMPLE_SECONDS * 1000) {
      await sleep(Math.max(0, due - performance.now()));
      // An access token lasts 15 minutes: a desk signs in again before it runs out.
      if (Date.now() - tokenAt > 10 * 60_000) {
        token = await signIn(BASE, 'large.admin', 'large123');
        tokenAt = Date.now();
        headers = { authorization: `Bearer ${token}` };
      }
      const now = performance.now();
      await sample((now - start) / 1000, (now - last) / 1000);
      last = now;
    }
  })();

  await Promise.all([sendMix(mix, () => headers, until), editing, sampling]);
  const drained = (performance.now() - until) / 1000;
  // The last edit's event may still be on its way to the streams.
  const deadline = performance.now() + 5_000;
  while (heard.some((count) => count < writes.ok) && performance.now() < deadline) await sleep(50);
  const open = STREAMS - ended.size;
  const heardAll = heard.filter((count) => count >= writes.ok).length;
  for (const close of closeStreams) close();
  closeStreams = [];
  await fetch(`${BASE}/api/patients/${patient.id}`, {
    method: 'PUT',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(record0),
  });

  // The judgement: the first third is warm-up (pools, caches, JIT, the heap finding its size).
  const third = runMs / 3000;
  const middle = samples.filter((each) => each.seconds > third && each.seconds <= 2 * third);
  const last = samples.filter((each) => each.seconds > 2 * third);
  const judged = samples.filter((each) => each.seconds > third);
  const middleRss = median(middle.map((each) => each.rss));
  const lastRss = median(last.map((each) => each.rss));
  const growth = lastRss / middleRss - 1;
  const rssLine = fit(judged.map((each) => [each.seconds / 60, each.rss]));
  const slopeBudget = (middleRss * GROWTH_BUDGET) / 60;
  const climbing = rssLine.slope > slopeBudget && rssLine.r2 >= STEADY_R2;
  const heaps = judged.filter((each) => each.heap);
  const heapLine = heaps.length > 1 ? fit(heaps.map((each) => [each.seconds / 60, each.heap.used])) : null;
  const heapGrowth =
    heaps.length > 1
      ? median(last.filter((each) => each.heap).map((each) => each.heap.used)) /
          median(middle.filter((each) => each.heap).map((each) => each.heap.used)) -
        1
      : Number.NaN;

  console.log(
    `\nRSS: median ${middleRss.toFixed(1)} MB in the second third, ${lastRss.toFixed(1)} MB in the last: ${(growth * 100).toFixed(1)} % (budget ≤ ${GROWTH_BUDGET * 100} %)`,
  );
  console.log(
    `RSS slope over the last two thirds: ${rssLine.slope >= 0 ? '+' : ''}${rssLine.slope.toFixed(2)} MB/min, R² ${rssLine.r2.toFixed(2)} (fails above ${slopeBudget.toFixed(2)} MB/min with R² ≥ ${STEADY_R2}: 10 % within an hour)`,
  );
  if (heapLine)
    console.log(
      `V8 heap used (not judged): ${(heapGrowth * 100).toFixed(1)} % last third against the second, slope ${heapLine.slope >= 0 ? '+' : ''}${heapLine.slope.toFixed(2)} MB/min, R² ${heapLine.r2.toFixed(2)}`,
    );

  const sorted = totals.times.sort((a, b) => a - b);
  const errorCount = [...totals.errors.values()].reduce((sum, count) => sum + count, 0);
  const sentAll = totals.sent + writes.sent;
  console.log(
    `\nrequests: ${sentAll} sent (${totals.sent} of the mix, ${(totals.sent / (runMs / 1000)).toFixed(1)}/s; ${writes.sent} edits), ${totals.answered} answered, ${errorCount} errors${
      errorCount
        ? ` (${[...totals.errors]
            .sort(([a], [b]) => a - b)
            .map(([status, count]) => `${status === 0 ? 'no answer' : status}: ${count}`)
            .join(', ')})`
        : ''
    }; from due to answered: p50 ${at(sorted, 0.5).toFixed(1)} ms, p95 ${at(sorted, 0.95).toFixed(1)} ms, p99 ${at(sorted, 0.99).toFixed(1)} ms; the last answers came ${drained.toFixed(1)} s after the schedule ended`,
  );
  for (const [name, row] of byKind) {
    const times = row.times.sort((a, b) => a - b);
    console.log(
      `  ${name.padEnd(26)} ${String(row.sent).padStart(7)} sent  ${String(row.answered).padStart(7)} answered  ${String(row.errors).padStart(5)} errors  p95 ${at(times, 0.95).toFixed(1)} ms`,
    );
  }
  console.log(
    `streams: ${open} of ${STREAMS} still open at the end; ${heardAll} read all ${writes.ok} edits (fewest read: ${Math.min(...heard)})`,
  );

  const checks = [
    ['two samples or more in each third', middle.length >= 2 && last.length >= 2],
    ['RSS growth', growth <= GROWTH_BUDGET],
    ['no steady climb', !climbing],
    ['every request 2xx', errorCount === 0 && totals.answered === sentAll],
    ['every stream open', open === STREAMS],
    ['every stream read every edit', heardAll === STREAMS && writes.ok > 0],
  ];
  const failed = checks.filter(([, ok]) => !ok).map(([name]) => name);
  console.log(`budget: ${failed.length ? `MISSED (${failed.join(', ')})` : 'ok'}`);
  process.exitCode = failed.length ? 1 : 0;
} finally {
  for (const close of closeStreams) close();
  server.kill();
  rmSync(HEAP_FILE, { force: true });
}
