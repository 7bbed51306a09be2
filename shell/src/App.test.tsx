import {
  apiClient,
  type ModuleDescription,
  STORAGE_KEYS,
  toSessionUser,
  useAuthStore,
  type WireUser,
} from '@dental/shared';
import { StylelessUi } from '@dental/shared/testing';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AxiosError, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { App } from './App';
import { loadModuleDescription } from './modules/moduleRuntime';
import { useModulesStore } from './modules/modulesStore';

// Modules come from the federation runtime; here the Patients module is a stand-in page.
jest.mock('./modules/moduleRuntime', () => ({
  registerModules: jest.fn(),
  loadModuleDescription: jest.fn(),
}));

const PATIENTS_MODULE: ModuleDescription = {
  id: 'patients',
  version: '1.0.0',
  buildTime: '2026-01-01T00:00:00Z',
  screens: { '/patients': () => Promise.resolve({ default: () => <h1>Patients module page</h1> }) },
};

const ADMIN: WireUser = {
  id: 1,
  username: 'admin',
  email: 'admin@brightsmile.example',
  name: 'Alex Admin',
  role: 'admin',
  is_active: true,
  last_login: null,
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
  dentist_id: null,
  clinic_id: 1,
  clinic_name: 'Bright Smile Dental',
  version: 1,
};

/** The server of these journeys: a session that starts when the right password is sent. */
let sent: string[] = [];
let signedIn = false;
let meAnswer: { status: number; data?: unknown } | null = null;
let modulesFailing = false;

const fakeAdapter = async (config: InternalAxiosRequestConfig): Promise<AxiosResponse> => {
  const method = (config.method ?? 'get').toUpperCase();
  const url = config.url ?? '';
  sent.push(`${method} ${url}`);
  const data = typeof config.data === 'string' ? JSON.parse(config.data) : config.data;
  const answer = (status: number, body: unknown): AxiosResponse => {
    const response: AxiosResponse = { data: body, status, statusText: '', headers: {}, config };
    if (status >= 400)
      throw new AxiosError('Request failed', AxiosError.ERR_BAD_REQUEST, config, null, response);
    return response;
  };
  const bearer = config.headers.get('Authorization');
  switch (`${method} ${url}`) {
    case 'POST /auth/login':
      if (data.username === 'admin' && data.password === 'admin123') {
        signedIn = true;
        return answer(200, { access_token: 'jwt-admin', token_type: 'Bearer', expires_in: 900, user: ADMIN });
      }
      return answer(401, { message: 'Invalid username or password' });
    case 'POST /auth/refresh':
      return answer(401, { message: 'Session expired. Please sign in again.' });
    case 'GET /auth/me':
      if (meAnswer) return answer(meAnswer.status, meAnswer.data);
      return bearer ? answer(200, { user: ADMIN }) : answer(401, { message: 'Authentication required' });
    case 'GET /api/modules':
      if (!signedIn && bearer !== 'Bearer saved-token')
        return answer(401, { message: 'Authentication required' });
      if (modulesFailing) return answer(500, { message: 'Internal server error' });
      return answer(200, {
        data: [
          {
            id: 'patients',
            title: 'Patients',
            container: 'mf_patients',
            entry: '/modules/patients/mf-manifest.json',
            version: '1.0.0',
            enabled: true,
          },
        ],
      });
    case 'GET /api/dashboard/stats':
      return answer(200, { data: [] });
    case 'GET /api/dashboard/appointments/today':
      return answer(200, { data: [] });
    case 'GET /api/dashboard/activity':
      return answer(200, { data: [] });
    default:
      return answer(404, { message: 'Not found' });
  }
};

const originalAdapter = apiClient.defaults.adapter;

const openAt = (path: string) => {
  window.history.replaceState(null, '', path);
  return render(<App />, { wrapper: StylelessUi });
};

// Whole journeys through lazily loaded code: slower than one component, above all on a busy machine.
jest.setTimeout(20_000);

describe('App: sign-in and protected routes end to end (docs/product.md, Screens; Statuses and how they change)', () => {
  beforeEach(() => {
    sent = [];
    signedIn = false;
    meAnswer = null;
    modulesFailing = false;
    apiClient.defaults.adapter = fakeAdapter;
    localStorage.clear();
    sessionStorage.clear();
    useAuthStore.setState({ status: 'loading', user: null, token: null, remember: false });
    useModulesStore.getState().reset();
    jest.mocked(loadModuleDescription).mockResolvedValue(PATIENTS_MODULE);
  });

  afterAll(() => {
    apiClient.defaults.adapter = originalAdapter;
    window.history.replaceState(null, '', '/');
  });

  it('a visitor asking for /patients signs in first, then lands on /patients; the login page leaves history', async () => {
    const user = userEvent.setup();
    const historyLength = window.history.length;
    openAt('/patients');
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/login');
    // The saved-session check tried the refresh cookie once.
    expect(sent.filter((call) => call === 'POST /auth/refresh')).toHaveLength(1);

    await user.type(screen.getByLabelText('Username or Email'), 'admin');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid username or password');

    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'admin123');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    // The signed-in part of the app, its UI kit and the module load lazily: allow them time (a busy
    // machine took more than 5 s).
    expect(
      await screen.findByRole('heading', { name: 'Patients module page' }, { timeout: 20000 }),
    ).toBeInTheDocument();
    expect(window.location.pathname).toBe('/patients');
    // Neither the redirect to /login nor the way back added a history entry: Back does not return to the form.
    expect(window.history.length).toBe(historyLength);
    expect(screen.getByRole('button', { name: 'Alex Admin Administrator' })).toHaveTextContent('Alex Admin');
    expect(sessionStorage.getItem(STORAGE_KEYS.token)).toBe('jwt-admin');
  });

  it('a saved session is restored at start-up and the profile fetched again', async () => {
    localStorage.setItem(STORAGE_KEYS.token, 'saved-token');
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(toSessionUser(ADMIN)));
    openAt('/');
    expect(await screen.findByRole('heading', { name: 'Dashboard' }, { timeout: 20000 })).toBeInTheDocument();
    await waitFor(() => expect(sent).toContain('GET /auth/me'));
    expect(screen.queryByRole('button', { name: 'Sign in' })).not.toBeInTheDocument();
  });

  it('a saved session the server no longer accepts is cleared and the user sent to /login', async () => {
    meAnswer = { status: 401, data: { message: 'Your session has expired. Please sign in again.' } };
    localStorage.setItem(STORAGE_KEYS.token, 'stale-token');
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(toSessionUser(ADMIN)));
    openAt('/calendar');
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/login');
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.user)).toBeNull();
  });

  it('an unknown path inside the app shows the 404 page with that path', async () => {
    localStorage.setItem(STORAGE_KEYS.token, 'saved-token');
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(toSessionUser(ADMIN)));
    openAt('/billing/2026');
    expect(await screen.findByText('Page not found', {}, { timeout: 20000 })).toBeInTheDocument();
    expect(screen.getByTestId('not-found-path')).toHaveTextContent('/billing/2026');
  });

  it('when the list of modules cannot be read, a module page says so with Retry, never that it is missing', async () => {
    const user = userEvent.setup();
    modulesFailing = true;
    localStorage.setItem(STORAGE_KEYS.token, 'saved-token');
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(toSessionUser(ADMIN)));
    openAt('/patients');
    expect(
      await screen.findByText('The areas of the app could not be loaded', {}, { timeout: 20000 }),
    ).toBeInTheDocument();
    expect(screen.queryByText('Page not found')).not.toBeInTheDocument();
    expect(screen.getByText('Some areas could not be loaded.')).toBeInTheDocument();

    modulesFailing = false;
    await user.click(screen.getAllByRole('button', { name: 'Retry' })[0] as HTMLElement);
    expect(await screen.findByRole('heading', { name: 'Patients module page' })).toBeInTheDocument();
    expect(screen.queryByText('Some areas could not be loaded.')).not.toBeInTheDocument();
  });

  it('a remembered session signed out in another tab ends here too', async () => {
    localStorage.setItem(STORAGE_KEYS.token, 'saved-token');
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(toSessionUser(ADMIN)));
    openAt('/');
    expect(await screen.findByRole('heading', { name: 'Dashboard' }, { timeout: 20000 })).toBeInTheDocument();
    // What the other tab's sign-out looks like from here: the key goes, and this tab hears of it.
    localStorage.removeItem(STORAGE_KEYS.token);
    localStorage.removeItem(STORAGE_KEYS.user);
    act(() => {
      window.dispatchEvent(
        new StorageEvent('storage', {
          key: STORAGE_KEYS.token,
          oldValue: 'saved-token',
          newValue: null,
          storageArea: localStorage,
        }),
      );
    });
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/login');
  });
});
