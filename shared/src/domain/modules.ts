import { z } from 'zod';
import type { Permission } from './roles';

/** Module ids the product knows; each is one `mf-*` package released on its own. */
export const MODULE_IDS = ['appointments', 'patients', 'dentists', 'scheduling', 'admin', 'booking'] as const;
export type ModuleId = (typeof MODULE_IDS)[number];

/** One entry of `GET /api/modules`: a module enabled (or not) for the caller's clinic. */
export const moduleEntrySchema = z.object({
  id: z.enum(MODULE_IDS),
  title: z.string(),
  container: z.string(),
  entry: z.string(),
  version: z.string(),
  enabled: z.boolean(),
});
export type ModuleEntry = z.infer<typeof moduleEntrySchema>;

export const moduleUpdateSchema = z.object({ enabled: z.boolean() }).strict();
export type ModuleUpdate = z.infer<typeof moduleUpdateSchema>;

export const NAV_ICONS = [
  'schedule',
  'team',
  'carry-out',
  'hourglass',
  'inbox',
  'medicine-box',
  'clock',
  'calendar',
  'user',
  'audit',
  'setting',
] as const;
export type NavIcon = (typeof NAV_ICONS)[number];

/** A screen of the product (docs/product.md, Screens) and the permission it needs (docs/product.md, Roles and permissions); `null` = any signed-in user. */
export interface ModulePage {
  path: string;
  label: string;
  permission: Permission | null;
  /** Name of the sidebar icon (the shell draws it, so the sidebar needs no module code). */
  icon: NavIcon;
  /** Shown on Access Denied instead of the generic sentence. */
  deniedMessage?: string;
}

export interface ModuleCatalogEntry {
  title: string;
  /** Federation container name the module's build publishes. */
  container: string;
  /** Package folder the module is built in. */
  packageDir: string;
  pages: readonly ModulePage[];
}

/** A module's entry: its package folder and federation container are named after its id, so they cannot drift. */
function catalogEntry<const Id extends ModuleId, const Pages extends readonly ModulePage[]>(
  id: Id,
  title: string,
  pages: Pages,
) {
  return { title, container: `mf_${id}` as const, packageDir: `mf-${id}` as const, pages };
}

/**
 * The modules this product ships and the screens each owns: the shell uses it to keep a module's
 * area (and its error) in place even when the module's code fails to load; the module uses it for
 * its own routes. Where a module's entry is served from is the operator's choice (server config).
 */
export const MODULE_CATALOG = {
  appointments: catalogEntry('appointments', 'Appointments', [
    { path: '/appointments', label: 'Appointments', permission: 'appointments', icon: 'schedule' },
    { path: '/waitlist', label: 'Waitlist', permission: 'appointments', icon: 'hourglass' },
    { path: '/requests', label: 'Requests', permission: 'appointments', icon: 'inbox' },
  ]),
  patients: catalogEntry('patients', 'Patients', [
    { path: '/patients', label: 'Patients', permission: 'patients', icon: 'team' },
    { path: '/recall', label: 'Recall', permission: 'patients', icon: 'carry-out' },
  ]),
  dentists: catalogEntry('dentists', 'Dentists', [
    { path: '/dentists', label: 'Dentists', permission: 'dentists', icon: 'medicine-box' },
  ]),
  scheduling: catalogEntry('scheduling', 'Scheduling', [
    { path: '/availability', label: 'Availability', permission: 'availability', icon: 'clock' },
    { path: '/calendar', label: 'Calendar', permission: 'calendar', icon: 'calendar' },
  ]),
  admin: catalogEntry('admin', 'Administration', [
    {
      path: '/users',
      label: 'Users',
      permission: 'all',
      icon: 'user',
      deniedMessage: "You don't have permission to access user management.",
    },
    {
      path: '/audit',
      label: 'Audit',
      permission: 'all',
      icon: 'audit',
      deniedMessage: "You don't have permission to read the audit log.",
    },
    { path: '/settings', label: 'Settings', permission: null, icon: 'setting' },
  ]),
  // The patients' pages (docs/product.md, Online booking): no staff screen, only the public ones below.
  booking: catalogEntry('booking', 'Online booking', []),
} as const satisfies Record<ModuleId, ModuleCatalogEntry>;

/** The catalogue's page at this path (a screen's route, e.g. `/audit`); none for a path it does not know. */
export function catalogPageOf(path: string): ModulePage | undefined {
  const entries: readonly ModuleCatalogEntry[] = Object.values(MODULE_CATALOG);
  for (const entry of entries) {
    const page = entry.pages.find((each) => each.path === path);
    if (page) return page;
  }
  return undefined;
}

/**
 * The public pages of the booking module, outside sign-in: a clinic's booking page and a visit's
 * manage link. The shell serves them from a light page of their own (`book.html`).
 */
export const BOOKING_PAGE_PREFIX = '/book/';
export const bookingPagePath = (slug: string) => `${BOOKING_PAGE_PREFIX}${slug}`;
export const managePagePath = (token: string) => `${BOOKING_PAGE_PREFIX}manage/${token}`;

/** Which public page a path is: a clinic's booking page (its slug) or a manage link (its token). */
export type PublicPage =
  | { page: 'book'; slug: string }
  | { page: 'manage'; token: string }
  | { page: 'none' };
export function publicPageOf(pathname: string): PublicPage {
  if (!pathname.startsWith(BOOKING_PAGE_PREFIX)) return { page: 'none' };
  const parts = pathname.slice(BOOKING_PAGE_PREFIX.length).split('/').filter(Boolean);
  if (parts[0] === 'manage' && parts.length === 2 && parts[1]) return { page: 'manage', token: parts[1] };
  if (parts.length === 1 && parts[0]) return { page: 'book', slug: parts[0] };
  return { page: 'none' };
}

/** GET /public/modules/booking: where the booking module's entry is served from (no sign-in). */
export const publicModuleEntrySchema = z.object({
  container: z.string(),
  entry: z.string(),
  version: z.string(),
});
export type PublicModuleEntry = z.infer<typeof publicModuleEntrySchema>;
