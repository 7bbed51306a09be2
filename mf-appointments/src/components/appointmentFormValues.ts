import {
  type Appointment,
  type AppointmentWriteRequest,
  dateString,
  type Treatment,
  visitMinutes,
} from '@dental/shared';
import { ANY_CHAIR } from './ChairField';
import { NO_REPEAT, type RepeatValues } from './SeriesFields';

/** The form's fields, named as on the wire, so the server's field errors land beside them. */
export const APPOINTMENT_FIELDS = [
  'patient',
  'phone',
  'date',
  'time',
  'dentist_id',
  'treatment',
  'duration',
  'outside_hours_reason',
  'notes',
  'chair_id',
] as const;

export interface AppointmentFormValues extends RepeatValues {
  patient: string;
  phone: string;
  patient_id?: number | null;
  date: string;
  time: string;
  dentist_id: number;
  treatment: Treatment;
  duration: number;
  outside_hours?: boolean;
  outside_hours_reason?: string | null;
  notes?: string | null;
  /** The chair chosen; ANY_CHAIR (0) leaves it to the server: a free one. */
  chair_id?: number;
}

/** What a new appointment starts with, from its link (`/appointments?new=1&date=…`) or the screen. */
export interface NewAppointmentStart {
  date: string | null;
  time: string | null;
  dentistId: number | null;
  treatment: Treatment | null;
  chairId?: number | null;
}

export const isDay = (value: unknown): value is string =>
  typeof value === 'string' && dateString.safeParse(value).success;

/** A length the free times can be asked for: on the grid, within the limits. */
export const isLength = (value: unknown): value is number => visitMinutes.safeParse(value).success;

/** An edited appointment's fields as the form shows them. */
export function valuesOf(appointment: Appointment): AppointmentFormValues {
  return {
    patient: appointment.patient,
    phone: appointment.phone,
    patient_id: appointment.patient_id,
    date: appointment.date,
    time: appointment.time,
    dentist_id: appointment.dentist_id,
    treatment: appointment.treatment as Treatment,
    duration: appointment.duration,
    outside_hours: appointment.outside_hours,
    outside_hours_reason: appointment.outside_hours_reason ?? '',
    notes: appointment.notes ?? '',
    chair_id: appointment.chair_id ?? ANY_CHAIR,
  };
}

/** A new appointment's fields: what its link gives, not repeating, and the treatment's length from Settings. */
export function newValuesOf(
  start: NewAppointmentStart,
  treatmentMinutes: Readonly<Record<Treatment, number>>,
): Partial<AppointmentFormValues> {
  return {
    ...NO_REPEAT,
    chair_id: start.chairId ?? ANY_CHAIR,
    ...(start.date ? { date: start.date } : {}),
    ...(start.time ? { time: start.time } : {}),
    ...(start.dentistId ? { dentist_id: start.dentistId } : {}),
    // As choosing it by hand does: the treatment brings its length from Settings.
    ...(start.treatment ? { treatment: start.treatment, duration: treatmentMinutes[start.treatment] } : {}),
  };
}

/** The Save's body: names and notes trimmed, the reason only for a visit outside open hours. */
export function requestOf(values: AppointmentFormValues): AppointmentWriteRequest {
  return {
    patient: values.patient.trim(),
    phone: values.phone.trim(),
    patient_id: values.patient_id ?? null,
    date: values.date,
    time: values.time,
    dentist_id: values.dentist_id,
    treatment: values.treatment,
    duration: values.duration,
    ...(values.outside_hours
      ? { outside_hours: true, outside_hours_reason: values.outside_hours_reason?.trim() ?? '' }
      : {}),
    notes: values.notes?.trim() ? values.notes.trim() : null,
    ...(values.chair_id ? { chair_id: values.chair_id } : {}),
  };
}
