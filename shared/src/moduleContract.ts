import type { ComponentType } from 'react';
import type { MODULE_CATALOG, ModuleId } from './domain';

/** Loads a screen's code; called on the screen's first visit. */
export type ScreenLoader = () => Promise<{ default: ComponentType }>;

/**
 * The default export of every module's `./module` entry: only what is the module's own. Its screens'
 * paths, labels, icons and permissions are the catalogue's (`MODULE_CATALOG`), which the shell reads.
 */
export interface ModuleDescription {
  id: ModuleId;
  version: string;
  /** When this build was made: the Modules page shows it, so a release can be seen live. */
  buildTime: string;
  /** The code of each screen the catalogue lists for the module, by path. */
  screens: Partial<Record<string, ScreenLoader>>;
}

/** Describes a module; a screen the catalogue lists but the module does not load is a build error. */
export function defineModule<Id extends ModuleId>(
  id: Id,
  build: { version: string; buildTime: string },
  screens: Record<(typeof MODULE_CATALOG)[Id]['pages'][number]['path'], ScreenLoader>,
): ModuleDescription {
  return { id, ...build, screens };
}
