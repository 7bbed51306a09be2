import http from 'node:http';

/**
 * Requests sent on a fixed schedule (an open loop), as desks ask whatever the answers before: the
 * helpers mix.mjs (its half-load phase) and memory.mjs share.
 */

/**
 * GETs on `connections` kept-alive sockets to 127.0.0.1:`port`, as a front desk's browsers and a
 * proxy hold them: a request due while all are busy waits here, in the load generator, not in the
 * API. Each answers its status, or 0 when no answer came (30 s at most); the body is read and dropped.
 */
export function keptAliveGetter({ port, connections }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  return (pathAndQuery, headers) =>
    new Promise((resolve) => {
      const request = http.get(
        { host: '127.0.0.1', port, path: pathAndQuery, headers, agent, timeout: 30_000 },
        (answer) => {
          answer.resume();
          answer.on('end', () => resolve(answer.statusCode ?? 0));
          answer.on('error', () => resolve(0));
        },
      );
      request.on('timeout', () => request.destroy(new Error('timeout')));
      request.on('error', () => resolve(0));
    });
}

/** A kind of the mix drawn by its share (`random` in [0, 1)). */
export function pickByShare(mix, random) {
  const weights = mix.reduce((sum, kind) => sum + kind.share, 0);
  let point = random() * weights;
  for (const kind of mix) {
    point -= kind.share;
    if (point < 0) return kind;
  }
  return mix.at(-1);
}

/**
 * Calls `send(due)` for request i at start + i / rate (ms on performance.now()'s clock) until
 * `until`, whatever the answers before it: a backlog shows as waiting, timed from `due`, instead of
 * as fewer requests sent. Resolves once every request sent has been answered.
 */
export async function sendOnSchedule({ rate, until, send }) {
  const spacing = 1000 / rate;
  const start = performance.now();
  const inFlight = new Set();
  let sent = 0;
  await new Promise((done) => {
    const tick = () => {
      const now = performance.now();
      while (start + sent * spacing <= Math.min(now, until)) {
        const request = send(start + sent * spacing);
        sent++;
        inFlight.add(request);
        request.finally(() => inFlight.delete(request));
      }
      if (start + sent * spacing > until) return done();
      setTimeout(tick, Math.max(0, start + sent * spacing - performance.now()));
    };
    tick();
  });
  await Promise.all(inFlight);
}
