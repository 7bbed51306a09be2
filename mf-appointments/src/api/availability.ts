import { type AvailabilityPage, apiRequest, ERROR_MESSAGES } from '@dental/shared';
import { useQuery } from '@dental/shared/kit';

/** A dentist's availability on one day (GET /api/availability/dentist/:id?date=…): its slots. */

export const availabilityKeys = {
  day: (dentistId: number, date: string) => ['availability', 'dentist', dentistId, { date }] as const,
};

export function getDentistDay(dentistId: number, date: string): Promise<AvailabilityPage> {
  return apiRequest(
    { method: 'GET', url: `/api/availability/dentist/${dentistId}`, params: { date } },
    ERROR_MESSAGES.fetchDentistAvailability,
  );
}

/** The day's availability of a dentist, once both are chosen; none when either is missing. */
export function useDentistDay(dentistId: number | null, date: string | null) {
  return useQuery({
    queryKey: availabilityKeys.day(dentistId ?? 0, date ?? ''),
    queryFn: () => getDentistDay(dentistId ?? 0, date ?? ''),
    enabled: dentistId !== null && date !== null,
  });
}
