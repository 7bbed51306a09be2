import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import semver from 'semver';

/**
 * A module's published builds on disk (docs/architecture.md, Module releases): each under
 * `<releases>/<module>/<release>/`, named by its content, written whole and never overwritten.
 */

/** A release's entry script: its hash is the integrity the browser checks. */
export const RELEASE_ENTRY = 'remoteEntry.js';
/** The federation manifest each module's build writes: it says what the build needs of shared packages. */
const RELEASE_MANIFEST = 'mf-manifest.json';
/** What the deployed shell provides of each shared package, written by its build (rspack.config.base.ts). */
export const SHELL_PROVIDES = 'provides.json';

export interface BuildFile {
  path: string;
  bytes: Buffer;
}

/** A release's name: its version and the start of a hash of every file's path and bytes, in path order. */
export function releaseNameOf(version: string, files: readonly BuildFile[]): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort((a, b) => a.path.localeCompare(b.path))) {
    hash.update(`${file.path}\0${file.bytes.length}\0`);
    hash.update(file.bytes);
  }
  return `${version}-${hash.digest('hex').slice(0, 12)}`;
}

/** Subresource Integrity of a file: what a `<script integrity>` is checked against. */
export const integrityOf = (bytes: Buffer): string =>
  `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

/** The build's entry script, or null when it has none. */
export const entryOf = (files: readonly BuildFile[]): BuildFile | null =>
  files.find((file) => file.path === RELEASE_ENTRY) ?? null;

/** What the build needs of each shared package, from its federation manifest: `{name: requiredVersion}`. */
export function needsOf(files: readonly BuildFile[]): Record<string, string> | null {
  const manifest = files.find((file) => file.path === RELEASE_MANIFEST);
  if (!manifest) return null;
  try {
    const parsed = JSON.parse(manifest.bytes.toString('utf8')) as {
      shared?: Array<{ name?: unknown; requiredVersion?: unknown }>;
    };
    const needs: Record<string, string> = {};
    for (const shared of parsed.shared ?? []) {
      if (typeof shared.name === 'string' && typeof shared.requiredVersion === 'string')
        needs[shared.name] = shared.requiredVersion;
    }
    return needs;
  } catch {
    return null;
  }
}

/** What the deployed shell provides, from its build; null when the shell is not built. */
export function shellProvides(staticRoot: string): Record<string, string> | null {
  const file = path.join(staticRoot, 'shell', 'dist', SHELL_PROVIDES);
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
}

/** The first shared package the build needs in a version the shell does not provide. */
export function skewOf(
  needs: Record<string, string>,
  provides: Record<string, string>,
): { name: string; needed: string; provided: string | null } | null {
  for (const [name, needed] of Object.entries(needs)) {
    const provided = provides[name] ?? null;
    if (!provided || !semver.satisfies(provided, needed)) return { name, needed, provided };
  }
  return null;
}

/**
 * Writes a build to `<root>/<module>/<release>/`: into a folder of its own first, then renamed into
 * place in one step, so a reader never sees half a release. A release already there has the same
 * content (its name is its hash) and is kept as it is: nothing published is overwritten.
 */
export async function storeRelease(
  root: string,
  moduleId: string,
  release: string,
  files: readonly BuildFile[],
): Promise<void> {
  const moduleDir = path.join(root, moduleId);
  const target = path.join(moduleDir, release);
  if (existsSync(target)) return;
  const incoming = path.join(moduleDir, `.incoming-${randomBytes(6).toString('hex')}`);
  try {
    for (const file of files) {
      const destination = path.resolve(incoming, file.path);
      if (!destination.startsWith(incoming + path.sep))
        throw new Error(`A file outside the release: ${file.path}`);
      await mkdir(path.dirname(destination), { recursive: true });
      await writeFile(destination, file.bytes, { flag: 'wx' });
    }
    try {
      await rename(incoming, target);
    } catch (error) {
      // Another publish of the same build got there first: its copy is this one.
      if (!existsSync(target)) throw error;
    }
  } finally {
    await rm(incoming, { recursive: true, force: true });
  }
}

/** Removes a release's folder (after its record went): only a folder named as a release is touched. */
export async function removeRelease(root: string, moduleId: string, release: string): Promise<void> {
  if (!/^[\w-]+$/.test(moduleId) || !/^[0-9A-Za-z.+-]+$/.test(release) || release.startsWith('.')) return;
  await rm(path.join(root, moduleId, release), { recursive: true, force: true });
}
