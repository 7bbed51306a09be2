import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitForServer } from './browser.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The built app on a fresh embedded database, as the browser benches serve it: the front end built
 * when it is not (scripts/build-all.mjs --if-needed), the server on `port` with `env` added. Resolves
 * once it answers its health check; `stop()` ends it and removes its database.
 */
export async function startBuiltApp({ port, name, env = {} }) {
  const build = spawnSync(process.execPath, [path.join(root, 'scripts/build-all.mjs'), '--if-needed'], {
    cwd: root,
    stdio: 'ignore',
  });
  if (build.status !== 0) throw new Error('build failed');
  const dataDir = mkdtempSync(path.join(tmpdir(), `dental-bench-${name}-`));
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: 'localhost',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: 'ignore',
  });
  const base = `http://localhost:${port}`;
  const stop = () => {
    server.kill();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForServer(base);
  } catch (error) {
    stop();
    throw error;
  }
  return { base, stop };
}
