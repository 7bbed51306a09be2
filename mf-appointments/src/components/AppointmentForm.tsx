import {
  APPOINTMENT_NOTES_MAX,
  type ApiError,
  type Appointment,
  type AppointmentWriteRequest,
  appointmentWriteSchema,
  canBookOutsideHours,
  dateString,
  endTimeOf,
  OUTSIDE_HOURS_REASON_MAX,
  OUTSIDE_HOURS_REASON_REQUIRED,
  PAST_BOOKING_MESSAGE,
  type PatientListRow,
  TREATMENTS,
  type Treatment,
  timeRange,
  useAuthStore,
  VISIT_MINUTES_MAX,
  VISIT_MINUTES_MIN,
  VISIT_MINUTES_STEP,
  visitMinutes,
} from '@dental/shared';
import { formatDay, todayDay, useQueryClient } from '@dental/shared/kit';
import {
  AutoComplete,
  Checkbox,
  ErrorBanner,
  FieldRow,
  Form,
  Input,
  InputNumber,
  ModalForm,
  type ModalFormOpenProps,
  optionsOf,
  Select,
  schemaRules,
  Typography,
  useModalForm,
} from '@dental/shared/ui';
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  appointmentKeys,
  createAppointment,
  getAppointment,
  invalidateAround,
  updateAppointment,
} from '../api/appointments';
import { freeTimesKeys, useFreeTimes } from '../api/availability';
import { useDentistChoices } from '../api/dentists';
import { usePatient, useTypedPatientSearch } from '../api/patients';
import { useTreatmentMinutes } from '../api/settings';
import { NO_REPEAT, RepeatFields, type RepeatValues, repeatRuleOf } from './SeriesFields';
import { useSeriesScopeQuestion } from './SeriesScopeQuestion';
import { useSeriesBooking } from './useSeriesBooking';

const rulesFor = schemaRules(appointmentWriteSchema.in);
/** The form's fields, named as on the wire, so the server's field errors land beside them. */
const FIELDS = [
  'patient',
  'phone',
  'date',
  'time',
  'dentist_id',
  'treatment',
  'duration',
  'outside_hours_reason',
  'notes',
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
}

export interface AppointmentFormProps extends ModalFormOpenProps<Appointment> {
  /** The appointment to edit; none for 'New Appointment'. */
  appointment: Appointment | null;
  /** A new appointment's patient, looked up by id (`/appointments?new=1&patient=7`). */
  patientId?: number | null;
  /** A new appointment's date (`&date=YYYY-MM-DD`). */
  date?: string | null;
  /** A new appointment's dentist, e.g. the one the list is filtered on. */
  dentistId?: number | null;
  /** A new appointment's start (`&time=HH:mm`), e.g. free time clicked in the calendar's Day view. */
  time?: string | null;
  /** A new appointment's treatment (`&treatment=`, e.g. a recall's); it brings its length. */
  treatment?: Treatment | null;
  /** The waitlist entry a new appointment is booked for (`&waitlist=`): booked, it leaves the list. */
  waitlistEntryId?: number | null;
}

/** The patient a booking is for, as chosen from the search (or the one being edited). */
interface ChosenPatient {
  id: number;
  name: string;
  phone: string;
}

interface TimeOption {
  value: string;
  label: string;
  disabled?: boolean;
}

const isDay = (value: unknown): value is string =>
  typeof value === 'string' && dateString.safeParse(value).success;

function valuesOf(appointment: Appointment): AppointmentFormValues {
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
  };
}

/** The Save's body: names and notes trimmed, the reason only for a visit outside open hours. */
function requestOf(values: AppointmentFormValues): AppointmentWriteRequest {
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
  };
}

const isLength = (value: unknown): value is number => visitMinutes.safeParse(value).success;

interface PatientNameInputProps {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  onPick: (patient: PatientListRow) => void;
  disabled?: boolean;
}

/** The patient's name: typing looks the clinic's patients up by name or phone; picking one fills the form. */
function PatientNameInput({ id, value, onChange, onPick, disabled }: PatientNameInputProps) {
  const { setTyped, term, matches, found } = useTypedPatientSearch();
  const options = found.map((patient) => ({
    value: `patient:${patient.id}`,
    label: (
      <div>
        <div>{patient.name}</div>
        <Typography.Text type="secondary">{patient.phone}</Typography.Text>
      </div>
    ),
  }));
  return (
    <AutoComplete
      id={id}
      value={value}
      disabled={disabled}
      options={options}
      filterOption={false}
      notFoundContent={
        term && matches.isFetched && !matches.isFetching ? 'No patient found: a new one will be added' : null
      }
      onChange={(next: string) => {
        // Picking an option passes its key first; onSelect then writes the patient's name.
        if (next.startsWith('patient:')) return;
        setTyped(next);
        onChange?.(next);
      }}
      onSelect={(key: string) => {
        const patient = found.find((candidate) => `patient:${candidate.id}` === key);
        if (patient) {
          setTyped('');
          onPick(patient);
        }
      }}
    >
      <Input autoComplete="off" />
    </AutoComplete>
  );
}

/** The dialog's title and Save, adding or editing; a repeating booking is checked before it is booked. */
const wordsOf = (repeating: boolean, bookable: number | null) => ({
  edit: 'Edit Appointment',
  add: 'New Appointment',
  addOk:
    bookable !== null
      ? `Book ${bookable} ${bookable === 1 ? 'visit' : 'visits'}`
      : repeating
        ? 'Check dates'
        : 'Book Appointment',
});

/**
 * 'New Appointment' and 'Edit Appointment' (spec §5 Appointment form): every field required except
 * notes, checked with the rules the server applies; its refusals land beside their fields.
 */
export function AppointmentForm({
  open,
  appointment: opened,
  patientId = null,
  date: initialDate = null,
  dentistId: initialDentist = null,
  time: initialTime = null,
  treatment: initialTreatment = null,
  waitlistEntryId = null,
  onClose,
  onSaved,
}: AppointmentFormProps) {
  const [form] = Form.useForm<AppointmentFormValues>();
  const [chosen, setChosen] = useState<ChosenPatient | null>(null);
  const queryClient = useQueryClient();
  const ownDentistId = useAuthStore((state) => state.user?.dentistId ?? null);
  const mayOverride = useAuthStore((state) => canBookOutsideHours(state.user?.role));
  const treatmentMinutes = useTreatmentMinutes();
  const today = todayDay();
  const prefilledFor = useRef<number | null>(null);
  /** The dentist, date or length was changed by hand: a time they no longer offer is cleared. */
  const slotContextChanged = useRef(false);
  /** The length was typed: a change of treatment no longer sets it. */
  const lengthTyped = useRef(false);
  const series = useSeriesBooking();
  const seriesScope = useSeriesScopeQuestion();

  const frame = useModalForm({
    form,
    open,
    fields: FIELDS,
    follows: { resource: 'appointment', record: opened, load: () => getAppointment(opened?.id ?? 0) },
    initialValues: (shown) => {
      if (shown) return valuesOf(shown);
      const dentist = initialDentist ?? ownDentistId;
      return {
        ...NO_REPEAT,
        ...(initialDate ? { date: initialDate } : {}),
        ...(initialTime ? { time: initialTime } : {}),
        ...(dentist ? { dentist_id: dentist } : {}),
        // As choosing it by hand does: the treatment brings its length from Settings.
        ...(initialTreatment
          ? { treatment: initialTreatment, duration: treatmentMinutes[initialTreatment] }
          : {}),
      };
    },
    refillOn: [initialDate, initialTime, initialDentist, ownDentistId, initialTreatment],
    onFill: (shown) => {
      prefilledFor.current = null;
      slotContextChanged.current = false;
      lengthTyped.current = false;
      series.reset();
      setChosen(shown ? { id: shown.patient_id, name: shown.patient, phone: shown.phone } : null);
    },
    save: async (values, { shown, version }) => {
      const body = requestOf(values);
      if (shown) {
        // A visit of a series asks which visits the edit changes; closing the question saves nothing.
        const scope = await seriesScope.ask(shown, 'Save changes to');
        return scope ? updateAppointment(shown.id, body, version(), scope) : null;
      }
      const repeat = repeatRuleOf(values);
      if (repeat) return series.save(body, repeat);
      return createAppointment(
        waitlistEntryId === null ? body : { ...body, waitlist_entry_id: waitlistEntryId },
      );
    },
    invalidates: [appointmentKeys.all, freeTimesKeys.all, ['waitlist']],
    onSaved: (saved) => {
      // Not saved yet: a series shown for review, or a scope question closed.
      if (!saved) return;
      invalidateAround(queryClient);
      onSaved(saved);
    },
    onSaveError: (error, banner) => {
      series.markRefused(error);
      if (error.status !== 409) return banner;
      // What was free a moment ago may not be now.
      void queryClient.invalidateQueries({ queryKey: freeTimesKeys.all });
      // A clash names the visit in the way: the banner says it whole, the field says which.
      return error.message;
    },
  });
  /** The visit as the form shows it: as opened, or as 'Load theirs' brought it; the list's reads leave it be. */
  const appointment = frame.shown;
  const editing = appointment !== null;

  const dentists = useDentistChoices();
  const prefill = usePatient(open && !editing ? patientId : null);

  const dentistValue = Form.useWatch('dentist_id', form) as number | undefined;
  const dateValue = Form.useWatch('date', form) as string | undefined;
  const timeValue = Form.useWatch('time', form) as string | undefined;
  const durationValue = Form.useWatch('duration', form) as number | undefined;
  const outsideHours = Form.useWatch('outside_hours', form) === true;
  const patientIdValue = Form.useWatch('patient_id', form) as number | null | undefined;
  const repeatUnit = Form.useWatch('repeat_unit', form) as AppointmentFormValues['repeat_unit'];
  const repeatEnd = Form.useWatch('repeat_end', form) as AppointmentFormValues['repeat_end'];
  const repeating = !editing && repeatUnit !== undefined && repeatUnit !== 'none';
  const chosenDentist = typeof dentistValue === 'number' ? dentistValue : null;
  const chosenDate = isDay(dateValue) ? dateValue : null;
  const chosenLength = isLength(durationValue) ? durationValue : null;
  const free = useFreeTimes(
    open && chosenDentist !== null && chosenDate !== null && chosenLength !== null
      ? {
          dentistId: chosenDentist,
          date: chosenDate,
          duration: chosenLength,
          ...(appointment ? { exceptId: appointment.id } : {}),
          ...(typeof patientIdValue === 'number' ? { patientId: patientIdValue } : {}),
        }
      : null,
  );
  // The clinic's lengths read after the form was filled (a treatment from the URL): a new visit's
  // treatment still brings its length, until a length is typed.
  useEffect(() => {
    if (!open || editing || lengthTyped.current) return;
    const treatment = form.getFieldValue('treatment') as Treatment | undefined;
    if (treatment) form.setFieldValue('duration', treatmentMinutes[treatment]);
  }, [open, editing, treatmentMinutes, form]);
  // The patient named in the URL fills name and phone once it has been read.
  useEffect(() => {
    const patient = prefill.data;
    if (!open || editing || !patient || prefilledFor.current === patient.id) return;
    prefilledFor.current = patient.id;
    setChosen({ id: patient.id, name: patient.name, phone: patient.phone });
    form.setFieldsValue({ patient: patient.name, phone: patient.phone, patient_id: patient.id });
  }, [open, editing, prefill.data, form]);

  const dentistChoices = useMemo(() => {
    const all = dentists.data?.data ?? [];
    // A new booking needs an active dentist; an edit may keep the one it has.
    const choices = all
      .filter((dentist) => dentist.status === 'active' || dentist.id === appointment?.dentist_id)
      .map((dentist) => ({ value: dentist.id, label: dentist.name }));
    // A deleted dentist is in no list, but their past visits still name them.
    if (appointment && !choices.some((choice) => choice.value === appointment.dentist_id))
      choices.push({ value: appointment.dentist_id, label: appointment.dentist_name });
    return choices;
  }, [dentists.data, appointment]);
  const dentistName = dentistChoices.find((choice) => choice.value === chosenDentist)?.label;

  const offered = free.data && !free.isPlaceholderData ? free.data : null;
  const timeOptions = useMemo((): TimeOption[] => {
    const length = chosenLength ?? 0;
    const options: TimeOption[] = (offered?.times ?? []).map((time) => ({
      value: time,
      label: timeRange(time, endTimeOf(time, length)),
    }));
    // An edited visit keeps its own time, even off the booking grid.
    const ownStays =
      appointment !== null &&
      appointment.dentist_id === chosenDentist &&
      appointment.date === chosenDate &&
      !options.some((option) => option.value === appointment.time);
    if (ownStays && offered) {
      options.push({
        value: appointment.time,
        label: `${timeRange(appointment.time, endTimeOf(appointment.time, length))} (current)`,
      });
      options.sort((a, b) => a.value.localeCompare(b.value));
    }
    return options;
  }, [offered, chosenLength, appointment, chosenDentist, chosenDate]);

  useEffect(() => {
    if (!slotContextChanged.current || !offered || outsideHours) return;
    slotContextChanged.current = false;
    if (timeValue && !timeOptions.some((option) => option.value === timeValue)) {
      form.setFieldValue('time', undefined);
    }
  }, [timeOptions, offered, timeValue, outsideHours, form]);

  let timeHint: string;
  if (outsideHours)
    timeHint = 'Any time the dentist and the patient have free: the visit is marked as outside open hours.';
  else if (chosenDentist === null || chosenDate === null)
    timeHint = 'Choose the dentist and date to see the free times.';
  else if (chosenLength === null && typeof durationValue === 'number')
    timeHint = `Give a length of ${VISIT_MINUTES_MIN} to ${VISIT_MINUTES_MAX} minutes in steps of ${VISIT_MINUTES_STEP} to see the free times.`;
  else if (chosenLength === null)
    timeHint = 'Choose the treatment (or give the length) to see the free times.';
  else if (free.isError) timeHint = "The dentist's free times could not be read.";
  else if (!offered) timeHint = "Reading the dentist's free times...";
  else if (offered.times.length === 0)
    timeHint = `${offered.message ?? 'No free time on this day'}: choose another day or dentist.`;
  else
    timeHint = `${offered.times.length} start ${offered.times.length === 1 ? 'time' : 'times'} free for ${dentistName ?? 'this dentist'} on ${formatDay(offered.date)} for ${chosenLength} minutes.`;

  const pickPatient = (patient: PatientListRow) => {
    setChosen({ id: patient.id, name: patient.name, phone: patient.phone });
    form.setFieldsValue({ patient: patient.name, phone: patient.phone, patient_id: patient.id });
    void form.validateFields(['patient', 'phone']).catch(() => undefined);
  };

  const loadError =
    (prefill.error as ApiError | null)?.message ?? (dentists.error as ApiError | null)?.message ?? null;
  const isChosenPatient = chosen !== null && patientIdValue === chosen.id;

  return (
    <ModalForm
      frame={frame}
      name="appointment"
      words={wordsOf(repeating, series.review ? series.bookable : null)}
      onCancel={onClose}
      width={640}
      notice={<ErrorBanner message={loadError} />}
      onValuesChange={(changed: Partial<AppointmentFormValues>, all: AppointmentFormValues) => {
        // The visits of a checked series were checked for the booking as it was.
        if (Object.keys(changed).some((field) => field !== 'notes')) series.reset();
        if ('dentist_id' in changed || 'date' in changed || 'duration' in changed)
          slotContextChanged.current = true;
        if ('duration' in changed) lengthTyped.current = true;
        // A treatment brings its length from Settings, until a length is typed.
        if ('treatment' in changed && changed.treatment && !lengthTyped.current) {
          form.setFieldValue('duration', treatmentMinutes[changed.treatment]);
          slotContextChanged.current = true;
        }
        // A name or phone other than the chosen patient's books for that person instead.
        if (
          ('patient' in changed || 'phone' in changed) &&
          chosen &&
          !editing &&
          (all.patient?.trim() !== chosen.name || all.phone?.trim() !== chosen.phone)
        ) {
          form.setFieldValue('patient_id', null);
        }
      }}
    >
      <Form.Item name="patient_id" hidden>
        <Input />
      </Form.Item>
      <FieldRow spans={[14, 10]}>
        <Form.Item
          name="patient"
          label="Patient Name"
          rules={rulesFor('patient')}
          extra={
            editing
              ? undefined
              : isChosenPatient
                ? 'A patient of the clinic.'
                : 'Type a name or phone to find the patient; a new name and phone add a patient.'
          }
        >
          <PatientNameInput onPick={pickPatient} disabled={editing} />
        </Form.Item>
        <Form.Item name="phone" label="Phone" rules={rulesFor('phone')}>
          <Input type="tel" autoComplete="off" disabled={editing} />
        </Form.Item>
      </FieldRow>
      <FieldRow spans={[12, 12]}>
        <Form.Item name="dentist_id" label="Dentist" rules={rulesFor('dentist_id')}>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            placeholder="Choose a dentist"
            loading={dentists.isPending}
            options={dentistChoices}
          />
        </Form.Item>
        <Form.Item
          name="date"
          label="Date"
          rules={rulesFor('date', [
            {
              validator: async (_rule, value: string | undefined) => {
                const moved = !appointment || value !== appointment.date;
                if (moved && isDay(value) && value < today) throw new Error(PAST_BOOKING_MESSAGE);
              },
            },
          ])}
        >
          <Input type="date" min={editing ? undefined : today} />
        </Form.Item>
      </FieldRow>
      <FieldRow spans={[14, 10]}>
        <Form.Item name="treatment" label="Treatment" rules={rulesFor('treatment')}>
          <Select placeholder="Choose a treatment" options={optionsOf(TREATMENTS)} />
        </Form.Item>
        <Form.Item
          name="duration"
          label="Duration"
          rules={rulesFor('duration', [{ required: true, message: 'Give the length in minutes' }])}
        >
          <InputNumber
            min={VISIT_MINUTES_MIN}
            max={VISIT_MINUTES_MAX}
            step={VISIT_MINUTES_STEP}
            suffix="minutes"
            style={{ width: '100%' }}
          />
        </Form.Item>
      </FieldRow>
      <Form.Item name="time" label="Time" rules={rulesFor('time')} extra={timeHint}>
        {outsideHours ? (
          <Input type="time" step={300} />
        ) : (
          <Select
            placeholder="Choose a time"
            loading={free.isFetching}
            // Until the dentist's free times are read, none is offered: a taken one could be booked.
            options={offered ? timeOptions : []}
            notFoundContent={
              offered ? (offered.message ?? 'No free time') : "Reading the dentist's free times..."
            }
          />
        )}
      </Form.Item>
      {mayOverride && (
        <Form.Item
          name="outside_hours"
          valuePropName="checked"
          style={{ marginBottom: outsideHours ? 8 : 24 }}
        >
          <Checkbox>Book outside open hours (emergency)</Checkbox>
        </Form.Item>
      )}
      {mayOverride && outsideHours && (
        <Form.Item
          name="outside_hours_reason"
          label="Reason for booking outside open hours"
          rules={[
            { required: true, whitespace: true, message: OUTSIDE_HOURS_REASON_REQUIRED },
            ...rulesFor('outside_hours_reason'),
          ]}
        >
          <Input maxLength={OUTSIDE_HOURS_REASON_MAX} />
        </Form.Item>
      )}
      {/* A waitlisted patient is offered one freed time: no series from the waitlist. */}
      {!editing && waitlistEntryId === null && (
        <RepeatFields values={{ repeat_unit: repeatUnit, repeat_end: repeatEnd }} firstDay={chosenDate} />
      )}
      {series.node}
      <Form.Item name="notes" label="Notes" rules={rulesFor('notes')}>
        <Input.TextArea rows={3} maxLength={APPOINTMENT_NOTES_MAX} showCount />
      </Form.Item>
      {seriesScope.dialog}
    </ModalForm>
  );
}
