import type { ModuleId } from '@dental/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useModulesStore } from './modulesStore';

interface PreloadTarget {
  moduleId: ModuleId;
  path: string;
}

/** Save-Data: the user asked the browser to spare their connection. */
function savesData(): boolean {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection;
  return connection?.saveData === true;
}

/** Each module once, with the first of its screens the user can open (the sidebar's order). */
export function firstScreens(targets: readonly PreloadTarget[]): PreloadTarget[] {
  const seen = new Set<ModuleId>();
  return targets.filter(({ moduleId }) => !seen.has(moduleId) && seen.add(moduleId));
}

/**
 * While the browser has nothing else to do after a signed-in page has drawn, loads each module the
 * user can open, one at a time, with its first screen's code, so a first visit draws without waiting
 * for it (docs/architecture.md, Module releases). The page's own data comes first: while a read is on
 * its way the preload waits for the next idle moment, so the dashboard paints before any module loads.
 * Not with Save-Data, nor where the browser has no idle callback: the pointer over a sidebar entry
 * still preloads its module there.
 */
export function useIdlePreload(targets: readonly PreloadTarget[]) {
  const preload = useModulesStore((state) => state.preload);
  const client = useQueryClient();

  // `targets` is the caller's memo of its sidebar: a new list starts the queue again, and a module
  // already loaded is passed over at once.
  useEffect(() => {
    const queue = firstScreens(targets);
    if (queue.length === 0 || savesData() || typeof window.requestIdleCallback !== 'function') return;
    let stopped = false;
    let handle: number | undefined;
    const next = () => {
      const target = queue.shift();
      if (stopped || !target) return;
      handle = window.requestIdleCallback(() => {
        handle = undefined;
        if (client.isFetching() > 0) {
          queue.unshift(target);
          next();
          return;
        }
        // The store keeps a failure for the visit to try again; the queue goes on either way.
        void preload(target.moduleId, target.path).then(next, next);
      });
    };
    next();
    return () => {
      stopped = true;
      if (handle !== undefined) window.cancelIdleCallback(handle);
    };
  }, [targets, preload, client]);
}
