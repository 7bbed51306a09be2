import {
  apiRequest,
  BOOKING_REQUESTS_URL,
  type BookingRequest,
  type BookingRequestsPage,
  type BookingRequestsQuery,
} from '@dental/shared';
import { follows, keepPreviousData, queryOptions, useQuery } from '@dental/shared/kit';

/** The Requests screen's calls (shared/src/domain/bookingRequests.ts). */

export type RequestsListParams = Required<Pick<BookingRequestsQuery, 'state'>> & {
  page: number;
  limit: number;
};

/** A request changes with its own actions, and with the visit and patients it names. */
const REQUESTS_FOLLOW = follows('booking_request', 'appointment', 'patient');

export const bookingRequestKeys = {
  all: ['booking-requests'] as const,
  list: (params: RequestsListParams) => ['booking-requests', 'list', params] as const,
};

export function getBookingRequests(params: RequestsListParams): Promise<BookingRequestsPage> {
  return apiRequest({ method: 'GET', url: BOOKING_REQUESTS_URL, params }, 'Failed to fetch the requests');
}

export function linkBookingRequest(id: number, patientId: number): Promise<BookingRequest> {
  return apiRequest(
    { method: 'POST', url: `${BOOKING_REQUESTS_URL}/${id}/link`, data: { patient_id: patientId } },
    'Failed to link the visit to the patient',
  );
}

export function keepAsNewPatient(id: number): Promise<BookingRequest> {
  return apiRequest(
    { method: 'POST', url: `${BOOKING_REQUESTS_URL}/${id}/new-patient` },
    'Failed to close the request',
  );
}

export function markCalledBack(id: number): Promise<BookingRequest> {
  return apiRequest(
    { method: 'POST', url: `${BOOKING_REQUESTS_URL}/${id}/called-back` },
    'Failed to close the request',
  );
}

export function markFreedTimeDone(id: number): Promise<BookingRequest> {
  return apiRequest(
    { method: 'POST', url: `${BOOKING_REQUESTS_URL}/${id}/done` },
    'Failed to close the request',
  );
}

/** One page of the requests in a state, newest first; the previous page stays while the next loads. */
export const bookingRequestsQuery = (params: RequestsListParams) =>
  queryOptions({
    queryKey: bookingRequestKeys.list(params),
    meta: REQUESTS_FOLLOW,
    queryFn: () => getBookingRequests(params),
    placeholderData: keepPreviousData,
  });

export function useBookingRequests(params: RequestsListParams) {
  return useQuery(bookingRequestsQuery(params));
}
