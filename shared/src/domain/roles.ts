/** Roles and permissions of the product (docs/product.md, Roles and permissions): the one copy, used by the browser and the server. */
export const ROLES = ['admin', 'receptionist', 'dentist'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Administrator',
  receptionist: 'Receptionist',
  dentist: 'Dentist',
};

export const PERMISSIONS = [
  'all',
  'appointments',
  'patients',
  'dentists',
  'availability',
  'calendar',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  admin: ['all'],
  receptionist: ['appointments', 'patients', 'calendar'],
  dentist: ['appointments', 'patients', 'calendar', 'availability'],
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** A role may use a permission if it lists it or lists `all`. `null` means: any signed-in user. */
export function hasPermission(role: Role | undefined | null, permission: Permission | null): boolean {
  if (!role || !isRole(role)) return false;
  if (permission === null) return true;
  const granted = ROLE_PERMISSIONS[role];
  return granted.includes('all') || granted.includes(permission);
}

/** What is a dentist's own (their days, their calendar feed): an admin acts for any dentist, a dentist for their record. */
export function actsForDentist(staff: { role: Role; dentistId: number | null }, dentistId: number): boolean {
  return staff.role === 'admin' || (staff.role === 'dentist' && staff.dentistId === dentistId);
}

/** Who may book a visit outside a dentist's open hours (an emergency, with a reason). */
export const OUTSIDE_HOURS_ROLES: readonly Role[] = ['admin', 'receptionist'];

export function canBookOutsideHours(role: Role | undefined | null): boolean {
  return !!role && OUTSIDE_HOURS_ROLES.includes(role);
}
