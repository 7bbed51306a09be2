import {
  apiRequest,
  CLIENT_ERRORS_URL,
  type ClientErrorCounts,
  type ClientErrorReport,
  ERROR_MESSAGES,
  type ModuleEntry,
  type ModuleId,
  type ModuleReleasesAnswer,
} from '@dental/shared';
import { firstRead } from '../layout/earlyReads';

export async function fetchEnabledModules(): Promise<ModuleEntry[]> {
  const body = await firstRead<{ data: ModuleEntry[] }>('modules', ERROR_MESSAGES.fetchModules);
  return body.data;
}

/** Every module with its on/off switch for the clinic (admin only). */
export async function fetchAllModules(): Promise<ModuleEntry[]> {
  const body = await apiRequest<{ data: ModuleEntry[] }>(
    { method: 'GET', url: '/api/modules', params: { all: true } },
    ERROR_MESSAGES.fetchModules,
  );
  return body.data;
}

export async function setModuleEnabled(id: ModuleId, enabled: boolean): Promise<ModuleEntry> {
  return apiRequest<ModuleEntry>(
    { method: 'PUT', url: `/api/modules/${id}`, data: { enabled } },
    ERROR_MESSAGES.updateModule,
  );
}

/** A module's releases, the one this clinic runs and their history (admin only). */
export async function fetchModuleReleases(id: ModuleId): Promise<ModuleReleasesAnswer> {
  return apiRequest<ModuleReleasesAnswer>(
    { method: 'GET', url: `/api/modules/${id}/releases` },
    ERROR_MESSAGES.fetchModuleReleases,
  );
}

/** Each module's failures in this clinic's browsers over the last day (admin only). */
export async function fetchModuleFailures(): Promise<ClientErrorCounts> {
  return apiRequest<ClientErrorCounts>(
    { method: 'GET', url: CLIENT_ERRORS_URL },
    ERROR_MESSAGES.fetchModules,
  );
}

/** What went wrong reported once a page load: nobody watches a browser's console at the desk. */
const reported = new Set<string>();
export function reportModuleFailure(report: ClientErrorReport): void {
  const key = `${report.module}|${report.phase}|${report.message}`;
  if (reported.has(key)) return;
  reported.add(key);
  // A report that cannot be sent (the server away, the limit reached) is let go: the area says it all.
  apiRequest(
    { method: 'POST', url: CLIENT_ERRORS_URL, data: { ...report, message: report.message.slice(0, 500) } },
    '',
  ).catch(() => {});
}
