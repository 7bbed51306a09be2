import { create } from 'zustand';
import { type ApiError, setUnauthorizedHandler } from '../api/client';
import { MFA_NOW_REQUIRED_MESSAGE, type SessionUser } from '../domain/auth';
import { authApi, type SecondFactorProof, type SessionGrant } from './authApi';
import { clearStoredSession, readStoredSession, writeStoredSession } from './storage';

export type SessionStatus = 'loading' | 'authenticated' | 'anonymous';

export type SignInStep =
  | { kind: 'signedIn'; user: SessionUser }
  | { kind: 'code' | 'enrol' | 'password'; mfaToken: string };

export interface AuthState {
  status: SessionStatus;
  user: SessionUser | null;
  token: string | null;
  remember: boolean;
  /** The last session ended because the user signed out here (not expiry): the next sign-in starts afresh. */
  signedOut: boolean;
  /** Why the last session ended, when the user did not end it (idle sign-out): the sign-in page says it. */
  notice: string | null;
  /** Restores a saved session at start-up and re-fetches the profile (docs/product.md, Statuses and how they change). */
  initialize: () => Promise<void>;
  /**
   * The password step: signed in, or a second step first (a code from the user's authenticator, or
   * setting one up because the clinic requires it), with the token that opens that step.
   */
  login: (username: string, password: string, remember: boolean) => Promise<SignInStep>;
  /**
   * The account's own password, when the one it signed in with was chosen by someone else: signed
   * in, or the sign-in's next step.
   */
  choosePassword: (mfaToken: string, newPassword: string, remember: boolean) => Promise<SignInStep>;
  /** The second step: a code from the authenticator app or a recovery code. */
  verifySecondFactor: (mfaToken: string, proof: SecondFactorProof, remember: boolean) => Promise<SessionUser>;
  /** Enrolment done (its recovery codes seen): the session it opened starts here. */
  finishEnrolment: (grant: SessionGrant, remember: boolean) => void;
  /**
   * Ends the session here at once and on the server; the promise settles when the server has
   * answered, and server errors are ignored (docs/product.md, Statuses and how they change).
   */
  logout: () => Promise<void>;
  /** Clears the session locally, e.g. after a 401 that a refresh could not mend. */
  clear: () => void;
  /** Changes your own password; this session carries on with the new token the server gives. */
  changePassword: (currentPassword: string, newPassword: string) => Promise<void>;
  /** Signs out a session left idle, saying why on the sign-in page. */
  signOutIdle: (notice: string) => Promise<void>;
  /** Gets a fresh access token while the user is active, so a session in use never goes stale. */
  keepAlive: () => Promise<void>;
}

/** How often an active user's tab renews its access token. */
const KEEP_ALIVE_MS = 5 * 60_000;

/** What the sign-in page says after the server refused to renew a signed-in session. */
export const SESSION_ENDED_NOTICE = 'Your session has ended. Please sign in again.';

export const useAuthStore = create<AuthState>()((set, get) => {
  /** Counts sign-outs, so an answer that arrives after one cannot bring the session back. */
  let generation = 0;
  /** The sign-out request still running, if any. */
  let signingOut: Promise<void> | null = null;
  /** When this tab last got an access token (sign-in or refresh). */
  let lastGrantAt = 0;

  const establish = (token: string, user: SessionUser, remember: boolean) => {
    writeStoredSession(token, user, remember);
    set({ status: 'authenticated', user, token, remember, signedOut: false, notice: null });
    lastGrantAt = Date.now();
  };

  const clear = () => {
    generation += 1;
    clearStoredSession();
    set({ status: 'anonymous', user: null, token: null, remember: false, signedOut: false });
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
    } catch (error) {
      if (generation === started) {
        const wasSignedIn = get().status === 'authenticated';
        clear();
        // The server ended a working session (the account was deactivated or deleted, its password
        // changed elsewhere, or it lapsed): the sign-in page says so instead of appearing unasked,
        // and says what to do when the clinic now requires a second factor.
        // The latter is said to a new tab of the session too: it is why that tab is not signed in.
        const mfaNowRequired = error instanceof Error && error.message === MFA_NOW_REQUIRED_MESSAGE;
        if (mfaNowRequired) set({ notice: MFA_NOW_REQUIRED_MESSAGE });
        else if (wasSignedIn) set({ notice: SESSION_ENDED_NOTICE });
      }
      return null;
    }
  };

  setUnauthorizedHandler(refreshSession);

  return {
    status: 'loading',
    user: null,
    token: null,
    remember: false,
    signedOut: false,
    notice: null,

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
      // The sign-out answer clears the refresh cookie: a sign-in sent before it arrived could have its
      // new cookie wiped by it, so a sign-in right after a sign-out waits for that answer first.
      await signingOut;
      const answer = await authApi.login(username, password, remember);
      if (answer.kind !== 'signedIn') return answer;
      establish(answer.grant.token, answer.grant.user, remember);
      return { kind: 'signedIn', user: answer.grant.user };
    },

    async choosePassword(mfaToken, newPassword, remember) {
      const answer = await authApi.choosePassword(mfaToken, newPassword);
      if (answer.kind !== 'signedIn') return answer;
      establish(answer.grant.token, answer.grant.user, remember);
      return { kind: 'signedIn', user: answer.grant.user };
    },

    async verifySecondFactor(mfaToken, proof, remember) {
      const grant = await authApi.verifySecondFactor(mfaToken, proof);
      establish(grant.token, grant.user, remember);
      return grant.user;
    },

    finishEnrolment(grant, remember) {
      establish(grant.token, grant.user, remember);
    },

    logout() {
      // The request carries the refresh cookie the server revokes; the session here ends at once,
      // without waiting for the server (the app leaves for /login right away), and logout errors are
      // ignored (docs/product.md, Statuses and how they change).
      const ended: Promise<void> = authApi.logout().then(
        () => undefined,
        () => undefined,
      );
      signingOut = ended;
      void ended.then(() => {
        if (signingOut === ended) signingOut = null;
      });
      clear();
      set({ signedOut: true });
      return ended;
    },

    clear,

    async changePassword(currentPassword, newPassword) {
      const grant = await authApi.changePassword(currentPassword, newPassword);
      establish(grant.token, grant.user, get().remember);
    },

    async signOutIdle(notice) {
      const ended = get().logout();
      set({ signedOut: false, notice });
      await ended;
    },

    async keepAlive() {
      // At most every five minutes (the server allows a session an access token's life of silence beyond
      // the idle time), and only for a signed-in tab.
      if (get().status !== 'authenticated' || Date.now() - lastGrantAt < KEEP_ALIVE_MS) return;
      lastGrantAt = Date.now();
      await refreshSession();
    },
  };
});
