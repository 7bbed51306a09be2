import { z } from 'zod';
import { ApiError, apiRequest } from '../api/client';
import {
  AUTH_URLS,
  mfaChallengeSchema,
  recoveryCodesSchema,
  type SessionUser,
  type TotpSetup,
  type TotpSetupRequest,
  toSessionUser,
  totpSetupSchema,
  wireUserSchema,
} from '../domain/auth';
import { ERROR_MESSAGES } from '../domain/errors';

/** Login and refresh answer `access_token` (or, from older servers, `token`) and the user (docs/product.md, Records and their fields). */
const sessionAnswerSchema = z.union([
  z.object({ access_token: z.string().min(1), user: wireUserSchema }),
  z.object({ token: z.string().min(1), user: wireUserSchema }),
]);

export interface SessionGrant {
  token: string;
  user: SessionUser;
}

function toGrant(body: unknown, fallback: string): SessionGrant {
  const parsed = sessionAnswerSchema.safeParse(body);
  // An answer of an unexpected shape is a failure, never a made-up session.
  if (!parsed.success) throw new ApiError(fallback);
  const token = 'access_token' in parsed.data ? parsed.data.access_token : parsed.data.token;
  return { token, user: toSessionUser(parsed.data.user) };
}

/**
 * What the password step answers: a session, or a second step first, a code from the user's
 * authenticator (`code`) or setting one up because the clinic requires it (`enrol`); `mfaToken`
 * opens that step alone, for a few minutes.
 */
export type SignInAnswer =
  | { kind: 'signedIn'; grant: SessionGrant }
  | { kind: 'code' | 'enrol' | 'password'; mfaToken: string };

/** A sign-in step's answer: a session, or the next step with the token that opens it. */
function signInAnswerOf(body: unknown, fallback: string): SignInAnswer {
  const challenge = mfaChallengeSchema.safeParse(body);
  if (challenge.success) {
    const { data } = challenge;
    const kind = 'mfa_required' in data ? 'code' : 'mfa_enrollment_required' in data ? 'enrol' : 'password';
    return { kind, mfaToken: data.mfa_token };
  }
  return { kind: 'signedIn', grant: toGrant(body, fallback) };
}

/** A code from the authenticator app, or one of the recovery codes. */
export type SecondFactorProof = { code: string } | { recovery_code: string };

/** The factor's first code confirmed: the recovery codes, shown once, and at enrolment the session. */
export interface TotpEnabled {
  recoveryCodes: string[];
  grant: SessionGrant | null;
}

const SECOND_STEP_FAILED = 'The code could not be checked. Please try again.';
const CHOOSE_PASSWORD_FAILED = 'Your password could not be saved. Please try again.';
const SETUP_FAILED = 'Two-step sign-in could not be set up. Please try again.';

/** The sign-in's enrolment token stands in for the access token on its two calls. */
const bearer = (token: string | undefined) =>
  token ? { headers: { Authorization: `Bearer ${token}` } } : {};

export const authApi = {
  async login(username: string, password: string, remember: boolean): Promise<SignInAnswer> {
    const body = await apiRequest<unknown>(
      { method: 'POST', url: '/auth/login', data: { username, password, remember } },
      ERROR_MESSAGES.login,
    );
    return signInAnswerOf(body, ERROR_MESSAGES.login);
  },

  /**
   * The account's own password, when the one it signed in with was chosen by someone else (an
   * imported clinic's one-time password): then the sign-in goes on.
   */
  async choosePassword(mfaToken: string, newPassword: string): Promise<SignInAnswer> {
    const body = await apiRequest<unknown>(
      {
        method: 'POST',
        url: AUTH_URLS.choosePassword,
        data: { mfa_token: mfaToken, new_password: newPassword },
      },
      CHOOSE_PASSWORD_FAILED,
    );
    return signInAnswerOf(body, CHOOSE_PASSWORD_FAILED);
  },

  /** The sign-in's second step: a code (or a recovery code) with the password step's token. */
  async verifySecondFactor(mfaToken: string, proof: SecondFactorProof): Promise<SessionGrant> {
    const body = await apiRequest<unknown>(
      { method: 'POST', url: AUTH_URLS.mfaVerify, data: { mfa_token: mfaToken, ...proof } },
      SECOND_STEP_FAILED,
    );
    return toGrant(body, SECOND_STEP_FAILED);
  },

  /**
   * A new authenticator key. Signed in: with the password (and a code when a factor is on); at the
   * sign-in's enrolment step: with its token and nothing else.
   */
  async startTotpSetup(request: TotpSetupRequest, enrolmentToken?: string): Promise<TotpSetup> {
    const body = await apiRequest<unknown>(
      { method: 'POST', url: AUTH_URLS.totpSetup, data: request, ...bearer(enrolmentToken) },
      SETUP_FAILED,
    );
    const parsed = totpSetupSchema.safeParse(body);
    if (!parsed.success) throw new ApiError(SETUP_FAILED);
    return parsed.data;
  },

  /** Confirms the new key with its first code; at enrolment the answer also holds the session. */
  async enableTotp(code: string, options: { endOtherSessions?: boolean; enrolmentToken?: string } = {}) {
    const body = await apiRequest<unknown>(
      {
        method: 'POST',
        url: AUTH_URLS.totpEnable,
        data: { code, end_other_sessions: options.endOtherSessions ?? false },
        ...bearer(options.enrolmentToken),
      },
      SETUP_FAILED,
    );
    const parsed = recoveryCodesSchema.safeParse(body);
    if (!parsed.success) throw new ApiError(SETUP_FAILED);
    const enabled: TotpEnabled = {
      recoveryCodes: parsed.data.recovery_codes,
      grant: options.enrolmentToken ? toGrant(body, SETUP_FAILED) : null,
    };
    return enabled;
  },

  async refresh(): Promise<SessionGrant> {
    const body = await apiRequest<unknown>({ method: 'POST', url: '/auth/refresh' }, ERROR_MESSAGES.refresh);
    return toGrant(body, ERROR_MESSAGES.refresh);
  },

  async me(): Promise<SessionUser> {
    const body = await apiRequest<unknown>({ method: 'GET', url: '/auth/me' }, ERROR_MESSAGES.profile);
    const parsed = z.object({ user: wireUserSchema }).safeParse(body);
    if (!parsed.success) throw new ApiError(ERROR_MESSAGES.profile);
    return toSessionUser(parsed.data.user);
  },

  /** Your own password; the answer carries this session's new token (the others have ended). */
  async changePassword(currentPassword: string, newPassword: string): Promise<SessionGrant> {
    const body = await apiRequest<unknown>(
      {
        method: 'POST',
        url: '/auth/change-password',
        data: { current_password: currentPassword, new_password: newPassword },
      },
      ERROR_MESSAGES.changePassword,
    );
    return toGrant(body, ERROR_MESSAGES.changePassword);
  },

  async logout(): Promise<void> {
    await apiRequest<unknown>({ method: 'POST', url: '/auth/logout' }, 'Logout failed');
  },
};
