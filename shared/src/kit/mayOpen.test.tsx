import { act, renderHook } from '@testing-library/react';
import { useAuthStore } from '../auth/authStore';
import { catalogPageOf, type Role } from '../domain';
import { staffMember } from '../testing';
import { mayOpen, useMayOpen } from './mayOpen';

function signIn(role: Role | null) {
  useAuthStore.setState(
    role
      ? { status: 'authenticated', user: staffMember(role), token: 'test-token', remember: false }
      : { status: 'anonymous', user: null, token: null, remember: false },
  );
}

/** What the hook answers for the signed-in user, read once (the hook is unmounted after). */
function mayOpenNow(path: string): boolean {
  const { result, unmount } = renderHook(() => useMayOpen(path));
  const answer = result.current;
  unmount();
  return answer;
}

describe('catalogPageOf', () => {
  it("finds a screen's page in the catalogue, and nothing for a path it does not know", () => {
    expect(catalogPageOf('/audit')).toMatchObject({ path: '/audit', permission: 'all' });
    expect(catalogPageOf('/calendar')).toMatchObject({ path: '/calendar', permission: 'calendar' });
    expect(catalogPageOf('/nowhere')).toBeUndefined();
    expect(catalogPageOf('/audit/')).toBeUndefined();
  });
});

describe('useMayOpen: access as the catalogue declares it', () => {
  afterEach(() => signIn(null));

  it('an admin may open the Audit screen; a receptionist and a dentist may not', () => {
    signIn('admin');
    expect(mayOpenNow('/audit')).toBe(true);
    signIn('receptionist');
    expect(mayOpenNow('/audit')).toBe(false);
    signIn('dentist');
    expect(mayOpenNow('/audit')).toBe(false);
  });

  it('a page open to any signed-in user (permission null) is open to every role', () => {
    expect(catalogPageOf('/settings')?.permission).toBeNull();
    for (const role of ['admin', 'receptionist', 'dentist'] as const) {
      signIn(role);
      expect(mayOpenNow('/settings')).toBe(true);
    }
  });

  it('a path the catalogue does not know is not open, even to an admin', () => {
    signIn('admin');
    expect(mayOpenNow('/secret')).toBe(false);
  });

  it('no one signed in may open anything', () => {
    signIn(null);
    expect(mayOpenNow('/settings')).toBe(false);
    expect(mayOpen(undefined, '/audit')).toBe(false);
  });

  it('follows who is signed in', () => {
    signIn('receptionist');
    const { result, unmount } = renderHook(() => useMayOpen('/audit'));
    expect(result.current).toBe(false);
    act(() => signIn('admin'));
    expect(result.current).toBe(true);
    unmount();
  });
});
