import { z } from 'zod';
import { ApiError, apiRequest } from '../api/client';
import { ERROR_MESSAGES, type SessionUser, toSessionUser, wireUserSchema } from '../domain';

/** Login and refresh answer `access_token` (or, from older servers, `token`) and the user (spec §3). */
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

export const authApi = {
  async login(username: string, password: string, remember: boolean): Promise<SessionGrant> {
    const body = await apiRequest<unknown>(
      { method: 'POST', url: '/auth/login', data: { username, password, remember } },
      ERROR_MESSAGES.login,
    );
    return toGrant(body, ERROR_MESSAGES.login);
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
