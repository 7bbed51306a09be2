import { type PublicModuleEntry, publicModuleEntrySchema, publicPageOf } from '@dental/shared/domain';
import { loadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';
import { expectIntegrity, moduleIntegrityPlugin } from '../modules/moduleIntegrity';
import { moduleRetryPlugin } from '../modules/moduleRetry';

/** What the booking module's `./public` entry gives the page: one component that draws the path's page. */
export type PublicPages = ComponentType<{ pathname: string }>;

const API_BASE = process.env.API_BASE_URL ?? '';

/** The release the clinic of this booking page runs (its own, else the default's); a manage link reads the default's. */
async function bookingEntry(): Promise<PublicModuleEntry> {
  const page = publicPageOf(window.location.pathname);
  const clinic = page.page === 'book' ? `?clinic=${encodeURIComponent(page.slug)}` : '';
  const response = await fetch(`${API_BASE}/public/modules/booking${clinic}`, {
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
  const url = new URL(entry.entry, window.location.origin).toString();
  expectIntegrity(url, entry.integrity);
  if (!registered) registerPlugins([moduleRetryPlugin(), moduleIntegrityPlugin()]);
  registerRemotes([{ name: entry.container, entry: url }], {
    force: force || registered,
  });
  registered = true;
  const loaded = await loadRemote<{ default?: unknown }>(`${entry.container}/public`);
  if (typeof loaded?.default !== 'function') throw new Error('The booking module did not give its pages');
  return loaded.default as PublicPages;
}
