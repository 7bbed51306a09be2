import { apiRequest, ERROR_MESSAGES, type FreeTimes } from '@dental/shared';
import { follows, keepPreviousData, useQuery } from '@dental/shared/kit';

/** The times a dentist can still take a visit of some length on a day (GET /api/dentists/:id/free-times). */

export interface FreeTimesAsked {
  dentistId: number;
  date: string;
  duration: number;
  /** A visit being edited: its own time counts as free. */
  exceptId?: number;
  /** The patient's other visits are not offered over. */
  patientId?: number;
}

/** Free times change with any visit, the dentist's days, availability and the practice's hours. */
const FREE_TIMES_FOLLOW = follows('appointment', 'dentist', 'availability', 'settings');

export const freeTimesKeys = {
  all: ['free-times'] as const,
  of: (asked: FreeTimesAsked) => ['free-times', asked] as const,
};

export function getFreeTimes({
  dentistId,
  date,
  duration,
  exceptId,
  patientId,
}: FreeTimesAsked): Promise<FreeTimes> {
  return apiRequest(
    {
      method: 'GET',
      url: `/api/dentists/${dentistId}/free-times`,
      params: { date, duration, except_id: exceptId, patient_id: patientId },
    },
    ERROR_MESSAGES.fetchFreeTimes,
  );
}

/** The free times once dentist, day and length are chosen; none while any is missing. */
export function useFreeTimes(asked: FreeTimesAsked | null) {
  return useQuery({
    queryKey: freeTimesKeys.of(asked ?? { dentistId: 0, date: '', duration: 0 }),
    meta: FREE_TIMES_FOLLOW,
    queryFn: () => getFreeTimes(asked as FreeTimesAsked),
    enabled: asked !== null,
    // A change of length keeps the last answer on screen until the new one comes.
    placeholderData: keepPreviousData,
  });
}
