import {
  hasPermission,
  MODULE_CATALOG,
  MODULE_IDS,
  type ModuleEntry,
  type ModuleId,
  type ModulePage,
  type NavIcon,
  type Role,
} from '@dental/shared';

/** Icons of the shell's own entries, beside the modules' (named in the catalog). */
export type ShellNavIcon = NavIcon | 'dashboard' | 'modules';

export interface NavItem {
  path: string;
  label: string;
  icon: ShellNavIcon;
  moduleId: ModuleId | null;
}

/** Dashboard first, then each enabled module's screens in the product's order, then the switchboard. */
export function buildNavigation(role: Role | undefined, enabled: ModuleEntry[]): NavItem[] {
  const enabledIds = new Set(enabled.map((entry) => entry.id));
  const items: NavItem[] = [{ path: '/', label: 'Dashboard', icon: 'dashboard', moduleId: null }];
  for (const id of MODULE_IDS) {
    if (!enabledIds.has(id)) continue;
    for (const page of MODULE_CATALOG[id].pages) {
      if (hasPermission(role, page.permission))
        items.push({ path: page.path, label: page.label, icon: page.icon, moduleId: id });
    }
  }
  if (hasPermission(role, 'all'))
    items.push({ path: '/modules', label: 'Modules', icon: 'modules', moduleId: null });
  return items;
}

/** The screens of the enabled modules, whatever the role: a page the role lacks shows Access Denied. */
export function enabledPages(enabled: ModuleEntry[]): Array<{ moduleId: ModuleId; page: ModulePage }> {
  return MODULE_IDS.filter((id) => enabled.some((entry) => entry.id === id)).flatMap((id) =>
    MODULE_CATALOG[id].pages.map((page) => ({ moduleId: id, page })),
  );
}
