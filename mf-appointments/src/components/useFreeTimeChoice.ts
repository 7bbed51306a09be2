import { type Appointment, endTimeOf, type FreeTimes, timeRange } from '@dental/shared';
import { Form, type FormInstance } from '@dental/shared/ui/forms';
import { useEffect, useMemo } from 'react';
import { useFreeTimes } from '../api/availability';
import { type AppointmentFormValues, isDay, isLength } from './appointmentFormValues';
import { freeTimeHint } from './freeTimeHint';

export interface TimeOption {
  value: string;
  label: string;
  disabled?: boolean;
}

export interface FreeTimeChoiceOptions {
  form: FormInstance<AppointmentFormValues>;
  open: boolean;
  /** The visit being edited (its own time counts as free); null for a new one. */
  appointment: Appointment | null;
  /** The dentists offered, to name the chosen one in the hint. */
  dentists: readonly { value: number; label: string }[];
  /** The dentist, date or length changed by hand since the time was last checked (bookingState). */
  timeToCheck: boolean;
  /** The time was checked against the free times read since. */
  onTimeChecked: () => void;
}

/** The Time field's choice, as useFreeTimeChoice answers it. */
export interface FreeTimeChoice {
  /** The day chosen, once it is a whole day. */
  date: string | null;
  /** The time chosen, if any. */
  time: string | undefined;
  /** 'Book outside open hours' is ticked: any time may be typed. */
  outsideHours: boolean;
  /** The dentist's free times for the dentist, day and length chosen; null until read. */
  offered: FreeTimes | null;
  options: TimeOption[];
  /** The free times are being read. */
  reading: boolean;
  /** The hint under the field (freeTimeHint). */
  hint: string;
}

/** The free times as options, each as a stretch; an edited visit keeps its own, even off the booking grid. */
export function timeOptionsOf(
  offered: FreeTimes | null,
  length: number,
  own: Appointment | null,
  dentistId: number | null,
  date: string | null,
): TimeOption[] {
  const options: TimeOption[] = (offered?.times ?? []).map((time) => ({
    value: time,
    label: timeRange(time, endTimeOf(time, length)),
  }));
  const ownStays =
    own !== null &&
    own.dentist_id === dentistId &&
    own.date === date &&
    !options.some((option) => option.value === own.time);
  if (ownStays && offered) {
    options.push({ value: own.time, label: `${timeRange(own.time, endTimeOf(own.time, length))} (current)` });
    options.sort((a, b) => a.value.localeCompare(b.value));
  }
  return options;
}

/**
 * The Time field's choice: the dentist's free times for the dentist, day and length chosen, its
 * hint, and a chosen time cleared once the free times read after a change no longer offer it.
 */
export function useFreeTimeChoice({
  form,
  open,
  appointment,
  dentists,
  timeToCheck,
  onTimeChecked,
}: FreeTimeChoiceOptions): FreeTimeChoice {
  const dentistValue = Form.useWatch('dentist_id', form) as number | undefined;
  const dateValue = Form.useWatch('date', form) as string | undefined;
  const timeValue = Form.useWatch('time', form) as string | undefined;
  const durationValue = Form.useWatch('duration', form) as number | undefined;
  const patientIdValue = Form.useWatch('patient_id', form) as number | null | undefined;
  const chairValue = Form.useWatch('chair_id', form) as number | undefined;
  const treatmentValue = Form.useWatch('treatment', form) as string | undefined;
  const outsideHours = Form.useWatch('outside_hours', form) === true;
  const dentistId = typeof dentistValue === 'number' ? dentistValue : null;
  const date = isDay(dateValue) ? dateValue : null;
  const length = isLength(durationValue) ? durationValue : null;

  const free = useFreeTimes(
    open && dentistId !== null && date !== null && length !== null
      ? {
          dentistId,
          date,
          duration: length,
          ...(appointment ? { exceptId: appointment.id } : {}),
          ...(typeof patientIdValue === 'number' ? { patientId: patientIdValue } : {}),
          ...(treatmentValue ? { treatment: treatmentValue } : {}),
          ...(chairValue ? { chairId: chairValue } : {}),
        }
      : null,
  );
  // A length changed keeps the last answer on screen (placeholder): it offers nothing until the new one.
  const offered = free.data && !free.isPlaceholderData ? free.data : null;
  const options = useMemo(
    () => timeOptionsOf(offered, length ?? 0, appointment, dentistId, date),
    [offered, length, appointment, dentistId, date],
  );

  useEffect(() => {
    if (!timeToCheck || !offered || outsideHours) return;
    onTimeChecked();
    if (timeValue && !options.some((option) => option.value === timeValue)) {
      form.setFieldValue('time', undefined);
    }
  }, [timeToCheck, onTimeChecked, options, offered, timeValue, outsideHours, form]);

  const hint = freeTimeHint({
    outsideHours,
    dentistId,
    date,
    length,
    lengthGiven: typeof durationValue === 'number',
    readFailed: free.isError,
    offered,
    dentistName: dentists.find((dentist) => dentist.value === dentistId)?.label,
  });

  return { date, time: timeValue, outsideHours, offered, options, reading: free.isFetching, hint };
}
