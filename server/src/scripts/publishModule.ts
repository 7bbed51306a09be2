/**
 * `npm run module:publish -- <module> [--default | --clinic <slug>]`: publishes a module's build
 * (`mf-<module>/dist`, built alone with `npm run build -w mf-<module>`) as an immutable release and,
 * when asked, points the default or one clinic at it (docs/architecture.md, Module releases).
 *
 * `npm run module:publish -- <module> --point <release> (--default | --clinic <slug>)` points at an
 * earlier release (a rollback); `--follow-default --clinic <slug>` lets a clinic follow the default.
 * The server is SERVER_URL (default http://localhost:3000); the key is PLATFORM_TOKEN.
 */
import { execFileSync } from 'node:child_process';
import { readdir, readFile, stat } from 'node:fs/promises';
import { userInfo } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MODULE_CATALOG, MODULE_IDS, type ModuleId } from '@dental/shared/domain';

const USAGE =
  'Usage: npm run module:publish -- <module> [--default | --clinic <slug>] [--point <release>] [--follow-default]';

/** Every file under a folder, its path relative to the folder with forward slashes. */
async function filesUnder(root: string, folder = root): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) found.push(...(await filesUnder(root, full)));
    else found.push(path.relative(root, full).split(path.sep).join('/'));
  }
  return found;
}

function commitOf(repository: string): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: repository,
      encoding: 'utf8',
    }).trim();
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      default: { type: 'boolean' },
      clinic: { type: 'string' },
      point: { type: 'string' },
      'follow-default': { type: 'boolean' },
    },
  });
  const moduleId = positionals[0] as ModuleId | undefined;
  if (!moduleId || !MODULE_IDS.includes(moduleId) || (values.default && values.clinic)) {
    console.error(`${USAGE}\nModules: ${MODULE_IDS.join(', ')}`);
    process.exit(2);
  }
  const token = process.env.PLATFORM_TOKEN;
  if (!token) {
    console.error('Set PLATFORM_TOKEN to the server’s platform key.');
    process.exit(2);
  }
  const server = (process.env.SERVER_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
  const headers = { authorization: `Bearer ${token}`, 'x-release-actor': userInfo().username };
  const call = async (method: string, url: string, body?: unknown) => {
    // A body is JSON; a call without one names no content type (the server refuses an empty JSON body).
    const response = await fetch(`${server}${url}`, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) {
      const message = text
        ? ((JSON.parse(text) as { message?: string }).message ?? text)
        : response.statusText;
      console.error(`${method} ${url}: ${response.status} ${message}`);
      process.exit(1);
    }
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };

  if (values['follow-default']) {
    if (!values.clinic) throw new Error('--follow-default needs --clinic <slug>');
    await call('DELETE', `/platform/modules/${moduleId}/pointer?clinic=${encodeURIComponent(values.clinic)}`);
    console.log(`${values.clinic} follows the default release of ${moduleId} again.`);
    return;
  }

  let release = values.point;
  if (!release) {
    const repository = path.resolve(__dirname, '..', '..', '..');
    const packageDir = path.join(repository, MODULE_CATALOG[moduleId].packageDir);
    const dist = path.join(packageDir, 'dist');
    const names = await filesUnder(dist).catch((): string[] => []);
    if (!names.includes('remoteEntry.js')) {
      console.error(
        `No build in ${dist}: run npm run build -w ${MODULE_CATALOG[moduleId].packageDir} first.`,
      );
      process.exit(1);
    }
    const { version } = JSON.parse(await readFile(path.join(packageDir, 'package.json'), 'utf8')) as {
      version: string;
    };
    const files = await Promise.all(
      names.map(async (name) => ({
        path: name,
        content: (await readFile(path.join(dist, name))).toString('base64'),
      })),
    );
    const published = await call('POST', `/platform/modules/${moduleId}/releases`, {
      version,
      commit: commitOf(repository),
      built_at: (await stat(path.join(dist, 'remoteEntry.js'))).mtime.toISOString(),
      files,
    });
    release = String(published.release);
    console.log(`Published ${moduleId} ${release} (${files.length} files, ${published.integrity}).`);
  }
  if (values.default || values.clinic) {
    const clinic = values.clinic ?? null;
    await call('PUT', `/platform/modules/${moduleId}/pointer`, { release, clinic });
    console.log(`${clinic ?? 'The default'} now runs ${moduleId} ${release}.`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
