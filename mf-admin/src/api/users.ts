import {
  AUTH_URLS,
  apiRequest,
  dentistQueries,
  ERROR_MESSAGES,
  ifMatch,
  type UserCreateRequest,
  type UserListQuery,
  type UserPage,
  type UserUpdateRequest,
  type WireUser,
} from '@dental/shared';
import { follows, keepPreviousData, queryOptions, useQuery } from '@dental/shared/kit';

/** The Users screen's calls (docs/product.md, API calls: Users), each typed with the shared schemas. */

type UserListParams = Partial<Pick<UserListQuery, 'page' | 'limit' | 'search' | 'role' | 'status' | 'sort'>>;

/** What other desks change that these reads show: the shell invalidates them on those changes. */
const USERS_FOLLOW = follows('user', 'dentist');

export const userKeys = {
  all: ['users'] as const,
  list: (params: UserListParams) => ['users', 'list', params] as const,
};

export function getUsers(params: UserListParams): Promise<UserPage> {
  return apiRequest({ method: 'GET', url: '/api/users', params }, ERROR_MESSAGES.fetchUsers);
}

export function createUser(body: UserCreateRequest): Promise<WireUser> {
  return apiRequest({ method: 'POST', url: '/api/users', data: body }, ERROR_MESSAGES.createUser);
}

export function getUser(id: number): Promise<WireUser> {
  return apiRequest({ method: 'GET', url: `/api/users/${id}` }, ERROR_MESSAGES.fetchUser);
}

/** Saves the account as shown at `version` (If-Match): a newer one meanwhile is refused with 412. */
export function updateUser(id: number, body: UserUpdateRequest, version?: number): Promise<WireUser> {
  return apiRequest(
    { method: 'PUT', url: `/api/users/${id}`, data: body, headers: ifMatch(version) },
    ERROR_MESSAGES.updateUser,
  );
}

export function setUserStatus(id: number, isActive: boolean, version?: number): Promise<WireUser> {
  return apiRequest(
    { method: 'PATCH', url: `/api/users/${id}/status`, data: { isActive }, headers: ifMatch(version) },
    ERROR_MESSAGES.updateUserStatus,
  );
}

export function deleteUser(id: number, version?: number): Promise<{ message: string }> {
  return apiRequest(
    { method: 'DELETE', url: `/api/users/${id}`, headers: ifMatch(version) },
    ERROR_MESSAGES.deleteUser,
  );
}

/** What the server answers when an admin ends a user's sessions (`ended`: how many). */
export interface SessionsEnded {
  message: string;
  ended: number;
}

const SIGN_OUT_FAILED = 'Failed to sign the user out';
const RESET_FACTOR_FAILED = "Failed to reset the user's two-step sign-in";

/** Signs the user out everywhere: each of their sessions ends (their next call asks them to sign in). */
export function endUserSessions(id: number): Promise<SessionsEnded> {
  return apiRequest({ method: 'DELETE', url: AUTH_URLS.userSessions(id) }, SIGN_OUT_FAILED);
}

/**
 * Resets the user's two-step sign-in: their authenticator and recovery codes go and their sessions
 * end; they set it up again at their next sign-in when the clinic requires it.
 */
export function resetUserFactor(id: number): Promise<{ message: string }> {
  return apiRequest({ method: 'DELETE', url: AUTH_URLS.userFactor(id) }, RESET_FACTOR_FAILED);
}

/** One page of the clinic's users; the previous page stays on screen while the next loads. */
export const usersQuery = (params: UserListParams) =>
  queryOptions({
    queryKey: userKeys.list(params),
    meta: USERS_FOLLOW,
    queryFn: () => getUsers(params),
    placeholderData: keepPreviousData,
  });

export function useUsers(params: UserListParams) {
  return useQuery(usersQuery(params));
}

/** The clinic's dentists, for linking a dentist account to its record. */
export function useDentistChoices() {
  return useQuery(dentistQueries.choices());
}
