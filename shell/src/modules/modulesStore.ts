import type { ModuleDescription, ModuleEntry, ModuleId } from '@dental/shared';
import { create } from 'zustand';
import { loadModuleDescription, registerModules } from './moduleRuntime';
import { fetchEnabledModules, reportModuleFailure } from './modulesApi';

export type ModuleLoadState =
  | { state: 'loading' }
  | { state: 'ready'; description: ModuleDescription }
  /** `preloaded`: the failure was a preload's, which the first visit tries again before showing it. */
  | { state: 'failed'; error: string; preloaded?: boolean };

interface ModulesState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  entries: ModuleEntry[];
  modules: Partial<Record<ModuleId, ModuleLoadState>>;
  /** Reads the clinic's enabled modules and registers them; no module code loads yet. */
  load: () => Promise<void>;
  /** Loads a module's description the first time one of its screens is visited. */
  ensureLoaded: (id: ModuleId) => Promise<void>;
  retry: (id: ModuleId) => Promise<void>;
  /**
   * Loads a module and one of its screens' code ahead of a visit (the pointer over its sidebar entry,
   * or the browser idle after sign-in); settles when both are loaded or have failed.
   */
  preload: (id: ModuleId, path: string) => Promise<void>;
  /**
   * Reads the clinic's modules again and says whether this module's entry has changed since the
   * page loaded: a screen's code that fails to download may belong to a release no longer served.
   */
  entryChanged: (id: ModuleId) => Promise<boolean>;
  reset: () => void;
}

function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'The module could not be loaded.';
}

export const useModulesStore = create<ModulesState>()((set, get) => {
  const loadOne = async (entry: ModuleEntry, preloaded = false) => {
    set((state) => ({ modules: { ...state.modules, [entry.id]: { state: 'loading' } } }));
    try {
      const description = await loadModuleDescription(entry);
      set((state) => ({ modules: { ...state.modules, [entry.id]: { state: 'ready', description } } }));
    } catch (error) {
      set((state) => ({
        modules: { ...state.modules, [entry.id]: { state: 'failed', error: messageOf(error), preloaded } },
      }));
      // A preload nobody waits for is not yet a failure anyone saw: the visit tries again and reports.
      if (preloaded) return;
      reportModuleFailure({
        module: entry.id,
        release: entry.release,
        phase: 'load',
        message: messageOf(error),
      });
    }
  };

  return {
    status: 'idle',
    error: null,
    entries: [],
    modules: {},

    async load() {
      set({ status: 'loading', error: null });
      try {
        const entries = await fetchEnabledModules();
        registerModules(entries);
        // Descriptions already loaded stay valid: a re-read (after a switch) must not reload them.
        set((state) => ({
          status: 'ready',
          entries,
          modules: Object.fromEntries(
            entries.flatMap((entry) => {
              const known = state.modules[entry.id];
              return known ? [[entry.id, known]] : [];
            }),
          ),
        }));
      } catch (error) {
        set({ status: 'error', error: messageOf(error) });
      }
    },

    async ensureLoaded(id) {
      const known = get().modules[id];
      if (known && !(known.state === 'failed' && known.preloaded)) return;
      const entry = get().entries.find((candidate) => candidate.id === id);
      if (!entry) return;
      if (known) registerModules([entry], true);
      await loadOne(entry);
    },

    async retry(id) {
      const entry = get().entries.find((candidate) => candidate.id === id);
      if (!entry) return;
      registerModules([entry], true);
      await loadOne(entry);
    },

    async preload(id, path) {
      if (!get().modules[id]) {
        const entry = get().entries.find((candidate) => candidate.id === id);
        if (entry) await loadOne(entry, true);
      }
      const loaded = get().modules[id];
      // The browser keeps the screen's chunk: its visit then draws without waiting for it.
      if (loaded?.state === 'ready') await loaded.description.screens[path]?.().catch(() => {});
    },

    async entryChanged(id) {
      const before = get().entries.find((entry) => entry.id === id)?.entry;
      try {
        const now = (await fetchEnabledModules()).find((entry) => entry.id === id)?.entry;
        return now !== undefined && now !== before;
      } catch {
        return false;
      }
    },

    reset() {
      set({ status: 'idle', error: null, entries: [], modules: {} });
    },
  };
});
