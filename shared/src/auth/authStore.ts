import { create } from 'zustand';
import { type ApiError, setUnauthorizedHandler } from '../api/client';
import type { SessionUser } from '../domain';
import { authApi } from './authApi';
import { clearStoredSession, readStoredSession, writeStoredSession } from './storage';

export type SessionStatus = 'loading' | 'authenticated' | 'anonymous';

export interface AuthState {
  status: SessionStatus;
  user: SessionUser | null;
  token: string | null;
  remember: boolean;
  /** Restores a saved session at start-up and re-fetches the profile (spec §4). */
  initialize: () => Promise<void>;
  login: (username: string, password: string, remember: boolean) => Promise<SessionUser>;
  /** Ends the session on the server and here; server errors are ignored (spec §4). */
  logout: () => Promise<void>;
  /** Clears the session locally, e.g. after a 401 that a refresh could not mend. */
  clear: () => void;
}

export const useAuthStore = create<AuthState>()((set, get) => {
  const establish = (token: string, user: SessionUser, remember: boolean) => {
    writeStoredSession(token, user, remember);
    set({ status: 'authenticated', user, token, remember });
  };

  const clear = () => {
    clearStoredSession();
    set({ status: 'anonymous', user: null, token: null, remember: false });
  };

  /** One attempt to get a new access token from the httpOnly refresh cookie. */
  const refreshSession = async (): Promise<string | null> => {
    try {
      const grant = await authApi.refresh();
      establish(grant.token, grant.user, get().remember);
      return grant.token;
    } catch {
      clear();
      return null;
    }
  };

  setUnauthorizedHandler(refreshSession);

  return {
    status: 'loading',
    user: null,
    token: null,
    remember: false,

    async initialize() {
      const saved = readStoredSession();
      if (!saved) {
        // A new tab of a session that was not remembered still has its refresh cookie.
        set({ status: 'loading' });
        const token = await refreshSession();
        if (!token) clear();
        return;
      }
      set({ status: 'authenticated', user: saved.user, token: saved.token, remember: saved.remember });
      try {
        const user = await authApi.me();
        const { token, remember } = get();
        if (token) establish(token, user, remember);
      } catch (error) {
        const status = (error as ApiError).status;
        if (status === 401 || status === 403) clear();
      }
    },

    async login(username, password, remember) {
      const grant = await authApi.login(username, password, remember);
      establish(grant.token, grant.user, remember);
      return grant.user;
    },

    async logout() {
      try {
        await authApi.logout();
      } catch {
        // Logout errors are ignored: the session is cleared anyway.
      }
      clear();
    },

    clear,
  };
});
