import { useAuthStore } from '../auth/authStore';
import { catalogPageOf, hasPermission, type Role } from '../domain';

/**
 * Whether a staff member of this role may open the screen at `path`, as the catalogue declares it:
 * a page open to any signed-in user (`permission: null`) is; a path the catalogue does not know is not.
 */
export function mayOpen(role: Role | null | undefined, path: string): boolean {
  const page = catalogPageOf(path);
  return page !== undefined && hasPermission(role, page.permission);
}

/**
 * Whether the signed-in user may open the screen at `path` (e.g. `/audit`). Access is declared
 * once, in the catalogue: a screen that shows a part of another one (and reads what that one reads)
 * asks this rather than checking roles itself.
 */
export function useMayOpen(path: string): boolean {
  const role = useAuthStore((state) => state.user?.role);
  return mayOpen(role, path);
}
