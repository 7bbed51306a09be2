import { AxiosError, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { ApiError, apiClient } from '../api/client';
import { STORAGE_KEYS, type WireUser } from '../domain';
import { authApi } from './authApi';
import { useAuthStore } from './authStore';

/** What the server sends back, per call; the fake adapter records what the client sent. */
let answers: Record<string, { status: number; data?: unknown }> = {};
let sent: Array<{ method: string; url: string; data: unknown }> = [];
/** The Authorization header of the last call. */
let lastBearer: unknown = null;

const fakeAdapter = async (config: InternalAxiosRequestConfig): Promise<AxiosResponse> => {
  const method = (config.method ?? 'get').toUpperCase();
  const url = config.url ?? '';
  sent.push({ method, url, data: typeof config.data === 'string' ? JSON.parse(config.data) : config.data });
  lastBearer = config.headers.get('Authorization');
  const answer = answers[`${method} ${url}`] ?? { status: 404, data: { message: 'Not found' } };
  const response: AxiosResponse = {
    data: answer.data,
    status: answer.status,
    statusText: String(answer.status),
    headers: {},
    config,
  };
  if (answer.status >= 400) {
    throw new AxiosError('Request failed', AxiosError.ERR_BAD_REQUEST, config, null, response);
  }
  return response;
};

const WIRE_USER: WireUser = {
  id: 1,
  username: 'admin',
  email: 'admin@brightsmile.example',
  name: 'Alex Admin',
  role: 'admin',
  is_active: true,
  last_login: null,
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-02-01T00:00:00.000Z',
  dentist_id: null,
  clinic_id: 1,
  clinic_name: 'Bright Smile Dental',
  version: 1,
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
  answers = {};
  sent = [];
  apiClient.defaults.adapter = fakeAdapter;
  localStorage.clear();
  sessionStorage.clear();
  useAuthStore.setState({ status: 'anonymous', user: null, token: null, remember: false });
});

afterAll(() => {
  apiClient.defaults.adapter = originalAdapter;
});

describe('authApi.login (docs/product.md, Records and their fields; API calls)', () => {
  it('posts username, password and remember to /auth/login and maps the user to camelCase', async () => {
    answers['POST /auth/login'] = {
      status: 200,
      data: { access_token: 'jwt-1', token_type: 'Bearer', expires_in: 900, user: WIRE_USER },
    };
    const answer = await authApi.login('admin', 'admin123', true);
    expect(sent).toEqual([
      {
        method: 'POST',
        url: '/auth/login',
        data: { username: 'admin', password: 'admin123', remember: true },
      },
    ]);
    expect(answer).toEqual({
      kind: 'signedIn',
      grant: {
        token: 'jwt-1',
        user: {
          id: 1,
          username: 'admin',
          email: 'admin@brightsmile.example',
          name: 'Alex Admin',
          role: 'admin',
          isActive: true,
          lastLogin: null,
          createdAt: '2025-01-01T00:00:00.000Z',
          updatedAt: '2025-02-01T00:00:00.000Z',
          dentistId: null,
          clinicId: 1,
          clinicName: 'Bright Smile Dental',
        },
      },
    });
  });

  it('also accepts the other answer the spec allows: token and user', async () => {
    answers['POST /auth/login'] = { status: 200, data: { token: 'jwt-2', user: WIRE_USER } };
    const answer = await authApi.login('admin', 'admin123', false);
    expect(answer.kind === 'signedIn' && answer.grant.token).toBe('jwt-2');
    expect(answer.kind === 'signedIn' && answer.grant.user.username).toBe('admin');
  });

  it('answers the second step the server asks for: a code, or setting up a factor', async () => {
    answers['POST /auth/login'] = { status: 200, data: { mfa_required: true, mfa_token: 'step-1' } };
    expect(await authApi.login('admin', 'admin123', false)).toEqual({ kind: 'code', mfaToken: 'step-1' });
    answers['POST /auth/login'] = {
      status: 200,
      data: { mfa_enrollment_required: true, mfa_token: 'step-2' },
    };
    expect(await authApi.login('admin', 'admin123', false)).toEqual({ kind: 'enrol', mfaToken: 'step-2' });
    answers['POST /auth/login'] = {
      status: 200,
      data: { password_change_required: true, mfa_token: 'step-3' },
    };
    expect(await authApi.login('admin', 'given-once', false)).toEqual({
      kind: 'password',
      mfaToken: 'step-3',
    });
    // The password chosen, the sign-in goes on: here to the enrolment step.
    answers['POST /auth/password/choose'] = {
      status: 200,
      data: { mfa_enrollment_required: true, mfa_token: 'step-4' },
    };
    expect(await authApi.choosePassword('step-3', 'my-own-quiet-harbour')).toEqual({
      kind: 'enrol',
      mfaToken: 'step-4',
    });
  });

  it('sends the second step with its token, and the enrolment token as the bearer of setup', async () => {
    answers['POST /auth/mfa/verify'] = {
      status: 200,
      data: { access_token: 'jwt-3', token_type: 'Bearer', expires_in: 900, user: WIRE_USER },
    };
    const grant = await authApi.verifySecondFactor('step-1', { recovery_code: 'abcd-efgh-jkmn' });
    expect(grant.token).toBe('jwt-3');
    expect(sent.at(-1)).toEqual({
      method: 'POST',
      url: '/auth/mfa/verify',
      data: { mfa_token: 'step-1', recovery_code: 'abcd-efgh-jkmn' },
    });

    answers['POST /auth/mfa/totp/setup'] = {
      status: 200,
      data: { secret: 'ABC', otpauth_url: 'otpauth://x' },
    };
    expect(await authApi.startTotpSetup({}, 'enrol-1')).toEqual({
      secret: 'ABC',
      otpauth_url: 'otpauth://x',
    });
    expect(lastBearer).toBe('Bearer enrol-1');
    answers['POST /auth/mfa/totp/enable'] = {
      status: 200,
      data: {
        recovery_codes: ['aaaa-bbbb-cccc'],
        access_token: 'jwt-4',
        token_type: 'Bearer',
        expires_in: 900,
        user: WIRE_USER,
      },
    };
    const enabled = await authApi.enableTotp('123456', { enrolmentToken: 'enrol-1' });
    expect(enabled.recoveryCodes).toEqual(['aaaa-bbbb-cccc']);
    expect(enabled.grant?.token).toBe('jwt-4');
    expect(sent.at(-1)?.data).toEqual({ code: '123456', end_other_sessions: false });
  });

  it.each([
    ['an empty answer', {}],
    ['no token', { user: WIRE_USER }],
    ['an empty token', { access_token: '', user: WIRE_USER }],
    ['no user', { access_token: 'jwt' }],
    ['a user with an unknown role', { access_token: 'jwt', user: { ...WIRE_USER, role: 'owner' } }],
    ['a user without an id', { access_token: 'jwt', user: { ...WIRE_USER, id: undefined } }],
    ['an HTML page', '<!doctype html><html></html>'],
    ['null', null],
  ])('refuses %s with "Login failed", and makes up no session', async (_label, data) => {
    answers['POST /auth/login'] = { status: 200, data };
    const error = await failureOf(authApi.login('admin', 'admin123', true));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('Login failed');

    // Through the store: nothing is stored, nobody is signed in.
    const viaStore = await failureOf(useAuthStore.getState().login('admin', 'admin123', true));
    expect(viaStore.message).toBe('Login failed');
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.user)).toBeNull();
    expect(sessionStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(useAuthStore.getState()).toMatchObject({ status: 'anonymous', user: null, token: null });
  });

  it("shows the server's message for a refusal, or 'Login failed' when it sends none", async () => {
    answers['POST /auth/login'] = { status: 401, data: { message: 'Invalid username or password' } };
    expect((await failureOf(authApi.login('admin', 'nope', false))).message).toBe(
      'Invalid username or password',
    );
    answers['POST /auth/login'] = { status: 500 };
    expect((await failureOf(authApi.login('admin', 'nope', false))).message).toBe('Login failed');
    // A refused sign-in never tries the refresh cookie.
    expect(sent.filter((request) => request.url === '/auth/refresh')).toHaveLength(0);
  });
});

describe('authApi.refresh, me and logout', () => {
  it('refresh answers a new grant, or "Token refresh failed"', async () => {
    answers['POST /auth/refresh'] = { status: 200, data: { access_token: 'jwt-3', user: WIRE_USER } };
    expect((await authApi.refresh()).token).toBe('jwt-3');
    answers['POST /auth/refresh'] = { status: 200, data: { user: WIRE_USER } };
    expect((await failureOf(authApi.refresh())).message).toBe('Token refresh failed');
    answers['POST /auth/refresh'] = { status: 401 };
    const refused = await failureOf(authApi.refresh());
    expect(refused.message).toBe('Token refresh failed');
    expect(refused.status).toBe(401);
  });

  it('me answers the user, or "Failed to get profile"', async () => {
    answers['GET /auth/me'] = { status: 200, data: { user: WIRE_USER } };
    expect(await authApi.me()).toMatchObject({
      username: 'admin',
      role: 'admin',
      clinicName: 'Bright Smile Dental',
    });
    answers['GET /auth/me'] = { status: 200, data: WIRE_USER };
    expect((await failureOf(authApi.me())).message).toBe('Failed to get profile');
    answers['GET /auth/me'] = { status: 503 };
    expect((await failureOf(authApi.me())).message).toBe('Failed to get profile');
  });

  it('logout posts to /auth/logout', async () => {
    answers['POST /auth/logout'] = { status: 200, data: { message: 'Signed out' } };
    await authApi.logout();
    expect(sent).toEqual([{ method: 'POST', url: '/auth/logout', data: undefined }]);
  });
});
