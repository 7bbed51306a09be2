import type { ComponentType, ReactNode } from 'react';
import type { ModuleId, Permission } from './domain';

/** A page a module contributes; its code loads on first visit. */
export interface ModuleRoute {
  /** Absolute path, e.g. `/patients`. */
  path: string;
  /** The permission it needs (spec §6); `null` = any signed-in user. */
  permission: Permission | null;
  load: () => Promise<{ default: ComponentType }>;
}

export interface ModuleNavEntry {
  path: string;
  label: string;
  permission: Permission | null;
  icon?: ReactNode;
  /** Lower comes first in the sidebar. */
  order: number;
}

/** The default export of every module's `./module` entry. */
export interface ModuleDescription {
  id: ModuleId;
  title: string;
  version: string;
  buildTime: string;
  routes: ModuleRoute[];
  nav: ModuleNavEntry[];
}

export function defineModule(description: ModuleDescription): ModuleDescription {
  return description;
}
