#!/usr/bin/env node
/**
 * The live desk at scale: many open event streams (GET /api/events) on one API process, and how
 * long a write's change takes to reach every one of them.
 *
 * Usage:
 *   node bench/streams.mjs                               a new PGlite database with the demo clinics
 *   DATABASE_URL=postgres://… node bench/streams.mjs     a PostgreSQL database (the demo clinics are
 *                                                        seeded when it has none)
 * Options (env): STREAMS (500), WRITES (40: patient edits, one every 100 ms), PORT (3298).
 * Budget: every write's event reaches all the streams with p95 ≤ 250 ms, measured from the moment
 * the write is sent to the moment each stream has read its event. It also prints the API process's
 * memory (RSS) per open stream.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { signIn, startApi, waitForApi } from './apiProcess.mjs';

const STREAMS = Number(process.env.STREAMS ?? 500);
const WRITES = Number(process.env.WRITES ?? 40);
const PORT = Number(process.env.PORT ?? 3298);
const BASE = `http://127.0.0.1:${PORT}`;
const BUDGET_MS = 250;

/** The API process's resident memory, in MB. */
export function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/**
 * Opens a stream and calls `onChange(rowId, receivedAt)` for each change event it reads; `base` is
 * the API's (this bench's own by default), `onEnd` is called when the stream ends, whoever ended it.
 */
export async function openStream(token, onChange, { base = BASE, onEnd = () => {} } = {}) {
  const controller = new AbortController();
  const response = await fetch(`${base}/api/events`, {
    headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  if (response.status !== 200) throw new Error(`The stream answered ${response.status}`);
  const decoder = new TextDecoder();
  let buffer = '';
  (async () => {
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
          if (!block.includes('event: change')) continue;
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (data) onChange(JSON.parse(data.slice(6)), performance.now());
        }
      }
    } catch {
      // Closed at the end of the run.
    }
    onEnd();
  })();
  return () => controller.abort();
}

async function main() {
  // Node's fetch opens a connection a stream (its global agent has no limit), as that many browsers would.
  const dataDir = process.env.DATABASE_URL ? null : mkdtempSync(path.join(os.tmpdir(), 'streams-bench-'));
  const server = startApi({ port: PORT, env: dataDir ? { DATA_DIR: dataDir } : {} });
  try {
    await waitForApi(BASE, 120);
    const token = await signIn(BASE, 'admin', 'admin123');
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const patients = await (await fetch(`${BASE}/api/patients?limit=1`, { headers })).json();
    const patient = patients.data[0];

    // Settle the process before measuring its memory.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const rssBefore = rssOf(server.pid);

    /** Per write (its marker in the patient's notes): when it was sent, and when each stream read it. */
    const sentAt = new Map();
    const latencies = [];
    const reached = new Map();
    const closers = [];
    for (let index = 0; index < STREAMS; index++) {
      closers.push(
        await openStream(token, (event, at) => {
          if (event.resource !== 'patient' || event.id !== patient.id) return;
          // A change event names the row, not the write: each is matched to the oldest write not yet
          // heard by this stream (writes are spaced far apart, and each stream hears them in order).
          const heard = reached.get(index) ?? 0;
          reached.set(index, heard + 1);
          const sent = sentAt.get(heard);
          if (sent !== undefined) latencies.push(at - sent);
        }),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const rssAfter = rssOf(server.pid);

    const body = {
      name: patient.name,
      email: patient.email,
      phone: patient.phone,
      dateOfBirth: patient.dateOfBirth,
    };
    for (let write = 0; write < WRITES; write++) {
      sentAt.set(write, performance.now());
      const answer = await fetch(`${BASE}/api/patients/${patient.id}`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ ...body, medicalHistory: `streams bench ${Date.now()} ${write}` }),
      });
      if (!answer.ok) throw new Error(`The write answered ${answer.status}: ${await answer.text()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Wait for the last write to reach every stream (or give up after 5 s).
    const deadline = performance.now() + 5_000;
    while (latencies.length < STREAMS * WRITES && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const close of closers) close();

    const sorted = [...latencies].sort((a, b) => a - b);
    const p95 = percentile(sorted, 95);
    console.log(
      `\nDatabase: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}; ${STREAMS} open streams on one API process; ${WRITES} writes 100 ms apart; load average before: ${os.loadavg()[0].toFixed(2)} (${os.cpus().length} cores)`,
    );
    console.log(
      `events read: ${latencies.length} of ${STREAMS * WRITES}; from write sent to event read: p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${sorted.at(-1)?.toFixed(1)} ms`,
    );
    console.log(
      `API memory: ${rssBefore.toFixed(1)} MB before the streams, ${rssAfter.toFixed(1)} MB with them: ${(((rssAfter - rssBefore) * 1024) / STREAMS).toFixed(1)} KB a stream`,
    );
    const ok = latencies.length === STREAMS * WRITES && p95 <= BUDGET_MS;
    console.log(`budget (every event read, p95 ≤ ${BUDGET_MS} ms): ${ok ? 'ok' : 'MISSED'}`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    server.kill();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

// Run, not imported (memory.mjs opens its streams with openStream).
if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
