import type { ModuleDescription, ModuleEntry } from '@dental/shared';
import { loadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import { moduleRetryPlugin } from './moduleRetry';

function absoluteEntry(entry: string): string {
  return new URL(entry, window.location.origin).toString();
}

let retryRegistered = false;

/**
 * Registers the clinic's modules with the federation runtime. `force` replaces an earlier
 * registration, so a retry after a failed load fetches the entry afresh. The first call also gives
 * the runtime its retry plugin (the runtime exists only once the shell has started).
 */
export function registerModules(entries: ModuleEntry[], force = false): void {
  if (!retryRegistered) {
    registerPlugins([moduleRetryPlugin()]);
    retryRegistered = true;
  }
  registerRemotes(
    entries.map((entry) => ({ name: entry.container, entry: absoluteEntry(entry.entry) })),
    { force },
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
