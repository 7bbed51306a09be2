import {
  apiRequest,
  dentistQueries,
  ifMatch,
  patientRecallUrl,
  RECALL_URL,
  type RecallQuery,
  type RecallRow,
  type RecallUpdate,
  recallContactUrl,
  recallReminderUrl,
  recallTypeQueries,
  recallUrl,
} from '@dental/shared';
import { follows, keepPreviousData, queryOptions, useQuery } from '@dental/shared/kit';

/** The Recall screen's calls (shared/src/domain/recall.ts), each typed with the shared schemas. */

export type RecallListParams = Omit<RecallQuery, 'page' | 'limit'> & { page: number; limit: number };

/** A recall as a row of the list: a patient's recall of one type, with an id of its own for the table. */
export type RecallListRow = RecallRow & { id: number };

export interface RecallListPage {
  data: RecallListRow[];
  total: number;
  page: number;
  limit: number;
  total_capped?: boolean;
}

/** What the server answers a reminder with: the recall as it is now and the channels queued. */
export interface RecallReminderAnswer {
  recall: RecallRow;
  queued: Array<'email' | 'sms'>;
}

/** A visit booked, completed or cancelled, or a patient's contact changed, moves a recall too. */
const RECALL_FOLLOW = follows('recall', 'recall_type', 'appointment', 'patient');

export const recallKeys = {
  all: ['recall'] as const,
  list: (params: RecallListParams) => ['recall', 'list', params] as const,
  patient: (patientId: number) => ['recall', 'patient', patientId] as const,
};

const FETCH_RECALL = 'Failed to fetch the recall list';
const FETCH_PATIENT_RECALL = "Failed to fetch the patient's recall";
const SEND_REMINDER = 'Failed to send the reminder';
const MARK_CONTACTED = 'Failed to mark the patient as contacted';
const UPDATE_RECALL = 'Failed to save the recall';

/**
 * One recall is one patient's of one type: the table needs one number for it. Two ids paired
 * (Cantor) give a number no other pair gives.
 */
export const recallRowId = (row: Pick<RecallRow, 'patient_id' | 'type_id'>) => {
  const sum = row.patient_id + row.type_id;
  return (sum * (sum + 1)) / 2 + row.type_id;
};

const withRowIds = (page: Omit<RecallListPage, 'data'> & { data: RecallRow[] }): RecallListPage => ({
  ...page,
  data: page.data.map((row) => ({ ...row, id: recallRowId(row) })),
});

export function getRecallList(params: RecallListParams): Promise<RecallListPage> {
  return apiRequest<Omit<RecallListPage, 'data'> & { data: RecallRow[] }>(
    { method: 'GET', url: RECALL_URL, params },
    FETCH_RECALL,
  ).then(withRowIds);
}

/** One patient's recall of each type that is on, for their details. */
export function getPatientRecall(patientId: number): Promise<{ data: RecallRow[] }> {
  return apiRequest({ method: 'GET', url: patientRecallUrl(patientId) }, FETCH_PATIENT_RECALL);
}

/** Queues the "you are due" reminder by the channels the clinic allows; 409 when none is possible. */
export function sendRecallReminder(row: RecallRow): Promise<RecallReminderAnswer> {
  return apiRequest({ method: 'POST', url: recallReminderUrl(row.patient_id, row.type_id) }, SEND_REMINDER);
}

/** The patient was called, with what was said. */
export function markRecallContacted(row: RecallRow, note: string): Promise<RecallRow> {
  return apiRequest(
    { method: 'POST', url: recallContactUrl(row.patient_id, row.type_id), data: { note } },
    MARK_CONTACTED,
  );
}

/** Changes the recall as the row showed it (If-Match): a newer one meanwhile is refused with 412. */
export function updateRecall(row: RecallRow, body: RecallUpdate): Promise<RecallRow> {
  return apiRequest(
    {
      method: 'PATCH',
      url: recallUrl(row.patient_id, row.type_id),
      data: body,
      headers: ifMatch(row.version),
    },
    UPDATE_RECALL,
  );
}

/** One page of the patients due back, soonest first; the previous page stays while the next loads. */
export const recallListQuery = (params: RecallListParams) =>
  queryOptions({
    queryKey: recallKeys.list(params),
    meta: RECALL_FOLLOW,
    queryFn: () => getRecallList(params),
    placeholderData: keepPreviousData,
  });

export function useRecallList(params: RecallListParams) {
  return useQuery(recallListQuery(params));
}

/** A patient's recalls (none asked while no patient is shown). */
export const patientRecallQuery = (patientId: number | null) =>
  queryOptions({
    queryKey: recallKeys.patient(patientId ?? 0),
    meta: RECALL_FOLLOW,
    queryFn: () => getPatientRecall(patientId ?? 0),
    enabled: patientId !== null,
  });

export function usePatientRecall(patientId: number | null) {
  return useQuery(patientRecallQuery(patientId));
}

/** The clinic's recall types, for the type filter. */
export function useRecallTypes() {
  return useQuery({ ...recallTypeQueries.all(), staleTime: 60_000 });
}

/** Every dentist of the clinic, for the dentist filter (the one a patient last saw). */
export function useDentistChoices() {
  return useQuery(dentistQueries.choices());
}
