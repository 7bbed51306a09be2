import { ApiError, apiClient } from '../api/client';
import { MFA_NOW_REQUIRED_MESSAGE, type SessionUser, STORAGE_KEYS } from '../domain';
import { authApi } from './authApi';
import { useAuthStore } from './authStore';

const USER: SessionUser = {
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
const TOKEN = 'header.payload.signature';

const stored = (store: Storage) => ({
  token: store.getItem(STORAGE_KEYS.token),
  user: store.getItem(STORAGE_KEYS.user),
});
const saveSession = (store: Storage, token = TOKEN, user: SessionUser = USER) => {
  store.setItem('authToken', token);
  store.setItem('dental_user', JSON.stringify(user));
};

/** An API call the server answers 401, as a deactivated account's or an ended session's is. */
const callRefused = () =>
  apiClient.request({
    url: '/api/patients',
    adapter: async (config) =>
      Promise.reject(
        Object.assign(new Error('Unauthorized'), {
          isAxiosError: true,
          config,
          response: { status: 401, data: { message: 'Authentication required' }, headers: {}, config },
        }),
      ),
  });

describe('auth store', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
    useAuthStore.setState({ status: 'loading', user: null, token: null, remember: false });
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('uses the storage keys of the spec', () => {
    expect(STORAGE_KEYS).toEqual({ token: 'authToken', user: 'dental_user' });
  });

  describe('login', () => {
    it('remember=true keeps the token and user in localStorage', async () => {
      const spy = jest
        .spyOn(authApi, 'login')
        .mockResolvedValue({ kind: 'signedIn', grant: { token: TOKEN, user: USER } });
      const step = await useAuthStore.getState().login('receptionist', 'receptionist123', true);

      expect(spy).toHaveBeenCalledWith('receptionist', 'receptionist123', true);
      expect(step).toEqual({ kind: 'signedIn', user: USER });
      expect(localStorage.getItem('authToken')).toBe(TOKEN);
      expect(JSON.parse(localStorage.getItem('dental_user') ?? 'null')).toEqual(USER);
      expect(stored(sessionStorage)).toEqual({ token: null, user: null });
      expect(useAuthStore.getState()).toMatchObject({
        status: 'authenticated',
        token: TOKEN,
        user: USER,
        remember: true,
      });
    });

    it('remember=false keeps them in sessionStorage only', async () => {
      jest
        .spyOn(authApi, 'login')
        .mockResolvedValue({ kind: 'signedIn', grant: { token: TOKEN, user: USER } });
      await useAuthStore.getState().login('receptionist', 'receptionist123', false);

      expect(sessionStorage.getItem('authToken')).toBe(TOKEN);
      expect(JSON.parse(sessionStorage.getItem('dental_user') ?? 'null')).toEqual(USER);
      expect(stored(localStorage)).toEqual({ token: null, user: null });
      expect(useAuthStore.getState()).toMatchObject({ status: 'authenticated', remember: false });
    });

    it('a new sign-in without remember drops the remembered session of before', async () => {
      saveSession(localStorage, 'old-token');
      jest
        .spyOn(authApi, 'login')
        .mockResolvedValue({ kind: 'signedIn', grant: { token: TOKEN, user: USER } });
      await useAuthStore.getState().login('receptionist', 'receptionist123', false);
      expect(stored(localStorage)).toEqual({ token: null, user: null });
      expect(sessionStorage.getItem('authToken')).toBe(TOKEN);
    });

    it('a refused sign-in passes the server message on and stores nothing', async () => {
      useAuthStore.setState({ status: 'anonymous' });
      jest.spyOn(authApi, 'login').mockRejectedValue(new ApiError('Invalid username or password', 401));
      await expect(useAuthStore.getState().login('receptionist', 'wrong', true)).rejects.toThrow(
        'Invalid username or password',
      );
      expect(stored(localStorage)).toEqual({ token: null, user: null });
      expect(stored(sessionStorage)).toEqual({ token: null, user: null });
      expect(useAuthStore.getState()).toMatchObject({ status: 'anonymous', token: null, user: null });
    });
  });

  describe('logout', () => {
    it('clears the session after the server confirms', async () => {
      jest
        .spyOn(authApi, 'login')
        .mockResolvedValue({ kind: 'signedIn', grant: { token: TOKEN, user: USER } });
      const logout = jest.spyOn(authApi, 'logout').mockResolvedValue();
      await useAuthStore.getState().login('receptionist', 'receptionist123', true);
      await useAuthStore.getState().logout();

      expect(logout).toHaveBeenCalledTimes(1);
      expect(stored(localStorage)).toEqual({ token: null, user: null });
      expect(useAuthStore.getState()).toMatchObject({ status: 'anonymous', token: null, user: null });
    });

    it('clears the session even when the server call fails', async () => {
      saveSession(localStorage);
      saveSession(sessionStorage);
      useAuthStore.setState({ status: 'authenticated', token: TOKEN, user: USER, remember: true });
      jest.spyOn(authApi, 'logout').mockRejectedValue(new ApiError('Network Error'));

      await expect(useAuthStore.getState().logout()).resolves.toBeUndefined();
      expect(stored(localStorage)).toEqual({ token: null, user: null });
      expect(stored(sessionStorage)).toEqual({ token: null, user: null });
      expect(useAuthStore.getState()).toMatchObject({ status: 'anonymous', token: null, user: null });
    });
  });

  describe('logout without waiting for the server', () => {
    const heldLogout = () => {
      let answer: () => void = () => {};
      const answered = new Promise<void>((resolve) => {
        answer = resolve;
      });
      const logout = jest.spyOn(authApi, 'logout').mockReturnValue(answered);
      return { logout, answer: () => answer() };
    };

    it('ends the session here before the server has answered', async () => {
      saveSession(sessionStorage);
      useAuthStore.setState({ status: 'authenticated', token: TOKEN, user: USER, remember: false });
      const { logout, answer } = heldLogout();

      const ended = useAuthStore.getState().logout();
      expect(logout).toHaveBeenCalledTimes(1);
      expect(useAuthStore.getState()).toMatchObject({
        status: 'anonymous',
        token: null,
        user: null,
        signedOut: true,
      });
      expect(stored(sessionStorage)).toEqual({ token: null, user: null });

      answer();
      await expect(ended).resolves.toBeUndefined();
    });

    it('a sign-in right after a sign-out is sent once the sign-out has been answered', async () => {
      useAuthStore.setState({ status: 'authenticated', token: TOKEN, user: USER, remember: true });
      const { answer } = heldLogout();
      const login = jest
        .spyOn(authApi, 'login')
        .mockResolvedValue({ kind: 'signedIn', grant: { token: 'next', user: USER } });

      void useAuthStore.getState().logout();
      const signedIn = useAuthStore.getState().login('receptionist', 'receptionist123', true);
      await Promise.resolve();
      // The sign-out's answer clears the refresh cookie: it must not land after the new session's.
      expect(login).not.toHaveBeenCalled();

      answer();
      await signedIn;
      expect(login).toHaveBeenCalledTimes(1);
      expect(useAuthStore.getState()).toMatchObject({
        status: 'authenticated',
        token: 'next',
        signedOut: false,
      });
    });

    it('a session that ends otherwise (expiry, another tab) is not a sign-out', () => {
      useAuthStore.setState({ status: 'authenticated', token: TOKEN, user: USER, signedOut: true });
      useAuthStore.getState().clear();
      expect(useAuthStore.getState()).toMatchObject({ status: 'anonymous', signedOut: false });
    });
  });

  describe('initialize', () => {
    it('a saved session whose token the server refuses (401) is cleared', async () => {
      saveSession(localStorage);
      const me = jest.spyOn(authApi, 'me').mockRejectedValue(new ApiError('Authentication required', 401));
      await useAuthStore.getState().initialize();

      expect(me).toHaveBeenCalledTimes(1);
      expect(stored(localStorage)).toEqual({ token: null, user: null });
      expect(useAuthStore.getState()).toMatchObject({ status: 'anonymous', token: null, user: null });
    });

    it('a saved session is restored and its profile refreshed from the server', async () => {
      saveSession(localStorage);
      const renamed = { ...USER, name: 'Riley R. Reception', role: 'dentist' as const };
      jest.spyOn(authApi, 'me').mockResolvedValue(renamed);
      await useAuthStore.getState().initialize();

      expect(useAuthStore.getState()).toMatchObject({
        status: 'authenticated',
        token: TOKEN,
        user: renamed,
        remember: true,
      });
      expect(JSON.parse(localStorage.getItem('dental_user') ?? 'null')).toEqual(renamed);
    });

    it('a session saved without remember stays in sessionStorage', async () => {
      saveSession(sessionStorage);
      jest.spyOn(authApi, 'me').mockResolvedValue(USER);
      await useAuthStore.getState().initialize();
      expect(useAuthStore.getState()).toMatchObject({ status: 'authenticated', remember: false });
      expect(sessionStorage.getItem('authToken')).toBe(TOKEN);
      expect(localStorage.getItem('authToken')).toBeNull();
    });

    it('keeps the saved session when the server is only unreachable', async () => {
      saveSession(localStorage);
      jest.spyOn(authApi, 'me').mockRejectedValue(new ApiError('Network Error'));
      await useAuthStore.getState().initialize();
      expect(useAuthStore.getState()).toMatchObject({ status: 'authenticated', token: TOKEN, user: USER });
      expect(localStorage.getItem('authToken')).toBe(TOKEN);
    });

    it('without a saved session it tries the refresh cookie once, and is anonymous when that fails', async () => {
      const refresh = jest.spyOn(authApi, 'refresh').mockRejectedValue(new ApiError('Session expired', 401));
      const me = jest.spyOn(authApi, 'me');
      await useAuthStore.getState().initialize();
      expect(refresh).toHaveBeenCalledTimes(1);
      expect(me).not.toHaveBeenCalled();
      expect(useAuthStore.getState()).toMatchObject({ status: 'anonymous', token: null, user: null });
    });

    it('without a saved session a live refresh cookie signs the user back in', async () => {
      jest.spyOn(authApi, 'refresh').mockResolvedValue({ token: 'fresh-token', user: USER });
      await useAuthStore.getState().initialize();
      expect(useAuthStore.getState()).toMatchObject({
        status: 'authenticated',
        token: 'fresh-token',
        user: USER,
      });
      expect(sessionStorage.getItem('authToken')).toBe('fresh-token');
    });

    it('a corrupt saved user is not trusted', async () => {
      localStorage.setItem('authToken', TOKEN);
      localStorage.setItem('dental_user', '{not json');
      jest.spyOn(authApi, 'refresh').mockRejectedValue(new ApiError('Session expired', 401));
      await useAuthStore.getState().initialize();
      expect(useAuthStore.getState()).toMatchObject({ status: 'anonymous', user: null });
      expect(localStorage.getItem('dental_user')).toBeNull();
    });
  });

  describe('a session the server ends', () => {
    it('says on the sign-in page that the session ended when a refused call cannot be renewed', async () => {
      jest
        .spyOn(authApi, 'login')
        .mockResolvedValue({ kind: 'signedIn', grant: { token: TOKEN, user: USER } });
      jest.spyOn(authApi, 'refresh').mockRejectedValue(new ApiError('Authentication required', 401));
      await useAuthStore.getState().login('receptionist', 'receptionist123', false);
      const refused = callRefused();
      await expect(refused).rejects.toBeDefined();
      expect(useAuthStore.getState()).toMatchObject({
        status: 'anonymous',
        notice: 'Your session has ended. Please sign in again.',
      });
      useAuthStore.setState({ notice: null });
    });

    it('says the clinic now requires two-step sign-in when that ended the session', async () => {
      jest
        .spyOn(authApi, 'login')
        .mockResolvedValue({ kind: 'signedIn', grant: { token: TOKEN, user: USER } });
      jest.spyOn(authApi, 'refresh').mockRejectedValue(new ApiError(MFA_NOW_REQUIRED_MESSAGE, 401));
      await useAuthStore.getState().login('receptionist', 'receptionist123', false);
      await expect(callRefused()).rejects.toBeDefined();
      expect(useAuthStore.getState()).toMatchObject({
        status: 'anonymous',
        notice: 'Your clinic now requires two-step sign-in. Sign in again to set it up.',
      });
      useAuthStore.setState({ notice: null });
    });

    it('a new tab of a session the policy ended is told why it is not signed in', async () => {
      jest.spyOn(authApi, 'refresh').mockRejectedValue(new ApiError(MFA_NOW_REQUIRED_MESSAGE, 401));
      useAuthStore.setState({ notice: null });
      await useAuthStore.getState().initialize();
      expect(useAuthStore.getState()).toMatchObject({
        status: 'anonymous',
        notice: MFA_NOW_REQUIRED_MESSAGE,
      });
      useAuthStore.setState({ notice: null });
    });

    it('a visitor who was not signed in is told nothing', async () => {
      jest.spyOn(authApi, 'refresh').mockRejectedValue(new ApiError('Session expired', 401));
      useAuthStore.setState({ notice: null });
      await useAuthStore.getState().initialize();
      expect(useAuthStore.getState()).toMatchObject({ status: 'anonymous', notice: null });
    });
  });

  describe('sign-out', () => {
    it('a request refused after sign-out does not sign the user back in', async () => {
      jest
        .spyOn(authApi, 'login')
        .mockResolvedValue({ kind: 'signedIn', grant: { token: TOKEN, user: USER } });
      jest.spyOn(authApi, 'logout').mockResolvedValue(undefined);
      const refresh = jest.spyOn(authApi, 'refresh').mockResolvedValue({ token: 'fresh', user: USER });
      await useAuthStore.getState().login('receptionist', 'receptionist123', false);
      await useAuthStore.getState().logout();

      // A call still running at sign-out comes back 401.
      const refused = callRefused();
      await expect(refused).rejects.toBeDefined();
      expect(refresh).not.toHaveBeenCalled();
      expect(useAuthStore.getState()).toMatchObject({ status: 'anonymous', token: null });
      expect(stored(sessionStorage)).toEqual({ token: null, user: null });
    });
  });
});
