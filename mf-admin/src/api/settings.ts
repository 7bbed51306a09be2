import {
  apiRequest,
  type BackupStatus,
  type ClinicExport,
  ERROR_MESSAGES,
  type OutboxPage,
  type OutboxState,
  type PracticeSettings,
  type PracticeSettingsUpdateRequest,
  type WireOutboxMessage,
} from '@dental/shared';
import { keepPreviousData, useQuery } from '@dental/shared/kit';

/** The Settings screen's calls: practice settings (spec §3) and the clinic's backup. */

export const settingsKeys = {
  // The shell reads the same key for the idle sign-out time: a save applies there at once.
  settings: ['settings'] as const,
  backup: ['backup'] as const,
};

export function getSettings(): Promise<PracticeSettings> {
  return apiRequest({ method: 'GET', url: '/api/settings' }, ERROR_MESSAGES.fetchSettings);
}

export function saveSettings(body: PracticeSettingsUpdateRequest): Promise<PracticeSettings> {
  return apiRequest({ method: 'PUT', url: '/api/settings', data: body }, ERROR_MESSAGES.updateSettings);
}

export function getBackupStatus(): Promise<BackupStatus> {
  return apiRequest({ method: 'GET', url: '/api/backup' }, ERROR_MESSAGES.fetchBackup);
}

export function exportClinicData(): Promise<ClinicExport> {
  return apiRequest({ method: 'GET', url: '/api/backup/export' }, ERROR_MESSAGES.exportBackup);
}

export function useSettings() {
  return useQuery({ queryKey: settingsKeys.settings, queryFn: getSettings });
}

export function useBackupStatus() {
  return useQuery({ queryKey: settingsKeys.backup, queryFn: getBackupStatus });
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
    // The sender works in the background: what is pending now is sent in a minute.
    refetchInterval: 15_000,
  });
}
