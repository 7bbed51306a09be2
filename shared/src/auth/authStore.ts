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
  /** Counts sign-outs, so an answer that arrives after one cannot bring the session back. */
  let generation = 0;

  const establish = (token: string, user: SessionUser, remember: boolean) => {
    writeStoredSession(token, user, remember);
    set({ status: 'authenticated', user, token, remember });
  };

  const clear = () => {
    generation += 1;
    clearStoredSession();
    set({ status: 'anonymous', user: null, token: null, remember: false });
  };

  /** One attempt to get a new access token from the httpOnly refresh cookie. */
  const refreshSession = async (): Promise<string | null> => {
    // A signed-out app does not sign itself back in because a late request was refused.
    if (get().status === 'anonymous') return null;
    const started = generation;
    try {
      const grant = await authApi.refresh();
      if (generation !== started) return null;
      establish(grant.token, grant.user, get().remember);
      return grant.token;
    } catch {
      if (generation === started) clear();
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
      // The request carries the refresh cookie the server revokes; the session here ends at once,
      // and logout errors are ignored (spec §4).
      const ended = authApi.logout().catch(() => undefined);
      clear();
      await ended;
    },

    clear,
  };
});
