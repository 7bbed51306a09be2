import { AUDIT_URL, type AuditRecord, apiRequest, type Page, patientQueries } from '@dental/shared';
import { follows, queryOptions, useQuery } from '@dental/shared/kit';

/** How many of the latest openings the patient's details show; the Audit screen has the rest. */
export const PATIENT_ACCESS_SHOWN = 10;
const FETCH_ACCESS_FAILED = 'Failed to fetch who opened this record';

/** One patient's 'view' records (admins: the audit log), newest first: who opened the record, and when. */
export function getPatientAccess(patientId: number): Promise<Page<AuditRecord>> {
  return apiRequest(
    {
      method: 'GET',
      url: AUDIT_URL,
      params: { patient_id: patientId, action: 'view', limit: PATIENT_ACCESS_SHOWN, page: 1 },
    },
    FETCH_ACCESS_FAILED,
  );
}

export const patientAccessKey = (patientId: number) =>
  [...patientQueries.detailKey(patientId), 'access'] as const;

/**
 * Who last opened the patient's record. Used only where the signed-in user may open the Audit
 * screen (`useMayOpen('/audit')`): anyone else's request would be refused, and recorded as a
 * refusal. An opening is an audit record, not a live resource: it follows no clinic changes, and is
 * read afresh each time the record is opened (which is itself an opening).
 */
export const patientAccessQuery = (patientId: number) =>
  queryOptions({
    queryKey: patientAccessKey(patientId),
    queryFn: () => getPatientAccess(patientId),
    staleTime: 0,
    // A record opened is not announced to the desks (it changes nothing): read afresh at each opening.
    meta: follows(),
  });

export function usePatientAccess(patientId: number) {
  return useQuery(patientAccessQuery(patientId));
}
