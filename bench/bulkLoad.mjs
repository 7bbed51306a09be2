#!/usr/bin/env node
/**
 * How long a large clinic takes to load, beside the budgets: `npm run seed:large` (≤ 120 s) and
 * `npm run clinic:import` of that clinic's export (≤ 300 s), both on PostgreSQL. Each runs into a
 * database of its own, made for the run on the server of DATABASE_URL (its user may create
 * databases) and dropped afterwards (KEEP=1 keeps them). The export is the admin's download
 * (GET /api/backup/export) from the API started on the seeded database, written to a temporary file.
 *
 * Usage: DATABASE_URL=postgres://user@127.0.0.1:5432/postgres node bench/bulkLoad.mjs
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { signIn, startApi, waitForApi } from './apiProcess.mjs';

const BUDGETS = { seed: 120, import: 300 };
const PORT = Number(process.env.PORT ?? 3298);
const KEEP = process.env.KEEP === '1';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

if (!process.env.DATABASE_URL) {
  console.error(
    'DATABASE_URL must name a PostgreSQL server (any database on it) whose user may create databases',
  );
  process.exit(2);
}
const server = new URL(process.env.DATABASE_URL);
const urlOf = (database) => {
  const url = new URL(server);
  url.pathname = `/${database}`;
  return url.toString();
};
const stamp = Date.now().toString(36);
const databases = { seed: `bench_seed_${stamp}`, import: `bench_import_${stamp}` };

/** Runs an npm script of the project with DATABASE_URL set; answers its wall time in seconds. */
function timedScript(args, databaseUrl) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, INIT_CWD: root },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve({ seconds: (performance.now() - started) / 1000, output })
        : reject(new Error(`npm run ${args.join(' ')} exited with ${code}:\n${output}`)),
    );
  });
}

async function exportLargeClinic(databaseUrl, file) {
  const api = startApi({ port: PORT, env: { DATABASE_URL: databaseUrl } });
  try {
    const base = `http://127.0.0.1:${PORT}`;
    await waitForApi(base, 600);
    const token = await signIn(base, 'large.admin', 'large123');
    const started = performance.now();
    const answer = await fetch(`${base}/api/backup/export`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!answer.ok) throw new Error(`the export answered ${answer.status}: ${await answer.text()}`);
    await writeFile(file, Buffer.from(await answer.arrayBuffer()));
    return (performance.now() - started) / 1000;
  } finally {
    api.kill();
  }
}

const admin = new pg.Client({ connectionString: server.toString() });
await admin.connect();
const scratch = await mkdtemp(path.join(os.tmpdir(), 'bulk-load-'));
const file = path.join(scratch, 'large-clinic.json');
try {
  for (const name of Object.values(databases)) await admin.query(`create database ${name}`);
  console.log(`Seeding ${databases.seed}…`);
  const seed = await timedScript(['seed:large'], urlOf(databases.seed));
  console.log('Exporting Large Clinic through the API…');
  const exportSeconds = await exportLargeClinic(urlOf(databases.seed), file);
  const megabytes = (await stat(file)).size / 1e6;
  console.log(`Importing it into ${databases.import}…`);
  const imported = await timedScript(['clinic:import', '--', file], urlOf(databases.import));
  const counted = /Imported .*/.exec(imported.output)?.[0] ?? '';

  const row = (step, seconds, budget) =>
    `${step.padEnd(34)}${`${seconds.toFixed(1)} s`.padStart(9)}${budget ? `${`≤ ${budget} s`.padStart(10)}  ${seconds <= budget ? 'ok' : 'OVER'}` : ''}`;
  console.log(`\n${'step'.padEnd(34)}${'time'.padStart(9)}${'budget'.padStart(10)}`);
  console.log(row('npm run seed:large', seed.seconds, BUDGETS.seed));
  console.log(row(`export (${megabytes.toFixed(0)} MB of JSON)`, exportSeconds));
  console.log(row('npm run clinic:import of it', imported.seconds, BUDGETS.import));
  console.log(`\n${counted}`);
  console.log(
    `Load average after the run: ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}`,
  );
} finally {
  await rm(scratch, { recursive: true, force: true });
  if (!KEEP)
    for (const name of Object.values(databases)) await admin.query(`drop database if exists ${name}`);
  await admin.end();
}
