import {
  AUDIT_CSV_URL,
  AUDIT_URL,
  AUDIT_VERIFY_URL,
  type AuditChainCheckAnswer,
  type AuditRecord,
  apiRequest,
  ERROR_MESSAGES,
  PAGE_LIMIT_MAX,
  type Page,
  type UserPage,
} from '@dental/shared';
import { follows, keepPreviousData, queryOptions, useQuery } from '@dental/shared/kit';
import { userKeys } from './users';

/** The Audit screen's calls (admins), each typed with the shared schemas. */

/** The filters of the audit log, as the server takes them. */
export interface AuditFilters {
  user_id?: number;
  patient_id?: number;
  action?: string;
  from?: string;
  to?: string;
}
export type AuditListParams = AuditFilters & { page?: number; limit?: number };
export type AuditPage = Page<AuditRecord> & { total_capped?: boolean };

/** The actions the audit log records (the action filter's choices). */
export { AUDIT_ACTIONS } from '@dental/shared';

const FAILED = {
  list: 'Failed to fetch the audit log',
  csv: 'Failed to download the audit log',
  verify: 'Failed to check the audit chain',
};

/**
 * The audit log follows no change of clinic data: every change writes a record, so following them
 * would read it again at each keystroke of every desk. Only a resync (the stream lost track) reads
 * again, as every screen does; Refresh and the filters read the newest.
 */
const AUDIT_FOLLOWS = follows();

const USER_CHOICE_PARAMS = { limit: PAGE_LIMIT_MAX, sort: 'name' } as const;

export const auditKeys = {
  all: ['audit'] as const,
  list: (params: AuditListParams) => ['audit', 'list', params] as const,
  // Under the users' key: an account added or renamed on the Users screen shows in the filter.
  users: userKeys.list(USER_CHOICE_PARAMS),
};

export function getAuditRecords(params: AuditListParams): Promise<AuditPage> {
  return apiRequest({ method: 'GET', url: AUDIT_URL, params }, FAILED.list);
}

/** Every record the filters show, as the server's CSV file. */
export async function downloadAuditCsv(filters: AuditFilters): Promise<Blob> {
  const file = await apiRequest<Blob | string>(
    { method: 'GET', url: AUDIT_CSV_URL, params: filters, responseType: 'blob' },
    FAILED.csv,
  );
  return file instanceof Blob ? file : new Blob([file], { type: 'text/csv;charset=utf-8' });
}

export function verifyAuditChain(): Promise<AuditChainCheckAnswer> {
  return apiRequest({ method: 'GET', url: AUDIT_VERIFY_URL }, FAILED.verify);
}

export function getUserChoices(): Promise<UserPage> {
  return apiRequest(
    { method: 'GET', url: '/api/users', params: USER_CHOICE_PARAMS },
    ERROR_MESSAGES.fetchUsers,
  );
}

/** One page of the audit log, newest first; the previous page stays on screen while the next loads. */
export const auditRecordsQuery = (params: AuditListParams) =>
  queryOptions({
    queryKey: auditKeys.list(params),
    queryFn: () => getAuditRecords(params),
    meta: AUDIT_FOLLOWS,
    placeholderData: keepPreviousData,
  });

export function useAuditRecords(params: AuditListParams) {
  return useQuery(auditRecordsQuery(params));
}

/** The clinic's users, for the User filter. */
export const userChoicesQuery = () =>
  queryOptions({
    queryKey: auditKeys.users,
    queryFn: getUserChoices,
    staleTime: 60_000,
    meta: follows('user'),
  });

export function useUserChoices() {
  return useQuery(userChoicesQuery());
}
