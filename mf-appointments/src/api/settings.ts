import {
  apiRequest,
  DEFAULT_TREATMENT_MINUTES,
  ERROR_MESSAGES,
  type PracticeSettings,
  type TreatmentMinutes,
} from '@dental/shared';
import { follows, useQuery } from '@dental/shared/kit';

/** The practice settings the booking form reads: each treatment's visit length. */

export function getSettings(): Promise<PracticeSettings> {
  return apiRequest({ method: 'GET', url: '/api/settings' }, ERROR_MESSAGES.fetchSettings);
}

/** Each treatment's length from Settings; the defaults until they are read (or if they cannot be). */
export function useTreatmentMinutes(): TreatmentMinutes {
  // The key the shell and the Settings screen read the settings under: a save shows here at once.
  const settings = useQuery({ queryKey: ['settings'], queryFn: getSettings, meta: follows('settings') });
  return settings.data?.treatmentMinutes ?? DEFAULT_TREATMENT_MINUTES;
}
