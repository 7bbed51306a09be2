import { hasPermission, isRole, PERMISSIONS, type Permission, ROLE_LABELS, ROLES, type Role } from './roles';

/** docs/product.md, Roles and permissions: who may use what. Written out by hand so that a change to ROLE_PERMISSIONS shows here. */
const EXPECTED: Record<Role, Record<Permission, boolean>> = {
  admin: {
    all: true,
    appointments: true,
    patients: true,
    dentists: true,
    availability: true,
    calendar: true,
  },
  receptionist: {
    all: false,
    appointments: true,
    patients: true,
    dentists: false,
    availability: false,
    calendar: true,
  },
  dentist: {
    all: false,
    appointments: true,
    patients: true,
    dentists: false,
    availability: true,
    calendar: true,
  },
};

describe('roles and permissions (docs/product.md, Roles and permissions)', () => {
  it('knows exactly the three roles and six permissions', () => {
    expect([...ROLES].sort()).toEqual(['admin', 'dentist', 'receptionist']);
    expect([...PERMISSIONS].sort()).toEqual(
      ['all', 'appointments', 'availability', 'calendar', 'dentists', 'patients'].sort(),
    );
    expect(ROLE_LABELS).toEqual({ admin: 'Administrator', receptionist: 'Receptionist', dentist: 'Dentist' });
  });

  const cases = ROLES.flatMap((role) =>
    PERMISSIONS.map((permission) => [role, permission, EXPECTED[role][permission]] as const),
  );
  it.each(cases)('%s → %s: %s', (role, permission, allowed) => {
    expect(hasPermission(role, permission)).toBe(allowed);
  });

  it('nobody but the admin manages dentists', () => {
    expect(ROLES.filter((role) => hasPermission(role, 'dentists'))).toEqual(['admin']);
  });

  it('only the dentist and the admin manage availability', () => {
    expect(ROLES.filter((role) => hasPermission(role, 'availability')).sort()).toEqual(['admin', 'dentist']);
  });

  it('a null permission means any signed-in role', () => {
    for (const role of ROLES) expect(hasPermission(role, null)).toBe(true);
  });

  it.each([
    ['no role', undefined],
    ['a null role', null],
    ['an unknown role', 'superuser'],
    ['a role in the wrong case', 'ADMIN'],
    ['an empty role', ''],
    ['a prototype key', '__proto__'],
    ['a prototype key', 'constructor'],
  ])('%s gets nothing, not even a null permission', (_label, role) => {
    const anyRole = role as Role;
    expect(hasPermission(anyRole, null)).toBe(false);
    for (const permission of PERMISSIONS) expect(hasPermission(anyRole, permission)).toBe(false);
  });

  it('isRole accepts the three roles only', () => {
    for (const role of ROLES) expect(isRole(role)).toBe(true);
    for (const value of ['Admin', 'user', '', null, undefined, 1, {}, ['admin']])
      expect(isRole(value)).toBe(false);
  });
});
