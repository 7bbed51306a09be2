import type { ApiError, PatientListRow } from '@dental/shared';
import { Form, type FormInstance } from '@dental/shared/ui/forms';
import { type Dispatch, useEffect } from 'react';
import { usePatient } from '../api/patients';
import type { AppointmentFormValues } from './appointmentFormValues';
import type { BookingEvent, BookingState, ChosenPatient } from './bookingState';

export interface PatientChoiceOptions {
  form: FormInstance<AppointmentFormValues>;
  open: boolean;
  editing: boolean;
  /** A new appointment's patient named in its link (`&patient=7`). */
  patientId: number | null;
  booking: BookingState;
  dispatch: Dispatch<BookingEvent>;
}

const chosenOf = (patient: PatientListRow): ChosenPatient => ({
  id: patient.id,
  name: patient.name,
  phone: patient.phone,
});

/**
 * The clinic's patient a booking is for: the one named in the link, filled in once read, or one
 * picked from the search; either fills the name, phone and id.
 */
export function usePatientChoice({
  form,
  open,
  editing,
  patientId,
  booking,
  dispatch,
}: PatientChoiceOptions) {
  const linked = usePatient(open && !editing ? patientId : null);
  const patientIdValue = Form.useWatch('patient_id', form) as number | null | undefined;

  useEffect(() => {
    const patient = linked.data;
    if (!open || editing || !patient || booking.linkPatientFilled === patient.id) return;
    dispatch({ type: 'linkPatientFilled', patient: chosenOf(patient) });
    form.setFieldsValue({ patient: patient.name, phone: patient.phone, patient_id: patient.id });
  }, [open, editing, linked.data, booking.linkPatientFilled, dispatch, form]);

  const pick = (patient: PatientListRow) => {
    dispatch({ type: 'patientPicked', patient: chosenOf(patient) });
    form.setFieldsValue({ patient: patient.name, phone: patient.phone, patient_id: patient.id });
    void form.validateFields(['patient', 'phone']).catch(() => undefined);
  };

  return {
    pick,
    /** The name and phone are those of the clinic's patient chosen (not a new one). */
    isChosen: booking.patient !== null && patientIdValue === booking.patient.id,
    /** The link's patient could not be read. */
    readError: (linked.error as ApiError | null)?.message ?? null,
  };
}
