import { DEFAULT_TREATMENT_MINUTES, settingsQueries, type TreatmentMinutes } from '@dental/shared';
import { useQuery } from '@dental/shared/kit';

/** Each treatment's length from Settings; the defaults until they are read (or if they cannot be). */
export function useTreatmentMinutes(): TreatmentMinutes {
  const settings = useQuery(settingsQueries.practice());
  return settings.data?.treatmentMinutes ?? DEFAULT_TREATMENT_MINUTES;
}
