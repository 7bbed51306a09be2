import { type Role, useAuthStore } from '@dental/shared';
import { staffMember } from '@dental/shared/testing';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { PermissionGate } from './PermissionGate';
import { RequireSession } from './RequireSession';

const userWithRole = (role: Role) => staffMember(role, { id: 3 });

/** The login page of these tests says where it was sent from. */
function LoginProbe() {
  const location = useLocation();
  const from = (location.state as { from?: { pathname: string; search: string } } | null)?.from;
  return <p>Login page, from {from ? `${from.pathname}${from.search}` : 'nowhere'}</p>;
}

const renderProtected = (path: string) =>
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/login" element={<LoginProbe />} />
        <Route
          path="*"
          element={
            <RequireSession>
              <p>Secret clinic page</p>
            </RequireSession>
          }
        />
      </Routes>
    </MemoryRouter>,
  );

describe('protected routes (docs/product.md, Screens)', () => {
  beforeEach(() => {
    useAuthStore.setState({ status: 'loading', user: null, token: null, remember: false });
  });

  describe('RequireSession', () => {
    it("shows 'Loading...' while the session is being restored, and nothing of the page", () => {
      renderProtected('/patients');
      expect(screen.getByRole('status')).toHaveTextContent('Loading...');
      expect(screen.queryByText('Secret clinic page')).not.toBeInTheDocument();
    });

    it('sends a visitor without a session to /login and remembers where they were going', () => {
      useAuthStore.setState({ status: 'anonymous' });
      renderProtected('/appointments?date=2026-03-01');
      expect(screen.getByText('Login page, from /appointments?date=2026-03-01')).toBeInTheDocument();
      expect(screen.queryByText('Secret clinic page')).not.toBeInTheDocument();
    });

    it('shows the page to a signed-in user', () => {
      useAuthStore.setState({ status: 'authenticated', user: userWithRole('dentist'), token: 't' });
      renderProtected('/calendar');
      expect(screen.getByText('Secret clinic page')).toBeInTheDocument();
    });

    it('follows the session: signing out elsewhere sends the user to /login', () => {
      useAuthStore.setState({ status: 'authenticated', user: userWithRole('dentist'), token: 't' });
      renderProtected('/calendar');
      expect(screen.getByText('Secret clinic page')).toBeInTheDocument();
      // A 401 that could not be mended clears the session (docs/product.md, Statuses and how they change).
      act(() => useAuthStore.getState().clear());
      expect(screen.getByText('Login page, from /calendar')).toBeInTheDocument();
    });
  });

  describe('PermissionGate and Access Denied', () => {
    const renderGate = (
      role: Role,
      permission: Parameters<typeof PermissionGate>[0]['permission'],
      message?: string,
      entries = ['/', '/guarded'],
    ) => {
      useAuthStore.setState({ status: 'authenticated', user: userWithRole(role), token: 't' });
      return render(
        <MemoryRouter initialEntries={entries} initialIndex={entries.length - 1}>
          <Routes>
            <Route path="/" element={<p>Previous page</p>} />
            <Route
              path="/guarded"
              element={
                <PermissionGate permission={permission} deniedMessage={message}>
                  <p>Guarded content</p>
                </PermissionGate>
              }
            />
          </Routes>
        </MemoryRouter>,
      );
    };

    it.each([
      ['admin', 'dentists'],
      ['admin', 'all'],
      ['receptionist', 'appointments'],
      ['receptionist', 'calendar'],
      ['dentist', 'availability'],
      ['dentist', null],
    ] as const)('lets %s into a page that needs %s', (role, permission) => {
      renderGate(role, permission);
      expect(screen.getByText('Guarded content')).toBeInTheDocument();
      expect(screen.queryByText('Access Denied')).not.toBeInTheDocument();
    });

    it('shows Access Denied with the sentence, the permission and the role, and hides the page', () => {
      renderGate('receptionist', 'availability');
      expect(screen.queryByText('Guarded content')).not.toBeInTheDocument();
      expect(screen.getByText('Access Denied')).toBeInTheDocument();
      expect(screen.getByText("You don't have permission to access this page.")).toBeInTheDocument();
      expect(screen.getByText(/Required permission:/)).toHaveTextContent('Required permission: availability');
      expect(screen.getByText(/Your role:/)).toHaveTextContent('Your role: Receptionist');
    });

    it('the users page says its own sentence to a dentist', () => {
      renderGate('dentist', 'all', "You don't have permission to access user management.");
      expect(screen.getByText("You don't have permission to access user management.")).toBeInTheDocument();
      expect(screen.getByText(/Required permission:/)).toHaveTextContent('Required permission: all');
      expect(screen.getByText(/Your role:/)).toHaveTextContent('Your role: Dentist');
    });

    it("'Go Back' on the tab's first page goes to the dashboard instead of leaving the app", async () => {
      const user = userEvent.setup();
      renderGate('receptionist', 'all', undefined, ['/guarded']);
      expect(screen.getByText(/Required permission:/)).toHaveTextContent(
        'Required permission: all (held by: Administrator)',
      );
      await user.click(screen.getByRole('button', { name: 'Go Back' }));
      expect(screen.getByText('Previous page')).toBeInTheDocument();
    });

    it("'Go Back' returns to the previous page", async () => {
      const user = userEvent.setup();
      renderGate('receptionist', 'dentists');
      await user.click(screen.getByRole('button', { name: 'Go Back' }));
      expect(screen.getByText('Previous page')).toBeInTheDocument();
      expect(screen.queryByText('Access Denied')).not.toBeInTheDocument();
    });
  });
});
