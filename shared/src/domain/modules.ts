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
  /** The published release the clinic runs (docs/architecture.md, Module releases); null: the build in place. */
  release: z.string().nullable(),
  /** Subresource Integrity of a release's entry script, checked by the browser; null without a release. */
  integrity: z.string().nullable(),
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
  /** Subresource Integrity of a published release's entry; null for the build in place. */
  integrity: z.string().nullable(),
});
export type PublicModuleEntry = z.infer<typeof publicModuleEntrySchema>;

/** A method an owned API route is called with (`HEAD` goes with `GET`). */
export type OwnedApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Routes of the API that one module owns, named by the server's route patterns (`/api/users/:id`). */
export interface OwnedApi {
  /** Only calls with this method; every method when absent. */
  method?: OwnedApiMethod;
  /** The route pattern itself and, unless `exact`, every route under it (`/api/recall` covers `/api/recall/:patientId/:typeId`, not `/api/recall-types`). */
  prefix: string;
  exact?: true;
}

/**
 * "Switched off means off" (docs/architecture.md, Modules): the API routes each staff module owns.
 * To a clinic that has the module off they answer 404 `{ message: 'Not found' }`, as an unknown route
 * does (server/src/resources/modules/moduleApiGate.ts). A route is owned only when the module's own
 * screens alone call it; these are called by others too, so they stay open whatever is switched off:
 *  - `GET|PUT /api/appointments/:id`: the Calendar (scheduling) reads and moves a visit;
 *  - `GET /api/waitlist/matches`, `POST /api/waitlist/:id/offer`: the Calendar's Fill this time;
 *  - `GET /api/dentists`: the dentist choices of every screen;
 *  - `GET /api/dentists/:id/free-times`: the booking form (appointments) and the Calendar's moves;
 *  - `GET /api/patients`, `GET /api/patients/:id`: the booking form finds and shows its patient;
 *  - `GET /api/recall-types`: Recall (patients) and Settings (admin);
 *  - `GET /api/settings`: the shell's idle sign-out, the booking form, the Calendar;
 *  - `GET /api/chairs`: the booking form, the Calendar and Settings;
 *  - `GET /api/audit`: the Audit screen and a patient's openings on the Patients screen;
 *  - `/auth/*`: the shell's sign-in, and each user's own sessions and second step;
 *  - the shell's own: `/api/modules`, `/api/dashboard/*`, `/api/events`; and `/api/health`.
 * A route no screen calls goes with its resource's screens (`GET /api/dentists/:id/appointments`,
 * `GET /api/calendar/availability`, `GET /api/availability/dentist/:id`). Online booking has a gate of
 * its own (its public pages answer 404 when it is off) and no entry here.
 */
export const MODULE_OWNED_API: Record<Exclude<ModuleId, 'booking'>, readonly OwnedApi[]> = {
  appointments: [
    { method: 'GET', prefix: '/api/appointments', exact: true },
    { method: 'POST', prefix: '/api/appointments', exact: true },
    { prefix: '/api/appointments/overlapping' },
    { prefix: '/api/appointments/series' },
    { method: 'DELETE', prefix: '/api/appointments/:id', exact: true },
    { prefix: '/api/appointments/:id/status' },
    { method: 'GET', prefix: '/api/waitlist', exact: true },
    { method: 'POST', prefix: '/api/waitlist', exact: true },
    { prefix: '/api/waitlist/:id', exact: true },
    { prefix: '/api/waitlist/:id/free-times' },
    { prefix: '/api/booking-requests' },
  ],
  patients: [
    { method: 'POST', prefix: '/api/patients', exact: true },
    { method: 'PUT', prefix: '/api/patients/:id', exact: true },
    { method: 'DELETE', prefix: '/api/patients/:id', exact: true },
    { prefix: '/api/patients/:id/appointments' },
    { prefix: '/api/patients/:id/recall' },
    { prefix: '/api/recall' },
  ],
  dentists: [
    { method: 'POST', prefix: '/api/dentists', exact: true },
    { prefix: '/api/dentists/:id', exact: true },
    { prefix: '/api/dentists/:id/appointments' },
  ],
  scheduling: [{ prefix: '/api/availability' }, { prefix: '/api/calendar' }, { prefix: '/api/held-times' }],
  admin: [
    { prefix: '/api/users' },
    { prefix: '/api/audit/csv' },
    { prefix: '/api/audit/verify' },
    { method: 'PUT', prefix: '/api/settings', exact: true },
    { prefix: '/api/backup' },
    { prefix: '/api/outbox' },
    { method: 'POST', prefix: '/api/chairs', exact: true },
    { prefix: '/api/chairs/order' },
    { prefix: '/api/chairs/:id' },
    { method: 'POST', prefix: '/api/recall-types', exact: true },
    { prefix: '/api/recall-types/:id' },
  ],
};
