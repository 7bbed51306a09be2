import {
  authApi,
  MODULE_IDS,
  type ModuleEntry,
  type Role,
  type SessionUser,
  useAuthStore,
} from '@dental/shared';
import { KitProvider } from '@dental/shared/kit';
import { createFakeApi, type FakeApi, StylelessUi, staffMember } from '@dental/shared/testing';
import { UiProvider } from '@dental/shared/ui';
import { QueryClient } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { loadModuleDescription } from '../modules/moduleRuntime';
import { useModulesStore } from '../modules/modulesStore';
import { AppLayout } from './AppLayout';

// The federation runtime is not needed to draw the layout: a module describes itself with no screens.
jest.mock('../modules/moduleRuntime', () => ({
  registerModules: jest.fn(),
  loadModuleDescription: jest.fn(async (entry: { id: string }) => ({
    id: entry.id,
    version: '1.0.0',
    buildTime: '2026-11-29T08:00:00.000Z',
    screens: {},
  })),
}));

const PEOPLE: Record<Role, SessionUser> = {
  admin: person(1, 'admin', 'Alex Admin'),
  receptionist: person(2, 'receptionist', 'Riley Reception'),
  dentist: person(3, 'dentist', 'Dr. Sarah Johnson'),
};

function person(id: number, role: Role, name: string): SessionUser {
  return staffMember(role, { id, name, dentistId: role === 'dentist' ? 1 : null });
}

const ALL_MODULES: ModuleEntry[] = MODULE_IDS.map((id) => ({
  id,
  title: id,
  container: `mf_${id}`,
  entry: `/modules/${id}/mf-manifest.json`,
  version: '1.0.0',
  release: null,
  integrity: null,
  enabled: true,
}));

function Where() {
  const location = useLocation();
  return <p>Page at {location.pathname}</p>;
}

// The bell in the top bar reads the clinic's recent activity.
let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
  api.onGet('/api/dashboard/activity').reply(200, { data: [] });
});
afterEach(() => api.restore());

const renderLayout = async (role: Role, modules: ModuleEntry[] = ALL_MODULES, path = '/') => {
  useAuthStore.setState({ status: 'authenticated', user: PEOPLE[role], token: 'token', remember: false });
  useModulesStore.setState({ status: 'ready', entries: modules });
  const view = render(
    <StylelessUi>
      <UiProvider>
        <MemoryRouter initialEntries={[path]}>
          <KitProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
            <Routes>
              <Route path="/login" element={<p>Login page</p>} />
              <Route element={<AppLayout />}>
                <Route path="*" element={<Where />} />
              </Route>
            </Routes>
          </KitProvider>
        </MemoryRouter>
      </UiProvider>
    </StylelessUi>,
  );
  // The menu records its items in a microtask after rendering; let it settle inside act.
  await act(async () => {});
  return view;
};

const sidebarEntries = () =>
  within(screen.getByRole('complementary', { name: 'Sidebar' }))
    .getAllByRole('menuitem')
    .map((item) => item.textContent);

/** The top bar's user button, named by the name and role it shows. */
const USER_MENU = /(Administrator|Receptionist|Dentist)$/;

describe('AppLayout (docs/product.md, Screens: Layout)', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  it.each([
    [
      'admin',
      [
        'Dashboard',
        'Appointments',
        'Waitlist',
        'Requests',
        'Patients',
        'Recall',
        'Dentists',
        'Availability',
        'Calendar',
        'Users',
        'Audit',
        'Settings',
        'Modules',
      ],
    ],
    [
      'receptionist',
      ['Dashboard', 'Appointments', 'Waitlist', 'Requests', 'Patients', 'Recall', 'Calendar', 'Settings'],
    ],
    [
      'dentist',
      [
        'Dashboard',
        'Appointments',
        'Waitlist',
        'Requests',
        'Patients',
        'Recall',
        'Availability',
        'Calendar',
        'Settings',
      ],
    ],
  ] as const)('the sidebar of the %s lists only the entries the role may see', async (role, expected) => {
    await renderLayout(role);
    expect(sidebarEntries()).toEqual(expected);
  });

  it('a module the clinic switched off is not in the sidebar', async () => {
    await renderLayout(
      'admin',
      ALL_MODULES.filter((entry) => entry.id !== 'patients' && entry.id !== 'scheduling'),
    );
    expect(sidebarEntries()).toEqual([
      'Dashboard',
      'Appointments',
      'Waitlist',
      'Requests',
      'Dentists',
      'Users',
      'Audit',
      'Settings',
      'Modules',
    ]);
  });

  it('a sidebar entry opens its screen and is marked as the current one', async () => {
    const user = userEvent.setup();
    await renderLayout('receptionist');
    const sidebar = within(screen.getByRole('complementary', { name: 'Sidebar' }));
    await user.click(sidebar.getByRole('menuitem', { name: /Patients/ }));
    expect(screen.getByText('Page at /patients')).toBeInTheDocument();
    expect(sidebar.getByRole('menuitem', { name: /Patients/ })).toHaveClass('ant-menu-item-selected');
    expect(sidebar.getByRole('menuitem', { name: /Dashboard/ })).not.toHaveClass('ant-menu-item-selected');
  });

  it("the pointer over a module's entry loads the module and that screen's code before the click", async () => {
    const user = userEvent.setup();
    const screenCode = jest.fn(async () => ({ default: () => null }));
    jest.mocked(loadModuleDescription).mockImplementationOnce(async (entry) => ({
      id: entry.id,
      version: '1.0.0',
      buildTime: '2026-11-29T08:00:00.000Z',
      screens: { '/patients': screenCode },
    }));
    useModulesStore.setState({ modules: {} });
    jest.mocked(loadModuleDescription).mockClear();
    await renderLayout('receptionist');
    const sidebar = within(screen.getByRole('complementary', { name: 'Sidebar' }));
    expect(loadModuleDescription).not.toHaveBeenCalled();
    await user.hover(sidebar.getByRole('menuitem', { name: /Patients/ }));
    await waitFor(() => expect(screenCode).toHaveBeenCalledTimes(1));
    expect(jest.mocked(loadModuleDescription).mock.calls.map(([entry]) => entry.id)).toEqual(['patients']);
    expect(useModulesStore.getState().modules.patients).toMatchObject({ state: 'ready' });
  });

  it('shows the clinic name in the sidebar', async () => {
    await renderLayout('dentist');
    expect(
      within(screen.getByRole('complementary', { name: 'Sidebar' })).getByText('Bright Smile Dental'),
    ).toBeInTheDocument();
  });

  it("the top bar's user menu shows the user's name and role, and is named by what it shows", async () => {
    await renderLayout('receptionist');
    // WCAG 2.5.3: the name is the visible text; the initials beside it are not read twice.
    const button = screen.getByRole('button', { name: 'Riley Reception Receptionist' });
    expect(button).toHaveTextContent('RR');
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
  });

  it('the user menu opens with name, e-mail and Sign out, and a click outside closes it', async () => {
    const user = userEvent.setup();
    await renderLayout('dentist');
    await user.click(screen.getByRole('button', { name: USER_MENU }));
    const signOut = await screen.findByRole('menuitem', { name: /Sign out/ });
    const menu = signOut.closest('[role="menu"]') as HTMLElement;
    expect(menu).not.toBeNull();
    expect(within(screen.getByRole('complementary', { name: 'Sidebar' })).queryByText('Sign out')).toBeNull();
    expect(within(menu).getByText('Dr. Sarah Johnson')).toBeInTheDocument();
    expect(within(menu).getByText('dentist@brightsmile.example')).toBeInTheDocument();

    await user.click(screen.getByText('Page at /'));
    await waitFor(() => expect(menu.closest('.ant-dropdown')).toHaveClass('ant-dropdown-hidden'));
  });

  it('Sign out ends the session and goes to /login', async () => {
    const user = userEvent.setup();
    const logout = jest.spyOn(authApi, 'logout').mockResolvedValue();
    sessionStorage.setItem('authToken', 'token');
    sessionStorage.setItem('dental_user', JSON.stringify(PEOPLE.admin));
    await renderLayout('admin', ALL_MODULES, '/patients');
    await user.click(screen.getByRole('button', { name: USER_MENU }));
    await user.click(await screen.findByRole('menuitem', { name: /Sign out/ }));

    expect(await screen.findByText('Login page')).toBeInTheDocument();
    expect(logout).toHaveBeenCalledTimes(1);
    expect(useAuthStore.getState()).toMatchObject({ status: 'anonymous', user: null, token: null });
    expect(sessionStorage.getItem('authToken')).toBeNull();
    // The next user of this browser does not inherit this clinic's modules.
    expect(useModulesStore.getState().entries).toEqual([]);
  });

  it('Sign out still signs out when the server cannot be reached', async () => {
    const user = userEvent.setup();
    jest.spyOn(authApi, 'logout').mockRejectedValue(new Error('Network Error'));
    await renderLayout('receptionist');
    await user.click(screen.getByRole('button', { name: USER_MENU }));
    await user.click(await screen.findByRole('menuitem', { name: /Sign out/ }));
    expect(await screen.findByText('Login page')).toBeInTheDocument();
    expect(useAuthStore.getState().status).toBe('anonymous');
  });

  it('on small screens a menu button opens the sidebar as a slide-over', async () => {
    const user = userEvent.setup();
    await renderLayout('receptionist');
    await user.click(screen.getByRole('button', { name: 'Open navigation' }));
    const drawer = await screen.findByRole('dialog');
    await user.click(within(drawer).getByRole('menuitem', { name: /Calendar/ }));
    expect(screen.getByText('Page at /calendar')).toBeInTheDocument();
  });
});
