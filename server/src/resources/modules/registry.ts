import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MODULE_CATALOG, MODULE_IDS, type ModuleEntry, type ModuleId } from '@dental/shared/domain';
import type { AppConfig } from '../../config';
import { RELEASE_ENTRY } from './releaseFiles';

export interface RegisteredModule {
  id: ModuleId;
  title: string;
  container: string;
  entry: string;
  version: string;
}

function packageVersion(staticRoot: string, packageDir: string): string {
  const file = path.join(staticRoot, packageDir, 'package.json');
  if (!existsSync(file)) return 'unknown';
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { version?: string };
  return parsed.version ?? 'unknown';
}

/** The operator's registry: every module the product ships and where its entry is served from. */
export function buildModuleRegistry(config: AppConfig): RegisteredModule[] {
  return MODULE_IDS.map((id) => {
    const catalog = MODULE_CATALOG[id];
    return {
      id,
      title: catalog.title,
      container: catalog.container,
      entry: config.moduleEntries[id] ?? `/modules/${id}/mf-manifest.json`,
      version: packageVersion(config.staticRoot, catalog.packageDir),
    };
  });
}

/** Origins of absolute entry URLs: the only places besides our own origin scripts may come from. */
export function moduleOrigins(registry: RegisteredModule[]): string[] {
  const origins = new Set<string>();
  for (const module of registry) {
    if (/^https?:\/\//i.test(module.entry)) origins.add(new URL(module.entry).origin);
  }
  return [...origins];
}

/** A release a clinic runs of a module (its pointer, else the default's): see releasesData.ts. */
export interface RunRelease {
  release: string;
  version: string;
  integrity: string;
}

/**
 * A module as one clinic sees it: switched on or off, and served from the release it is pointed at
 * (its entry script, checked by its integrity), else from the build in place.
 */
export function withEnabled(module: RegisteredModule, enabled: boolean, run?: RunRelease): ModuleEntry {
  if (!run) return { ...module, release: null, integrity: null, enabled };
  return {
    ...module,
    entry: releaseEntryPath(module.id, run.release),
    version: run.version,
    release: run.release,
    integrity: run.integrity,
    enabled,
  };
}

/** Where a release's entry script is served: `/modules/<id>/<release>/remoteEntry.js`. */
export const releaseEntryPath = (id: ModuleId, release: string) =>
  `/modules/${id}/${release}/${RELEASE_ENTRY}`;
