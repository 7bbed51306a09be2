import {
  type AvailabilityFillRequest,
  type AvailabilityFillResult,
  type AvailabilityListQuery,
  type AvailabilityPage,
  type AvailabilityWriteRequest,
  apiRequest,
  availabilityQueries,
  ERROR_MESSAGES,
  ifMatch,
  type SlotUpdate,
  type WireAvailability,
} from '@dental/shared';
import { follows, keepPreviousData, type QueryClient, queryOptions, useQuery } from '@dental/shared/kit';

/** The Availability screen's calls (docs/product.md, API calls: Availability), each typed with the shared schemas. */

export type AvailabilityListParams = Partial<
  Pick<AvailabilityListQuery, 'page' | 'limit' | 'dentist_id' | 'date' | 'from' | 'sort'>
>;

/** What other desks change that these reads show: the shell invalidates them on those changes. */
const AVAILABILITY_FOLLOW = follows('availability', 'dentist', 'appointment', 'settings');

export const availabilityKeys = {
  // Under the shared availability key, which a visit booked or moved in any module invalidates.
  all: availabilityQueries.key,
  list: (params: AvailabilityListParams) => [...availabilityQueries.key, 'list', params] as const,
};

export function getAvailability(params: AvailabilityListParams): Promise<AvailabilityPage> {
  return apiRequest({ method: 'GET', url: '/api/availability', params }, ERROR_MESSAGES.fetchAvailability);
}

export function createAvailability(body: AvailabilityWriteRequest): Promise<WireAvailability> {
  return apiRequest(
    { method: 'POST', url: '/api/availability', data: body },
    ERROR_MESSAGES.createAvailability,
  );
}

export function getAvailabilityDay(id: number): Promise<WireAvailability> {
  return apiRequest({ method: 'GET', url: `/api/availability/${id}` }, ERROR_MESSAGES.fetchAvailability);
}

/** Saves the day as shown at `version` (If-Match): a newer one meanwhile is refused with 412. */
export function updateAvailability(
  id: number,
  body: AvailabilityWriteRequest,
  version?: number,
): Promise<WireAvailability> {
  return apiRequest(
    { method: 'PUT', url: `/api/availability/${id}`, data: body, headers: ifMatch(version) },
    ERROR_MESSAGES.updateAvailability,
  );
}

export function deleteAvailability(id: number, version?: number): Promise<{ message: string }> {
  return apiRequest(
    { method: 'DELETE', url: `/api/availability/${id}`, headers: ifMatch(version) },
    ERROR_MESSAGES.deleteAvailability,
  );
}

/** Opens or closes one slot of a day as shown at `version`; answers the whole day. */
export function updateSlot(id: number, slot: SlotUpdate, version?: number): Promise<WireAvailability> {
  return apiRequest(
    { method: 'PATCH', url: `/api/availability/${id}/slot`, data: slot, headers: ifMatch(version) },
    ERROR_MESSAGES.updateTimeSlot,
  );
}

/** Gives a dentist's working days of a range their slots at once; days already set are kept. */
export function fillAvailability(body: AvailabilityFillRequest): Promise<AvailabilityFillResult> {
  return apiRequest(
    { method: 'POST', url: '/api/availability/fill', data: body },
    ERROR_MESSAGES.createAvailability,
  );
}

/** After a write: every list of days, and the booking form's view of a dentist's day. */
export function refreshAvailability(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: availabilityKeys.all });
}

/** One page of days; the previous page stays on screen while the next loads. */
export const availabilityQuery = (params: AvailabilityListParams) =>
  queryOptions({
    queryKey: availabilityKeys.list(params),
    meta: AVAILABILITY_FOLLOW,
    queryFn: () => getAvailability(params),
    placeholderData: keepPreviousData,
  });

export function useAvailability(params: AvailabilityListParams) {
  return useQuery(availabilityQuery(params));
}
