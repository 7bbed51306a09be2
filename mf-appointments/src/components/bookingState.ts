import type { Treatment } from '@dental/shared';
import type { AppointmentFormValues } from './appointmentFormValues';

/** The patient a booking is for, as chosen from the search (or the one being edited). */
export interface ChosenPatient {
  id: number;
  name: string;
  phone: string;
}

/** What the appointment form keeps beside its fields, from one filling of the form to the next. */
export interface BookingState {
  /** The clinic's patient the booking is for: picked from the search, named in the link, or edited. */
  patient: ChosenPatient | null;
  /** The link's patient (`&patient=`) whose name and phone were filled in: a read of them again leaves the typing alone. */
  linkPatientFilled: number | null;
  /** The length was typed: a change of treatment no longer sets it. */
  lengthTyped: boolean;
  /** The dentist, date or length was changed by hand: once free times are read, a time they no longer offer is cleared. */
  timeToCheck: boolean;
}

export type BookingEvent =
  /** The form was filled afresh (opened, 'Load theirs'): it starts again from the patient it shows. */
  | { type: 'filled'; patient: ChosenPatient | null }
  /** A patient of the clinic was picked from the search. */
  | { type: 'patientPicked'; patient: ChosenPatient }
  /** The patient named in the link was read and filled in. */
  | { type: 'linkPatientFilled'; patient: ChosenPatient }
  /** The user changed fields (antd's `onValuesChange`). */
  | { type: 'changed'; changed: Partial<AppointmentFormValues> }
  /** The free times were read since the dentist, date or length changed: the time was checked against them. */
  | { type: 'timeChecked' };

export const FRESH_BOOKING: BookingState = {
  patient: null,
  linkPatientFilled: null,
  lengthTyped: false,
  timeToCheck: false,
};

/** A treatment chosen brings its length from Settings, until a length is typed (now or before). */
export function treatmentBringingLength(
  state: Pick<BookingState, 'lengthTyped'>,
  changed: Partial<AppointmentFormValues>,
): Treatment | null {
  if (state.lengthTyped || 'duration' in changed) return null;
  return changed.treatment ?? null;
}

/** A name or phone other than the chosen patient's books for that person instead. */
export function leavesChosenPatient(
  chosen: ChosenPatient | null,
  changed: Partial<AppointmentFormValues>,
  all: Partial<AppointmentFormValues>,
): boolean {
  if (!chosen || !('patient' in changed || 'phone' in changed)) return false;
  return all.patient?.trim() !== chosen.name || all.phone?.trim() !== chosen.phone;
}

export function bookingReducer(state: BookingState, event: BookingEvent): BookingState {
  switch (event.type) {
    case 'filled':
      return { ...FRESH_BOOKING, patient: event.patient };
    case 'patientPicked':
      return { ...state, patient: event.patient };
    case 'linkPatientFilled':
      return { ...state, patient: event.patient, linkPatientFilled: event.patient.id };
    case 'changed': {
      const { changed } = event;
      // Each changes the free times: a chair's, or a treatment's dentist part, as much as a day.
      const slotChanged =
        'dentist_id' in changed ||
        'date' in changed ||
        'duration' in changed ||
        'chair_id' in changed ||
        'treatment' in changed;
      return {
        ...state,
        lengthTyped: state.lengthTyped || 'duration' in changed,
        timeToCheck: state.timeToCheck || slotChanged || treatmentBringingLength(state, changed) !== null,
      };
    }
    case 'timeChecked':
      return { ...state, timeToCheck: false };
  }
}
