import {
  APPOINTMENT_NOTES_MAX,
  type ApiError,
  type Appointment,
  type AppointmentWriteRequest,
  appointmentWriteSchema,
  dateString,
  inactiveDayMessage,
  PAST_BOOKING_MESSAGE,
  SUGGESTED_SLOTS,
  TREATMENTS,
  type Treatment,
  useAuthStore,
  type WirePatient,
} from '@dental/shared';
import { formatDay, todayDay, useMutation, useQueryClient } from '@dental/shared/kit';
import {
  AutoComplete,
  Col,
  ErrorBanner,
  Form,
  Input,
  Modal,
  Row,
  Select,
  schemaRules,
  showServerErrors,
  Typography,
} from '@dental/shared/ui';
import { useEffect, useMemo, useRef, useState } from 'react';
import { appointmentKeys, createAppointment, invalidateAround, updateAppointment } from '../api/appointments';
import { useDentistDay } from '../api/availability';
import { useDentistChoices } from '../api/dentists';
import { usePatient, usePatientMatches } from '../api/patients';

const rulesFor = schemaRules(appointmentWriteSchema.in);
/** The form's fields, named as on the wire, so the server's field errors land beside them. */
const FIELDS = ['patient', 'phone', 'date', 'time', 'dentist_id', 'treatment', 'notes'] as const;
/** The server's words for a booking on a past day (it checks against the clinic's today). */
const SEARCH_PAUSE_MS = 250;

export interface AppointmentFormValues {
  patient: string;
  phone: string;
  patient_id?: number | null;
  date: string;
  time: string;
  dentist_id: number;
  treatment: Treatment;
  notes?: string | null;
}

export interface AppointmentFormProps {
  open: boolean;
  /** The appointment to edit; none for 'New Appointment'. */
  appointment: Appointment | null;
  /** A new appointment's patient, looked up by id (`/appointments?new=1&patient=7`). */
  patientId?: number | null;
  /** A new appointment's date (`&date=YYYY-MM-DD`). */
  date?: string | null;
  /** A new appointment's dentist, e.g. the one the list is filtered on. */
  dentistId?: number | null;
  onClose: () => void;
  onSaved: (saved: Appointment) => void;
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
    notes: appointment.notes ?? '',
  };
}

interface PatientNameInputProps {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  onPick: (patient: WirePatient) => void;
  disabled?: boolean;
}

/** The patient's name: typing looks the clinic's patients up by name or phone; picking one fills the form. */
function PatientNameInput({ id, value, onChange, onPick, disabled }: PatientNameInputProps) {
  const [typed, setTyped] = useState('');
  const [term, setTerm] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setTerm(typed.trim().length >= 2 ? typed.trim() : ''), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const matches = usePatientMatches(term);
  const found = term ? (matches.data?.data ?? []) : [];
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

/**
 * 'New Appointment' and 'Edit Appointment' (spec §5 Appointment form): every field required except
 * notes, checked with the rules the server applies; its refusals land beside their fields.
 */
export function AppointmentForm({
  open,
  appointment,
  patientId = null,
  date: initialDate = null,
  dentistId: initialDentist = null,
  onClose,
  onSaved,
}: AppointmentFormProps) {
  const [form] = Form.useForm<AppointmentFormValues>();
  const [formError, setFormError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<ChosenPatient | null>(null);
  const queryClient = useQueryClient();
  const ownDentistId = useAuthStore((state) => state.user?.dentistId ?? null);
  const today = todayDay();
  const editing = appointment !== null;

  const dentists = useDentistChoices();
  const prefill = usePatient(open && !editing ? patientId : null);
  const prefilledFor = useRef<number | null>(null);

  const dentistValue = Form.useWatch('dentist_id', form) as number | undefined;
  const dateValue = Form.useWatch('date', form) as string | undefined;
  const timeValue = Form.useWatch('time', form) as string | undefined;
  const patientIdValue = Form.useWatch('patient_id', form) as number | null | undefined;
  const chosenDentist = typeof dentistValue === 'number' ? dentistValue : null;
  const chosenDate = isDay(dateValue) ? dateValue : null;
  const day = useDentistDay(open ? chosenDentist : null, open ? chosenDate : null);
  /** The dentist or date was changed by hand: a time they no longer offer is cleared. */
  const slotContextChanged = useRef(false);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    setFormError(null);
    prefilledFor.current = null;
    slotContextChanged.current = false;
    if (appointment) {
      form.setFieldsValue(valuesOf(appointment));
      setChosen({ id: appointment.patient_id, name: appointment.patient, phone: appointment.phone });
    } else {
      setChosen(null);
      const dentist = initialDentist ?? ownDentistId;
      form.setFieldsValue({
        ...(initialDate ? { date: initialDate } : {}),
        ...(dentist ? { dentist_id: dentist } : {}),
      });
    }
  }, [open, appointment, initialDate, initialDentist, ownDentistId, form]);

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

  // An inactive day offers no slot (the server refuses a booking on it).
  const inactiveDay = day.data?.data[0]?.status === 'inactive';
  const slots = inactiveDay ? [] : (day.data?.data[0]?.time_slots ?? []);
  const fromAvailability = slots.length > 0;
  const timeOptions = useMemo((): TimeOption[] => {
    const ownSlotStays =
      appointment !== null &&
      appointment.status !== 'cancelled' &&
      appointment.dentist_id === chosenDentist &&
      appointment.date === chosenDate;
    const options: TimeOption[] = inactiveDay
      ? []
      : fromAvailability
        ? slots.map((slot) => {
            const own = ownSlotStays && appointment.time >= slot.start && appointment.time < slot.end;
            const free = slot.available || own;
            return {
              value: own ? appointment.time : slot.start,
              label: `${slot.start}-${slot.end}${free ? '' : ' (booked)'}`,
              disabled: !free,
            };
          })
        : SUGGESTED_SLOTS.map((slot) => ({ value: slot.start, label: `${slot.start}-${slot.end}` }));
    // An edited appointment keeps its own time on its own day, even off the usual slots.
    if (ownSlotStays && !options.some((option) => option.value === appointment.time)) {
      options.push({ value: appointment.time, label: `${appointment.time} (current)` });
      options.sort((a, b) => a.value.localeCompare(b.value));
    }
    return options;
  }, [slots, fromAvailability, inactiveDay, appointment, chosenDentist, chosenDate]);

  useEffect(() => {
    if (!slotContextChanged.current || day.isFetching) return;
    slotContextChanged.current = false;
    if (timeValue && !timeOptions.some((option) => option.value === timeValue && !option.disabled)) {
      form.setFieldValue('time', undefined);
    }
  }, [timeOptions, day.isFetching, timeValue, form]);

  const freeCount = slots.filter((slot) => slot.available).length;
  let timeHint: string;
  if (chosenDentist === null || chosenDate === null)
    timeHint = "Suggested times. Choose the dentist and date to see the dentist's free slots.";
  else if (day.isPending) timeHint = "Loading the dentist's slots...";
  else if (day.isError) timeHint = "The dentist's slots could not be read: suggested times are shown.";
  else if (inactiveDay)
    timeHint = `${inactiveDayMessage(dentistName ?? 'This dentist', formatDay(chosenDate))}: choose another day or dentist.`;
  else if (fromAvailability)
    timeHint =
      freeCount > 0
        ? `${freeCount} of ${slots.length} slots free for ${dentistName ?? 'this dentist'} on ${formatDay(chosenDate)}.`
        : `${dentistName ?? 'This dentist'} has no free slot on ${formatDay(chosenDate)}: choose another day or dentist.`;
  else timeHint = 'Suggested times: no availability is set for this dentist on that day.';

  const save = useMutation({
    mutationFn: (body: AppointmentWriteRequest) =>
      appointment ? updateAppointment(appointment.id, body) : createAppointment(body),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: appointmentKeys.all });
      invalidateAround(queryClient);
      onSaved(saved);
    },
    onError: (error: ApiError) => {
      const rest = showServerErrors(form, error, FIELDS);
      // A clash names the dentist, day and time: the banner says it whole, the field says which.
      setFormError(error.status === 409 ? error.message : rest);
    },
  });

  const submit = async () => {
    setFormError(null);
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    save.mutate({
      patient: values.patient.trim(),
      phone: values.phone.trim(),
      patient_id: values.patient_id ?? null,
      date: values.date,
      time: values.time,
      dentist_id: values.dentist_id,
      treatment: values.treatment,
      notes: values.notes?.trim() ? values.notes.trim() : null,
    });
  };

  const pickPatient = (patient: WirePatient) => {
    setChosen({ id: patient.id, name: patient.name, phone: patient.phone });
    form.setFieldsValue({ patient: patient.name, phone: patient.phone, patient_id: patient.id });
    void form.validateFields(['patient', 'phone']).catch(() => undefined);
  };

  const loadError =
    (prefill.error as ApiError | null)?.message ?? (dentists.error as ApiError | null)?.message ?? null;
  const isChosenPatient = chosen !== null && patientIdValue === chosen.id;

  return (
    <Modal
      open={open}
      title={editing ? 'Edit Appointment' : 'New Appointment'}
      okText={editing ? 'Save Changes' : 'Book Appointment'}
      onOk={() => void submit()}
      confirmLoading={save.isPending}
      onCancel={onClose}
      width={640}
      destroyOnHidden
    >
      <ErrorBanner message={formError} onClose={() => setFormError(null)} />
      <ErrorBanner message={loadError} />
      <Form
        form={form}
        layout="vertical"
        name="appointment"
        requiredMark
        onFinish={() => void submit()}
        onValuesChange={(changed: Partial<AppointmentFormValues>, all: AppointmentFormValues) => {
          if ('dentist_id' in changed || 'date' in changed) slotContextChanged.current = true;
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
        <Row gutter={12}>
          <Col xs={24} sm={14}>
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
          </Col>
          <Col xs={24} sm={10}>
            <Form.Item name="phone" label="Phone" rules={rulesFor('phone')}>
              <Input type="tel" autoComplete="off" disabled={editing} />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            <Form.Item name="dentist_id" label="Dentist" rules={rulesFor('dentist_id')}>
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                placeholder="Choose a dentist"
                loading={dentists.isPending}
                options={dentistChoices}
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
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
          </Col>
        </Row>
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            <Form.Item name="time" label="Time" rules={rulesFor('time')} extra={timeHint}>
              <Select
                placeholder="Choose a time"
                loading={day.isFetching}
                // Until the dentist's day is read, no time is offered: a suggested one could be booked.
                options={day.isLoading ? [] : timeOptions}
                notFoundContent={day.isLoading ? "Reading the dentist's free times..." : undefined}
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="treatment" label="Treatment" rules={rulesFor('treatment')}>
              <Select
                placeholder="Choose a treatment"
                options={TREATMENTS.map((treatment) => ({ value: treatment, label: treatment }))}
              />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="notes" label="Notes" rules={rulesFor('notes')}>
          <Input.TextArea rows={3} maxLength={APPOINTMENT_NOTES_MAX} showCount />
        </Form.Item>
        {/* Enter in a field submits, as in any form. */}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Modal>
  );
}
