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
  type WireOutboxMessage,
} from '@dental/shared';
import { follows, keepPreviousData, useQuery } from '@dental/shared/kit';

/** The Settings screen's calls: practice settings (spec §3) and the clinic's backup. */

/** What other desks change that these reads show: the shell invalidates them on those changes. */
const SETTINGS_FOLLOW = follows('settings');
/** A booking, a cancellation or a patient's contact changes the messages due; the sender works too. */
const OUTBOX_FOLLOW = follows('outbox', 'appointment', 'patient');

export const settingsKeys = {
  // The shell reads the same key for the idle sign-out time: a save applies there at once.
  settings: ['settings'] as const,
  backup: ['backup'] as const,
};

export function getSettings(): Promise<PracticeSettings> {
  return apiRequest({ method: 'GET', url: '/api/settings' }, ERROR_MESSAGES.fetchSettings);
}

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
  return useQuery({ queryKey: settingsKeys.settings, queryFn: getSettings, meta: SETTINGS_FOLLOW });
}

export function useBackupStatus() {
  // An import comes with a resync (every read again); nothing else another desk does shows here.
  return useQuery({ queryKey: settingsKeys.backup, queryFn: getBackupStatus, meta: follows() });
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

export function useOutbox(params: { page: number; state?: OutboxState }, enabled: boolean) {
  return useQuery({
    queryKey: outboxKeys.list(params),
    queryFn: () => getOutbox(params),
    enabled,
    placeholderData: keepPreviousData,
    // The sender works in the background: its sending is announced like any change, nothing polls.
    meta: OUTBOX_FOLLOW,
  });
}
