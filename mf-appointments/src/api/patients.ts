import { apiRequest, ERROR_MESSAGES, type PatientPage, patientDetailKey, patientQuery } from '@dental/shared';
import { follows, keepPreviousData, useQuery } from '@dental/shared/kit';
import { useEffect, useState } from 'react';

/** Finding the patient of a booking: a search by name or phone, or one patient by id. */

export const PATIENT_MATCHES_LIMIT = 8;

/** What other desks change that these reads show: the shell invalidates them on those changes. */
const PATIENTS_FOLLOW = follows('patient');

export const patientKeys = {
  search: (term: string) => ['patients', 'list', { search: term, limit: PATIENT_MATCHES_LIMIT }] as const,
  detail: patientDetailKey,
};

export function searchPatients(term: string): Promise<PatientPage> {
  return apiRequest(
    { method: 'GET', url: '/api/patients', params: { search: term, limit: PATIENT_MATCHES_LIMIT } },
    ERROR_MESSAGES.fetchPatients,
  );
}

/** The clinic's patients whose name, phone or e-mail contains the term; nothing is asked for a blank term. */
export function usePatientMatches(term: string) {
  return useQuery({
    queryKey: patientKeys.search(term),
    meta: PATIENTS_FOLLOW,
    queryFn: () => searchPatients(term),
    enabled: term !== '',
    placeholderData: keepPreviousData,
  });
}

export function usePatient(id: number | null) {
  return useQuery({ ...patientQuery(id), meta: PATIENTS_FOLLOW });
}

/** A pause in typing before the patients are looked up. */
const SEARCH_PAUSE_MS = 250;

/**
 * A patient field's search: what is typed (`setTyped`) is looked up once typing pauses, from two
 * characters on; `found` is the clinic's patients it matches (none for a blank search).
 */
export function useTypedPatientSearch() {
  const [typed, setTyped] = useState('');
  const [term, setTerm] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setTerm(typed.trim().length >= 2 ? typed.trim() : ''), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const matches = usePatientMatches(term);
  return { setTyped, term, matches, found: term ? (matches.data?.data ?? []) : [] };
}
