import { AxiosError, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { useAuthStore } from '../auth/authStore';
import {
  DESK_HEADER,
  DESK_PATTERN,
  ERROR_MESSAGES,
  type SessionUser,
  STORAGE_KEYS,
  type WireUser,
} from '../domain';
import { ApiError, apiClient, apiRequest, resolveRequestTimeout, THIS_DESK, toPage } from './client';

/**
 * The shared axios client, driven through a fake adapter: every request the client would send is
 * recorded, and the answer comes from `respond`. No network, no axios-mock-adapter.
 */
interface Sent {
  method: string;
  url: string;
  authorization: string | null;
  contentType: string | null;
  data: unknown;
  timeout: number | undefined;
  desk: string | null;
}
type Answer = { status: number; data?: unknown } | 'network-error' | 'timeout';

let sent: Sent[] = [];
let respond: (request: Sent, index: number) => Answer = () => ({ status: 200, data: {} });

const fakeAdapter = async (config: InternalAxiosRequestConfig): Promise<AxiosResponse> => {
  const headers = config.headers;
  const request: Sent = {
    method: (config.method ?? 'get').toUpperCase(),
    url: config.url ?? '',
    authorization: (headers.get('Authorization') as string | undefined) ?? null,
    contentType: (headers.get('Content-Type') as string | undefined) ?? null,
    data: typeof config.data === 'string' ? JSON.parse(config.data) : config.data,
    timeout: config.timeout,
    desk: (headers.get(DESK_HEADER) as string | undefined) ?? null,
  };
  sent.push(request);
  const answer = respond(request, sent.length - 1);
  if (answer === 'network-error') throw new AxiosError('Network Error', AxiosError.ERR_NETWORK, config);
  if (answer === 'timeout') {
    throw new AxiosError(`timeout of ${config.timeout}ms exceeded`, AxiosError.ECONNABORTED, config);
  }
  const response: AxiosResponse = {
    data: answer.data,
    status: answer.status,
    statusText: String(answer.status),
    headers: {},
    config,
  };
  if (answer.status >= 400) {
    throw new AxiosError(
      `Request failed with status code ${answer.status}`,
      answer.status >= 500 ? AxiosError.ERR_BAD_RESPONSE : AxiosError.ERR_BAD_REQUEST,
      config,
      null,
      response,
    );
  }
  return response;
};

const WIRE_USER: WireUser = {
  id: 7,
  username: 'receptionist',
  email: 'reception@brightsmile.example',
  name: 'Riley Reception',
  role: 'receptionist',
  is_active: true,
  last_login: '2026-01-05T09:00:00.000Z',
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-06-01T00:00:00.000Z',
  dentist_id: null,
  clinic_id: 1,
  clinic_name: 'Bright Smile Dental',
  version: 1,
};
const SESSION_USER: SessionUser = {
  id: 7,
  username: 'receptionist',
  email: 'reception@brightsmile.example',
  name: 'Riley Reception',
  role: 'receptionist',
  isActive: true,
  lastLogin: '2026-01-05T09:00:00.000Z',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-06-01T00:00:00.000Z',
  dentistId: null,
  clinicId: 1,
  clinicName: 'Bright Smile Dental',
};

/** A signed-in session as the auth store leaves it: in browser storage and in the store. */
const signIn = (token: string, remember = true) => {
  const store = remember ? localStorage : sessionStorage;
  store.setItem(STORAGE_KEYS.token, token);
  store.setItem(STORAGE_KEYS.user, JSON.stringify(SESSION_USER));
  useAuthStore.setState({ status: 'authenticated', user: SESSION_USER, token, remember });
};

const failureOf = async (promise: Promise<unknown>): Promise<ApiError> => {
  try {
    await promise;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('The call was expected to fail');
};

const originalAdapter = apiClient.defaults.adapter;

beforeEach(() => {
  sent = [];
  respond = () => ({ status: 200, data: {} });
  apiClient.defaults.adapter = fakeAdapter;
  localStorage.clear();
  sessionStorage.clear();
  useAuthStore.setState({ status: 'anonymous', user: null, token: null, remember: false });
});

afterAll(() => {
  apiClient.defaults.adapter = originalAdapter;
});

describe('request headers', () => {
  it('sends the stored token as a bearer Authorization header, and a JSON content type', async () => {
    signIn('token-from-local-storage');
    respond = () => ({ status: 201, data: { id: 1 } });
    const created = await apiRequest(
      { method: 'POST', url: '/api/patients', data: { name: 'Ann' } },
      ERROR_MESSAGES.createPatient,
    );
    expect(created).toEqual({ id: 1 });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      method: 'POST',
      url: '/api/patients',
      authorization: 'Bearer token-from-local-storage',
      data: { name: 'Ann' },
    });
    expect(sent[0]?.contentType).toMatch(/^application\/json/);
  });

  it("names this tab's desk on every call, the same each time, as the server takes a desk's name", async () => {
    signIn('token-from-local-storage');
    await apiRequest({ method: 'GET', url: '/api/patients' }, ERROR_MESSAGES.fetchPatients);
    await apiRequest({ method: 'DELETE', url: '/api/patients/1' }, ERROR_MESSAGES.deletePatient);
    expect(sent.map((request) => request.desk)).toEqual([THIS_DESK, THIS_DESK]);
    expect(THIS_DESK).toMatch(DESK_PATTERN);
  });

  it('reads a session that was not remembered from sessionStorage', async () => {
    signIn('token-from-session-storage', false);
    await apiRequest({ url: '/api/patients' }, ERROR_MESSAGES.fetchPatients);
    expect(sent[0]?.authorization).toBe('Bearer token-from-session-storage');
  });

  it('takes the token at the time of each call: a new sign-in is used at once', async () => {
    signIn('first');
    await apiRequest({ url: '/api/patients' }, ERROR_MESSAGES.fetchPatients);
    localStorage.setItem(STORAGE_KEYS.token, 'second');
    await apiRequest({ url: '/api/patients' }, ERROR_MESSAGES.fetchPatients);
    expect(sent.map((request) => request.authorization)).toEqual(['Bearer first', 'Bearer second']);
  });

  it('sends no Authorization header when nobody is signed in', async () => {
    await apiRequest({ method: 'POST', url: '/auth/login', data: {} }, ERROR_MESSAGES.login);
    expect(sent[0]?.authorization).toBeNull();
  });

  it('uses the time-out of the spec: 15000 ms, 10000 ms when the setting cannot be parsed', async () => {
    expect(apiClient.defaults.timeout).toBe(15000);
    await apiRequest({ url: '/api/patients' }, ERROR_MESSAGES.fetchPatients);
    expect(sent[0]?.timeout).toBe(15000);
    expect(resolveRequestTimeout(undefined)).toBe(15000);
    expect(resolveRequestTimeout('')).toBe(15000);
    expect(resolveRequestTimeout('2500')).toBe(2500);
    expect(resolveRequestTimeout('soon')).toBe(10000);
    expect(resolveRequestTimeout('-5')).toBe(10000);
    expect(resolveRequestTimeout('0')).toBe(10000);
  });
});

describe('error messages (docs/product.md, Error messages)', () => {
  it("shows the server's message and keeps the status", async () => {
    signIn('token');
    respond = () => ({ status: 404, data: { message: 'Patient not found' } });
    const error = await failureOf(apiRequest({ url: '/api/patients/99' }, ERROR_MESSAGES.fetchPatient));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('Patient not found');
    expect(error.status).toBe(404);
  });

  it('keeps the fields the server named in a 400', async () => {
    signIn('token');
    respond = () => ({
      status: 400,
      data: {
        message: 'Invalid email: Invalid email address',
        errors: [{ field: 'email', message: 'Invalid email address' }, 'junk', { field: 'x' }],
      },
    });
    const error = await failureOf(
      apiRequest({ method: 'POST', url: '/api/patients', data: {} }, ERROR_MESSAGES.createPatient),
    );
    expect(error.message).toBe('Invalid email: Invalid email address');
    expect(error.status).toBe(400);
    expect(error.fieldErrors).toEqual([{ field: 'email', message: 'Invalid email address' }]);
  });

  it.each([
    ['no body', undefined],
    ['an HTML error page', '<html><body>Bad Gateway</body></html>'],
    ['an empty message', { message: '' }],
    ['a message that is not text', { message: { code: 42 } }],
    ['a body without message', { error: 'boom' }],
  ])('falls back to the catalogue message when the server sends %s', async (_label, data) => {
    signIn('token');
    respond = () => ({ status: 502, data });
    const error = await failureOf(apiRequest({ url: '/api/appointments' }, ERROR_MESSAGES.fetchAppointments));
    expect(error.message).toBe('Failed to fetch appointments');
    expect(error.status).toBe(502);
  });

  it('falls back to the catalogue message when the server cannot be reached or times out', async () => {
    signIn('token');
    respond = () => 'network-error';
    const network = await failureOf(
      apiRequest({ method: 'DELETE', url: '/api/users/3' }, ERROR_MESSAGES.deleteUser),
    );
    expect(network.message).toBe('Failed to delete user');
    expect(network.status).toBeUndefined();

    respond = () => 'timeout';
    const slow = await failureOf(
      apiRequest({ url: '/api/dashboard/stats' }, ERROR_MESSAGES.fetchDashboardStats),
    );
    expect(slow.message).toBe('Failed to fetch dashboard stats');
  });

  it('holds the fallbacks the spec lists', () => {
    expect(ERROR_MESSAGES).toMatchObject({
      login: 'Login failed',
      profile: 'Failed to get profile',
      refresh: 'Token refresh failed',
      updateAppointmentStatus: 'Failed to update appointment status',
      updateTimeSlot: 'Failed to update time slot',
      updateUserStatus: 'Failed to update user status',
      fetchTodayAppointments: "Failed to fetch today's appointments",
      fetchRecentActivity: 'Failed to fetch recent activity',
      fetchCalendarAvailability: 'Failed to fetch calendar availability',
    });
  });
});

describe('a 401 answer', () => {
  const refreshOk = { status: 200, data: { access_token: 'fresh-token', user: WIRE_USER } };
  const calls = (url: string) => sent.filter((request) => request.url === url);

  it('tries POST /auth/refresh once, then repeats the call with the new token', async () => {
    signIn('expired-token');
    respond = (request) => {
      if (request.url === '/auth/refresh') return refreshOk;
      return request.authorization === 'Bearer fresh-token'
        ? { status: 200, data: [{ id: 1, name: 'Ann' }] }
        : { status: 401, data: { message: 'Your session has expired. Please sign in again.' } };
    };
    const patients = await apiRequest({ url: '/api/patients' }, ERROR_MESSAGES.fetchPatients);

    expect(patients).toEqual([{ id: 1, name: 'Ann' }]);
    expect(sent.map((request) => `${request.method} ${request.url} ${request.authorization}`)).toEqual([
      'GET /api/patients Bearer expired-token',
      'POST /auth/refresh Bearer expired-token',
      'GET /api/patients Bearer fresh-token',
    ]);
    // The new token is kept where the session lives, and the session goes on.
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('fresh-token');
    expect(useAuthStore.getState()).toMatchObject({ status: 'authenticated', token: 'fresh-token' });
  });

  it('clears the session when the refresh fails, and shows the original error', async () => {
    signIn('expired-token');
    respond = (request) =>
      request.url === '/auth/refresh'
        ? { status: 401, data: { message: 'Session expired. Please sign in again.' } }
        : { status: 401, data: { message: 'Your session has expired. Please sign in again.' } };
    const error = await failureOf(apiRequest({ url: '/api/patients' }, ERROR_MESSAGES.fetchPatients));

    expect(error.status).toBe(401);
    expect(error.message).toBe('Your session has expired. Please sign in again.');
    expect(calls('/auth/refresh')).toHaveLength(1);
    expect(calls('/api/patients')).toHaveLength(1);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.user)).toBeNull();
    expect(useAuthStore.getState()).toMatchObject({ status: 'anonymous', user: null, token: null });
  });

  it('clears the session when the server cannot be reached for the refresh', async () => {
    signIn('expired-token', false);
    respond = (request) => (request.url === '/auth/refresh' ? 'network-error' : { status: 401 });
    const error = await failureOf(
      apiRequest({ url: '/api/calendar' }, ERROR_MESSAGES.fetchCalendarAppointments),
    );
    expect(error.status).toBe(401);
    expect(error.message).toBe('Failed to fetch calendar appointments');
    expect(sessionStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(useAuthStore.getState().status).toBe('anonymous');
  });

  it('does not refresh a second time when the repeated call is refused again', async () => {
    signIn('expired-token');
    respond = (request) =>
      request.url === '/auth/refresh'
        ? refreshOk
        : { status: 401, data: { message: 'Authentication required' } };
    const error = await failureOf(apiRequest({ url: '/api/patients' }, ERROR_MESSAGES.fetchPatients));
    expect(error.status).toBe(401);
    expect(calls('/auth/refresh')).toHaveLength(1);
    expect(calls('/api/patients')).toHaveLength(2);
  });

  it('calls that fail together share one refresh', async () => {
    signIn('expired-token');
    respond = (request) => {
      if (request.url === '/auth/refresh') return refreshOk;
      return request.authorization === 'Bearer fresh-token'
        ? { status: 200, data: { url: request.url } }
        : { status: 401 };
    };
    const answers = await Promise.all([
      apiRequest({ url: '/api/dashboard/stats' }, ERROR_MESSAGES.fetchDashboardStats),
      apiRequest({ url: '/api/dashboard/appointments/today' }, ERROR_MESSAGES.fetchTodayAppointments),
      apiRequest({ url: '/api/dashboard/activity' }, ERROR_MESSAGES.fetchRecentActivity),
    ]);
    expect(answers).toEqual([
      { url: '/api/dashboard/stats' },
      { url: '/api/dashboard/appointments/today' },
      { url: '/api/dashboard/activity' },
    ]);
    expect(calls('/auth/refresh')).toHaveLength(1);
  });

  it('a refused sign-in shows its message and never tries a refresh', async () => {
    respond = () => ({ status: 401, data: { message: 'Invalid username or password' } });
    const error = await failureOf(
      apiRequest(
        { method: 'POST', url: '/auth/login', data: { username: 'a', password: 'b' } },
        ERROR_MESSAGES.login,
      ),
    );
    expect(error.message).toBe('Invalid username or password');
    expect(sent.map((request) => request.url)).toEqual(['/auth/login']);
  });

  it('other refusals (403) neither refresh nor end the session', async () => {
    signIn('token');
    respond = () => ({ status: 403, data: { message: "You don't have permission to manage users." } });
    const error = await failureOf(apiRequest({ url: '/api/users' }, ERROR_MESSAGES.fetchUsers));
    expect(error.message).toBe("You don't have permission to manage users.");
    expect(error.status).toBe(403);
    expect(calls('/auth/refresh')).toHaveLength(0);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('token');
    expect(useAuthStore.getState().status).toBe('authenticated');
  });
});

describe('list answers (docs/product.md, API calls)', () => {
  it('accepts a bare array or a page object', () => {
    expect(toPage([{ id: 1 }, { id: 2 }])).toEqual({
      data: [{ id: 1 }, { id: 2 }],
      total: 2,
      page: 1,
      limit: 2,
    });
    expect(toPage({ data: [{ id: 3 }], total: 41, page: 3, limit: 20 })).toEqual({
      data: [{ id: 3 }],
      total: 41,
      page: 3,
      limit: 20,
    });
    expect(toPage({ data: [{ id: 4 }] })).toEqual({ data: [{ id: 4 }], total: 1, page: 1, limit: 1 });
    expect(toPage({})).toEqual({ data: [], total: 0, page: 1, limit: 0 });
  });
});
