import {
  apiRequest,
  ERROR_MESSAGES,
  type ModuleEntry,
  type ModuleId,
  type ModuleReleasesAnswer,
} from '@dental/shared';

export async function fetchEnabledModules(): Promise<ModuleEntry[]> {
  const body = await apiRequest<{ data: ModuleEntry[] }>(
    { method: 'GET', url: '/api/modules' },
    ERROR_MESSAGES.fetchModules,
  );
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
