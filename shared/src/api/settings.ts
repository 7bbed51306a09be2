import { queryOptions } from '@tanstack/react-query';
import type { PracticeSettings } from '../domain';
import { follows } from '../kit/follows';
import { apiRequest, ERROR_MESSAGES } from './client';

export function getSettings(): Promise<PracticeSettings> {
  return apiRequest({ method: 'GET', url: '/api/settings' }, ERROR_MESSAGES.fetchSettings);
}

/**
 * The practice settings (docs/product.md, Settings), read by the Settings screen, the booking form
 * (each treatment's length) and the shell (the idle sign-out): one cache entry, so a save applies
 * everywhere at once.
 */
export const settingsQueries = {
  key: ['settings'] as const,
  practice: () =>
    queryOptions({
      queryKey: settingsQueries.key,
      queryFn: getSettings,
      meta: follows('settings'),
    }),
};
