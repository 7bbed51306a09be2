import { apiRequest, ERROR_MESSAGES, type PatientPage, patientQueries } from '@dental/shared';
import { follows, keepPreviousData, queryOptions, useDebounce, useQuery } from '@dental/shared/kit';
import { useState } from 'react';

/** Finding the patient of a booking: a search by name or phone, or one patient by id. */

export const PATIENT_MATCHES_LIMIT = 8;

export function searchPatients(term: string): Promise<PatientPage> {
  return apiRequest(
    { method: 'GET', url: '/api/patients', params: { search: term, limit: PATIENT_MATCHES_LIMIT } },
    ERROR_MESSAGES.fetchPatients,
  );
}

/** Under the patients' key: a patient's write anywhere reads the matches again. */
export const patientMatchesQuery = (term: string) =>
  queryOptions({
    queryKey: [...patientQueries.key, 'list', { search: term, limit: PATIENT_MATCHES_LIMIT }] as const,
    queryFn: () => searchPatients(term),
    meta: follows('patient'),
    enabled: term !== '',
    placeholderData: keepPreviousData,
  });

/** The clinic's patients whose name, phone or e-mail contains the term; nothing is asked for a blank term. */
export function usePatientMatches(term: string) {
  return useQuery(patientMatchesQuery(term));
}

export function usePatient(id: number | null) {
  return useQuery(patientQueries.detail(id));
}

/** A pause in typing before the patients are looked up. */
const SEARCH_PAUSE_MS = 250;

/**
 * A patient field's search: what is typed (`setTyped`) is looked up once typing pauses, from two
 * characters on; `found` is the clinic's patients it matches (none for a blank search).
 */
export function useTypedPatientSearch() {
  const [typed, setTyped] = useState('');
  const [term] = useDebounce(typed.trim().length >= 2 ? typed.trim() : '', SEARCH_PAUSE_MS);
  const matches = usePatientMatches(term);
  return { setTyped, term, matches, found: term ? (matches.data?.data ?? []) : [] };
}
