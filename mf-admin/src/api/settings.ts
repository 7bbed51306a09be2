import {
  apiRequest,
  type BackupStatus,
  type ClinicExport,
  ERROR_MESSAGES,
  ifMatch,
  type OutboxPage,
  type OutboxState,
  type PracticeSettings,
  type PracticeSettingsUpdateRequest,
  settingsQueries,
  type WireOutboxMessage,
} from '@dental/shared';
import { follows, keepPreviousData, queryOptions, useQuery } from '@dental/shared/kit';

/** The Settings screen's calls: practice settings (docs/product.md, Records and their fields) and the clinic's backup. */

/** A booking, a cancellation or a patient's contact changes the messages due; the sender works too. */
const OUTBOX_FOLLOW = follows('outbox', 'appointment', 'patient');

export const settingsKeys = {
  // The shared settings read: the shell's idle sign-out and the booking form's lengths follow a save.
  settings: settingsQueries.key,
  backup: ['backup'] as const,
};

export { getSettings } from '@dental/shared';

/** Saves the settings as shown at `version` (If-Match): a newer one meanwhile is refused with 412. */
export function saveSettings(
  body: PracticeSettingsUpdateRequest,
  version?: number,
): Promise<PracticeSettings> {
  return apiRequest(
    { method: 'PUT', url: '/api/settings', data: body, headers: ifMatch(version) },
    ERROR_MESSAGES.updateSettings,
  );
}

export function getBackupStatus(): Promise<BackupStatus> {
  return apiRequest({ method: 'GET', url: '/api/backup' }, ERROR_MESSAGES.fetchBackup);
}

export function exportClinicData(): Promise<ClinicExport> {
  return apiRequest({ method: 'GET', url: '/api/backup/export' }, ERROR_MESSAGES.exportBackup);
}

export function useSettings() {
  return useQuery(settingsQueries.practice());
}

// An import comes with a resync (every read again); nothing else another desk does shows here.
export const backupStatusQuery = () =>
  queryOptions({ queryKey: settingsKeys.backup, queryFn: getBackupStatus, meta: follows() });

export function useBackupStatus() {
  return useQuery(backupStatusQuery());
}

export const outboxKeys = {
  all: ['outbox'] as const,
  list: (params: { page: number; state?: OutboxState }) => ['outbox', 'list', params] as const,
};

export function getOutbox(params: { page: number; state?: OutboxState }): Promise<OutboxPage> {
  return apiRequest(
    { method: 'GET', url: '/api/outbox', params: { ...params, limit: 10 } },
    ERROR_MESSAGES.fetchOutbox,
  );
}

export function retryMessage(id: number): Promise<WireOutboxMessage> {
  return apiRequest({ method: 'POST', url: `/api/outbox/${id}/retry` }, ERROR_MESSAGES.retryOutboxMessage);
}

export const outboxQuery = (params: { page: number; state?: OutboxState }) =>
  queryOptions({
    queryKey: outboxKeys.list(params),
    queryFn: () => getOutbox(params),
    placeholderData: keepPreviousData,
    // The sender works in the background: its sending is announced like any change, nothing polls.
    meta: OUTBOX_FOLLOW,
  });

export function useOutbox(params: { page: number; state?: OutboxState }, enabled: boolean) {
  return useQuery({ ...outboxQuery(params), enabled });
}
