import {
  type ApiError,
  type Appointment,
  type FreedVisit,
  TREATMENTS,
  timeString,
  withFreedParam,
} from '@dental/shared';
import {
  parseAsDay,
  parseAsId,
  parseAsString,
  parseAsStringLiteral,
  useQueryState,
} from '@dental/shared/kit';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAppointment } from '../api/appointments';

/** `?new=1` opens the New Appointment form; `0`/`false` or nothing does not. */
const opensForm = (value: string | null) => value !== null && value !== '0' && value !== 'false';

/**
 * `?returnTo=/calendar?month=2026-12` sends staff back to the screen that opened the form once it is
 * saved or cancelled; only a path of this app is followed, never another site.
 */
const returnPathOf = (value: string | null) =>
  value?.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') ? value : null;

/**
 * The appointment form as other screens open it by URL: `?new=1` with `patient`, `date`, `time`,
 * `dentist`, `treatment` (one of TREATMENTS; it brings its length) and `waitlist` (the entry booked) to prefill, `?appointment=12` to edit one, `returnTo` to go back to; closing the form takes them
 * off the URL (or goes back), leaving the list's own filters as they were.
 */
export function useAppointmentFormUrl() {
  const push = { history: 'push' } as const;
  const [newParam, setNewParam] = useQueryState('new', parseAsString.withOptions(push));
  const [patientParam, setPatientParam] = useQueryState('patient', parseAsId.withOptions(push));
  const [dateParam, setDateParam] = useQueryState('date', parseAsDay.withOptions(push));
  const [timeParam, setTimeParam] = useQueryState('time', parseAsString.withOptions(push));
  const [treatmentParam, setTreatmentParam] = useQueryState(
    'treatment',
    parseAsStringLiteral(TREATMENTS).withOptions(push),
  );
  const [dentistParam, setDentistParam] = useQueryState('dentist', parseAsId.withOptions(push));
  const [chairParam, setChairParam] = useQueryState('chair', parseAsId.withOptions(push));
  const [waitlistParam, setWaitlistParam] = useQueryState('waitlist', parseAsId.withOptions(push));
  const [returnParam] = useQueryState('returnTo', parseAsString);
  const returnTo = returnPathOf(returnParam);
  const navigate = useNavigate();
  const creating = opensForm(newParam);
  const [editing, setEditing] = useState<Appointment | null>(null);
  // Another screen opens one appointment by its URL (`?appointment=12`): it opens in the edit form.
  const [linkedId, setLinkedId] = useQueryState('appointment', parseAsId.withOptions(push));
  const linked = useAppointment(linkedId);
  const linkedError = linked.error ? (linked.error as ApiError).message : null;
  useEffect(() => {
    if (linked.data && linked.data.id === linkedId) setEditing(linked.data);
  }, [linked.data, linkedId]);

  const openNew = () => {
    setEditing(null);
    void setNewParam('1');
  };
  /**
   * Closes the form. `freed`: the save left a visit's time free; the screen returned to offers it to
   * the waitlist (it reads it from its URL), as this screen does itself.
   */
  const closeForm = (freed?: FreedVisit | null) => {
    setEditing(null);
    if (returnTo) {
      navigate(freed ? withFreedParam(returnTo, freed) : returnTo);
      return;
    }
    if (linkedId !== null) void setLinkedId(null);
    if (
      newParam !== null ||
      patientParam !== null ||
      dateParam !== null ||
      timeParam !== null ||
      treatmentParam !== null ||
      dentistParam !== null ||
      chairParam !== null ||
      waitlistParam !== null
    ) {
      void setNewParam(null);
      void setPatientParam(null);
      void setDateParam(null);
      void setTimeParam(null);
      void setTreatmentParam(null);
      void setDentistParam(null);
      void setChairParam(null);
      void setWaitlistParam(null);
    }
  };

  const prefilled = creating && !editing;
  return {
    open: creating || editing !== null,
    editing,
    setEditing,
    openNew,
    closeForm,
    /** The form goes back to another screen once closed. */
    returnsElsewhere: returnTo !== null,
    /**
     * What a new appointment starts from (`?patient=`, `?date=`, `?time=`, `?treatment=`, `?dentist=`, `?chair=`),
     * and the waitlist entry it is booked for (`?waitlist=`: the entry leaves the list once booked).
     */
    prefill: {
      patientId: prefilled ? patientParam : null,
      date: prefilled ? dateParam : null,
      time: prefilled && timeString.safeParse(timeParam).success ? timeParam : null,
      treatment: prefilled ? treatmentParam : null,
      dentistId: prefilled ? dentistParam : null,
      chairId: prefilled ? chairParam : null,
      waitlistEntryId: prefilled ? waitlistParam : null,
    },
    /** The linked appointment could not be read. */
    linkedError,
    dismissLinked: () => void setLinkedId(null),
  };
}
