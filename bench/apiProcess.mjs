import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The API process a load benchmark measures: the app's own server (server/src/main.ts) on loopback,
 * without the rate limit a real client meets (a benchmark is one client asking thousands of times).
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Starts the API on 127.0.0.1:`port` with `env` over this process's environment; `nodeArgs` go to
 * Node before the server's (a profiler's, say). Its output is this process's. Stop it with kill().
 */
export function startApi({ port, env = {}, nodeArgs = [] }) {
  return spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      API_RATE_LIMIT: '100000000',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

/**
 * Waits until the API at `base` answers its health check, `seconds` at most: a server starting on
 * the large data set settles its visits first, which took minutes on a busy machine (bench/README).
 */
export async function waitForApi(base, seconds) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    const healthy = await fetch(`${base}/api/health`).then(
      (answer) => answer.ok,
      () => false,
    );
    if (healthy) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${base}/api/health did not answer`);
}

/** Signs `username` in and answers the access token; `hint` says what to do when that fails. */
export async function signIn(base, username, password, hint = '') {
  const login = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!login.ok) throw new Error(`${username} could not sign in (${login.status})${hint ? `: ${hint}` : ''}`);
  const { access_token: token } = await login.json();
  return token;
}
