import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { FreeTimes } from '../domain';
import { follows } from '../kit/follows';
import { apiRequest, ERROR_MESSAGES } from './client';

/** What a dentist's free times are asked for (GET /api/dentists/:id/free-times). */
export interface FreeTimesAsked {
  dentistId: number;
  date: string;
  duration: number;
  /** A visit being edited: its own time counts as free. */
  exceptId?: number;
  /** The patient's other visits are not offered over. */
  patientId?: number;
  /** The treatment, whose dentist part (Settings) is the dentist's time in the visit. */
  treatment?: string;
  /** Only starts where this chair is free. */
  chairId?: number;
}

export function getFreeTimes({
  dentistId,
  date,
  duration,
  exceptId,
  patientId,
  treatment,
  chairId,
}: FreeTimesAsked): Promise<FreeTimes> {
  return apiRequest(
    {
      method: 'GET',
      url: `/api/dentists/${dentistId}/free-times`,
      // Only what is asked: an absent filter is not sent.
      params: Object.fromEntries(
        Object.entries({
          date,
          duration,
          except_id: exceptId,
          patient_id: patientId,
          treatment,
          chair_id: chairId,
        }).filter(([, value]) => value !== undefined),
      ),
    },
    ERROR_MESSAGES.fetchFreeTimes,
  );
}

/** The free times of a dentist's day and its open hours: the booking form's times, the calendar's shading. */
export const freeTimesQueries = {
  key: ['free-times'] as const,
  /** Nothing is asked while any of dentist, day and length is missing (`null`). */
  of: (asked: FreeTimesAsked | null) =>
    queryOptions({
      queryKey: [...freeTimesQueries.key, asked ?? { dentistId: 0, date: '', duration: 0 }] as const,
      queryFn: () => getFreeTimes(asked ?? { dentistId: 0, date: '', duration: 0 }),
      enabled: asked !== null,
      // Free times change with any visit, the dentist's days, availability, the practice's hours and chairs.
      meta: follows('appointment', 'dentist', 'availability', 'settings', 'chair'),
      // A change of length keeps the last answer on screen until the new one comes.
      placeholderData: keepPreviousData,
    }),
};
