import {
  apiRequest,
  type DentistPage,
  ERROR_MESSAGES,
  PAGE_LIMIT_MAX,
  type UserCreateRequest,
  type UserListQuery,
  type UserPage,
  type UserUpdateRequest,
  type WireUser,
} from '@dental/shared';
import { keepPreviousData, useQuery } from '@dental/shared/kit';

/** The Users screen's calls (spec §7 Users), each typed with the shared schemas. */

type UserListParams = Partial<Pick<UserListQuery, 'page' | 'limit' | 'search' | 'role' | 'status' | 'sort'>>;

export const userKeys = {
  all: ['users'] as const,
  list: (params: UserListParams) => ['users', 'list', params] as const,
  dentists: ['dentists', 'list', { limit: PAGE_LIMIT_MAX, sort: 'name' }] as const,
};

export function getUsers(params: UserListParams): Promise<UserPage> {
  return apiRequest({ method: 'GET', url: '/api/users', params }, ERROR_MESSAGES.fetchUsers);
}

export function createUser(body: UserCreateRequest): Promise<WireUser> {
  return apiRequest({ method: 'POST', url: '/api/users', data: body }, ERROR_MESSAGES.createUser);
}

export function updateUser(id: number, body: UserUpdateRequest): Promise<WireUser> {
  return apiRequest({ method: 'PUT', url: `/api/users/${id}`, data: body }, ERROR_MESSAGES.updateUser);
}

export function setUserStatus(id: number, isActive: boolean): Promise<WireUser> {
  return apiRequest(
    { method: 'PATCH', url: `/api/users/${id}/status`, data: { isActive } },
    ERROR_MESSAGES.updateUserStatus,
  );
}

export function deleteUser(id: number): Promise<{ message: string }> {
  return apiRequest({ method: 'DELETE', url: `/api/users/${id}` }, ERROR_MESSAGES.deleteUser);
}

export function getDentistChoices(): Promise<DentistPage> {
  return apiRequest(
    { method: 'GET', url: '/api/dentists', params: { limit: PAGE_LIMIT_MAX, sort: 'name' } },
    ERROR_MESSAGES.fetchDentists,
  );
}

/** One page of the clinic's users; the previous page stays on screen while the next loads. */
export function useUsers(params: UserListParams) {
  return useQuery({
    queryKey: userKeys.list(params),
    queryFn: () => getUsers(params),
    placeholderData: keepPreviousData,
  });
}

/** The clinic's dentists, for linking a dentist account to its record. */
export function useDentistChoices() {
  return useQuery({ queryKey: userKeys.dentists, queryFn: getDentistChoices, staleTime: 60_000 });
}
