import { type PublicModuleEntry, publicModuleEntrySchema } from '@dental/shared/domain';
import { loadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';
import { moduleRetryPlugin } from '../modules/moduleRetry';

/** What the booking module's `./public` entry gives the page: one component that draws the path's page. */
export type PublicPages = ComponentType<{ pathname: string }>;

const API_BASE = process.env.API_BASE_URL ?? '';

async function bookingEntry(): Promise<PublicModuleEntry> {
  const response = await fetch(`${API_BASE}/public/modules/booking`, {
    headers: { Accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`The booking module's entry answered ${response.status}`);
  return publicModuleEntrySchema.parse(await response.json());
}

let registered = false;

/**
 * Loads the booking module's public pages: where its entry is served from is the operator's choice,
 * read from the server, then the federation runtime loads it with the same retries as the staff app's
 * modules (docs/architecture.md, Online booking). `force` fetches the entry afresh after a failure.
 */
export async function loadPublicPages(force = false): Promise<PublicPages> {
  const entry = await bookingEntry();
  if (!registered) registerPlugins([moduleRetryPlugin()]);
  registerRemotes(
    [{ name: entry.container, entry: new URL(entry.entry, window.location.origin).toString() }],
    {
      force: force || registered,
    },
  );
  registered = true;
  const loaded = await loadRemote<{ default?: unknown }>(`${entry.container}/public`);
  if (typeof loaded?.default !== 'function') throw new Error('The booking module did not give its pages');
  return loaded.default as PublicPages;
}
