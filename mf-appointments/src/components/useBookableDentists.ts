import type { Appointment } from '@dental/shared';
import { useMemo } from 'react';
import { useDentistChoices } from '../api/dentists';

/** The dentists a visit may be booked with, as choices: the clinic's active ones, and an edited visit's own. */
export function useBookableDentists(appointment: Appointment | null) {
  const dentists = useDentistChoices();
  const choices = useMemo(() => {
    const all = dentists.data?.data ?? [];
    // A new booking needs an active dentist; an edit may keep the one it has.
    const listed = all
      .filter((dentist) => dentist.status === 'active' || dentist.id === appointment?.dentist_id)
      .map((dentist) => ({ value: dentist.id, label: dentist.name }));
    // A deleted dentist is in no list, but their past visits still name them.
    if (appointment && !listed.some((choice) => choice.value === appointment.dentist_id))
      listed.push({ value: appointment.dentist_id, label: appointment.dentist_name });
    return listed;
  }, [dentists.data, appointment]);
  return { choices, loading: dentists.isPending, error: dentists.error };
}
