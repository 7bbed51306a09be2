import {
  AUTH_URLS,
  apiRequest,
  type FactorChangeRequest,
  type FactorStatus,
  type SignedInSession,
} from '@dental/shared';
import { follows, queryOptions, useQuery } from '@dental/shared/kit';

/**
 * Settings → Security, your own: your second factor and your signed-in sessions. Setting a factor up
 * (its key and first code) goes through the shared authApi, which the sign-in's enrolment uses too.
 */

export const securityKeys = {
  factor: ['security', 'factor'] as const,
  sessions: ['security', 'sessions'] as const,
};

export function getFactorStatus(): Promise<FactorStatus> {
  return apiRequest({ method: 'GET', url: AUTH_URLS.mfa }, 'Your two-step sign-in could not be loaded.');
}

/** Your own factor and sessions change only by your hand here: no other desk's change is followed. */
const FOLLOWS_NOTHING = follows();

export const factorStatusQuery = () =>
  queryOptions({ queryKey: securityKeys.factor, queryFn: getFactorStatus, meta: FOLLOWS_NOTHING });

export const useFactorStatus = () => useQuery(factorStatusQuery());

/** Turns your authenticator off: your password and a code (or a recovery code). */
export function turnOffTotp(request: FactorChangeRequest): Promise<{ message: string }> {
  return apiRequest(
    { method: 'DELETE', url: AUTH_URLS.totp, data: request },
    'Two-step sign-in could not be turned off.',
  );
}

/** New recovery codes (the old ones stop working): your password and a code. */
export function renewRecoveryCodes(request: FactorChangeRequest): Promise<{ recovery_codes: string[] }> {
  return apiRequest(
    { method: 'POST', url: AUTH_URLS.recoveryCodes, data: request },
    'New recovery codes could not be made.',
  );
}

export async function listSessions(): Promise<SignedInSession[]> {
  const body = await apiRequest<{ data: SignedInSession[] }>(
    { method: 'GET', url: AUTH_URLS.sessions },
    'Your sessions could not be loaded.',
  );
  return body.data;
}

export const sessionsQuery = () =>
  queryOptions({ queryKey: securityKeys.sessions, queryFn: listSessions, meta: FOLLOWS_NOTHING });

export const useSessions = () => useQuery(sessionsQuery());

/** Signs one of your other sessions out. */
export function endSession(id: string): Promise<{ message: string }> {
  return apiRequest({ method: 'DELETE', url: AUTH_URLS.session(id) }, 'The session could not be signed out.');
}

/** Signs all your other sessions out; this one stays. */
export function endOtherSessions(): Promise<{ message: string; ended: number }> {
  return apiRequest(
    { method: 'DELETE', url: AUTH_URLS.sessions },
    'Your other sessions could not be signed out.',
  );
}
