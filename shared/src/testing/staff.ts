import type { Role, SessionUser } from '../domain';

/** A signed-in staff member of the demo clinic, for component tests; any field can be overridden. */
export function staffMember(role: Role, overrides: Partial<SessionUser> = {}): SessionUser {
  return {
    id: 1,
    username: role,
    email: `${role}@brightsmile.example`,
    name: `Sam ${role}`,
    role,
    isActive: true,
    lastLogin: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    dentistId: role === 'dentist' ? 1 : null,
    clinicId: 1,
    clinicName: 'Bright Smile Dental',
    ...overrides,
  };
}
