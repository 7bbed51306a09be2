import type { ModuleDescription, ModuleEntry } from '@dental/shared';
import { loadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import { expectIntegrity, moduleIntegrityPlugin } from './moduleIntegrity';
import { moduleRetryPlugin } from './moduleRetry';

function absoluteEntry(entry: string): string {
  return new URL(entry, window.location.origin).toString();
}

let pluginsRegistered = false;
/** Each container's entry as last registered: a remote is registered again only when it changed. */
const registered = new Map<string, string>();

/**
 * Registers the clinic's modules with the federation runtime: a module whose entry is new or changed
 * (another release), or every one given when `force` is set (a retry after a failed load fetches the
 * entry afresh). The first call also gives the runtime its plugins (the runtime exists only once the
 * shell has started): retries, and the integrity of published releases.
 */
export function registerModules(entries: ModuleEntry[], force = false): void {
  if (!pluginsRegistered) {
    registerPlugins([moduleRetryPlugin(), moduleIntegrityPlugin()]);
    pluginsRegistered = true;
  }
  const changed = entries.filter(
    (entry) => force || registered.get(entry.container) !== absoluteEntry(entry.entry),
  );
  if (changed.length === 0) return;
  for (const entry of changed) {
    const url = absoluteEntry(entry.entry);
    registered.set(entry.container, url);
    expectIntegrity(url, entry.integrity);
  }
  registerRemotes(
    changed.map((entry) => ({ name: entry.container, entry: absoluteEntry(entry.entry) })),
    { force: true },
  );
}

function isModuleDescription(value: unknown): value is ModuleDescription {
  const candidate = value as Partial<ModuleDescription> | null;
  return (
    !!candidate &&
    typeof candidate.id === 'string' &&
    typeof candidate.screens === 'object' &&
    !!candidate.screens
  );
}

/** Loads a module's description (its `./module` entry); its pages stay lazy until visited. */
export async function loadModuleDescription(entry: ModuleEntry): Promise<ModuleDescription> {
  const loaded = await loadRemote<{ default?: unknown }>(`${entry.container}/module`);
  const description = loaded?.default;
  if (!isModuleDescription(description)) {
    throw new Error(`The ${entry.title} module did not describe itself.`);
  }
  return description;
}
