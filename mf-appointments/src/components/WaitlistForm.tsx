import {
  DATE_RANGE_MESSAGE,
  ISO_WEEKDAY_LABELS,
  ISO_WEEKDAYS,
  PART_OF_DAY_LABELS,
  PARTS_OF_DAY,
  type PartOfDay,
  TREATMENTS,
  type Treatment,
  WAITLIST_NOTE_MAX,
  type WaitlistBody,
  type WaitlistEntry,
  waitlistBodySchema,
} from '@dental/shared';
import { todayDay } from '@dental/shared/kit';
import {
  Checkbox,
  FieldRow,
  Form,
  Input,
  ModalForm,
  type ModalFormOpenProps,
  optionsOf,
  Select,
  schemaRules,
  useModalForm,
} from '@dental/shared/ui/forms';
import type { ComponentProps } from 'react';
import { useMemo, useState } from 'react';
import { useDentistChoices } from '../api/dentists';
import { useTypedPatientSearch } from '../api/patients';
import { createWaitlistEntry, getWaitlistEntry, updateWaitlistEntry, waitlistKeys } from '../api/waitlist';

const rulesFor = schemaRules(waitlistBodySchema);
const FIELDS = [
  'patient_id',
  'treatment',
  'dentist_id',
  'weekdays',
  'part_of_day',
  'earliest_on',
  'latest_on',
  'note',
] as const;
/** The dentist field's "Any dentist": the form cannot hold null in a Select's value. */
const ANY_DENTIST = 0;
/** Monday to Friday: what a new entry offers first. */
const WORKING_WEEK = [1, 2, 3, 4, 5];
const WORDS = { edit: 'Edit Waitlist Entry', add: 'Add to Waitlist', addOk: 'Add to Waitlist' };

type CheckGroupProps = ComponentProps<typeof Checkbox.Group<number>>;

/**
 * The weekday boxes as one named group. A required field's `aria-required` is not allowed on a
 * group (axe aria-allowed-attr): the star beside the label says it, and the rule's message says what
 * is missing.
 */
function WeekdayChecks({ 'aria-required': _required, ...group }: CheckGroupProps) {
  return (
    <Checkbox.Group<number>
      role="group"
      aria-label="Weekdays"
      {...group}
      options={ISO_WEEKDAYS.map((day) => ({ value: day, label: ISO_WEEKDAY_LABELS[day] }))}
    />
  );
}

export interface WaitlistFormValues {
  patient_id: number;
  treatment: Treatment;
  dentist_id: number;
  weekdays: number[];
  part_of_day: PartOfDay;
  earliest_on: string;
  latest_on: string;
  note?: string;
}

export interface WaitlistFormProps extends ModalFormOpenProps<WaitlistEntry> {
  /** The entry to edit; none for 'Add to Waitlist'. */
  entry: WaitlistEntry | null;
}

function valuesOf(entry: WaitlistEntry): WaitlistFormValues {
  return {
    patient_id: entry.patient_id,
    treatment: entry.treatment,
    dentist_id: entry.dentist_id ?? ANY_DENTIST,
    weekdays: entry.weekdays,
    part_of_day: entry.part_of_day,
    earliest_on: entry.earliest_on,
    latest_on: entry.latest_on,
    note: entry.note,
  };
}

function requestOf(values: WaitlistFormValues): WaitlistBody {
  return {
    patient_id: values.patient_id,
    treatment: values.treatment,
    dentist_id: values.dentist_id === ANY_DENTIST ? null : values.dentist_id,
    weekdays: values.weekdays,
    part_of_day: values.part_of_day,
    earliest_on: values.earliest_on,
    latest_on: values.latest_on,
    note: values.note?.trim() ?? '',
  };
}

interface PatientSelectProps {
  id?: string;
  value?: number;
  onChange?: (value: number) => void;
  /** The patient the entry names already (their name for the closed field). */
  current: { id: number; name: string } | null;
}

/** The patient: typing looks the clinic's patients up by name or phone, as the appointment form does. */
function PatientSelect({ id, value, onChange, current }: PatientSelectProps) {
  const { setTyped, term, matches, found } = useTypedPatientSearch();
  const [picked, setPicked] = useState<{ id: number; name: string } | null>(null);
  const options = found.map((patient) => ({
    value: patient.id,
    label: `${patient.name} · ${patient.phone}`,
  }));
  // The chosen patient keeps their name in the field after the search moves on.
  const known = [picked, current].find((patient) => patient && patient.id === value);
  if (known && !options.some((option) => option.value === known.id))
    options.unshift({ value: known.id, label: known.name });
  return (
    <Select<number>
      id={id}
      value={value}
      showSearch={{ filterOption: false, onSearch: setTyped }}
      placeholder="Type a name or phone to find the patient"
      options={options}
      loading={matches.isFetching}
      notFoundContent={term && matches.isFetched && !matches.isFetching ? 'No patient found' : null}
      onChange={(chosen) => {
        const patient = found.find((candidate) => candidate.id === chosen);
        if (patient) setPicked({ id: patient.id, name: patient.name });
        onChange?.(chosen);
      }}
    />
  );
}

/** 'Add to Waitlist' and 'Edit Waitlist Entry': what the patient wants, checked by the server's rules. */
export function WaitlistForm({ open, entry, onClose, onSaved }: WaitlistFormProps) {
  const [form] = Form.useForm<WaitlistFormValues>();
  const today = todayDay();
  const frame = useModalForm({
    form,
    open,
    fields: FIELDS,
    follows: { resource: 'waitlist', record: entry, load: () => getWaitlistEntry(entry?.id ?? 0) },
    initialValues: (shown): Partial<WaitlistFormValues> =>
      shown
        ? valuesOf(shown)
        : { dentist_id: ANY_DENTIST, weekdays: WORKING_WEEK, part_of_day: 'any', earliest_on: today },
    refillOn: [today],
    save: (values, { shown, version }) => {
      const body = requestOf(values);
      return shown ? updateWaitlistEntry(shown.id, body, version()) : createWaitlistEntry(body);
    },
    invalidates: [waitlistKeys.all],
    onSaved,
  });
  const shown = frame.shown;
  const dentists = useDentistChoices();
  const dentistChoices = useMemo(() => {
    const active = (dentists.data?.data ?? [])
      .filter((dentist) => dentist.status === 'active' || dentist.id === shown?.dentist_id)
      .map((dentist) => ({ value: dentist.id, label: dentist.name }));
    return [{ value: ANY_DENTIST, label: 'Any dentist' }, ...active];
  }, [dentists.data, shown]);

  return (
    <ModalForm frame={frame} name="waitlist" words={WORDS} onCancel={onClose} width={600}>
      <Form.Item name="patient_id" label="Patient" rules={rulesFor('patient_id')}>
        <PatientSelect current={shown ? { id: shown.patient_id, name: shown.patient_name } : null} />
      </Form.Item>
      <FieldRow spans={[12, 12]}>
        <Form.Item name="treatment" label="Treatment" rules={rulesFor('treatment')}>
          <Select placeholder="Choose a treatment" options={optionsOf(TREATMENTS)} />
        </Form.Item>
        <Form.Item name="dentist_id" label="Dentist">
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            loading={dentists.isPending}
            options={dentistChoices}
          />
        </Form.Item>
      </FieldRow>
      <Form.Item name="weekdays" label="Weekdays" rules={rulesFor('weekdays')}>
        <WeekdayChecks />
      </Form.Item>
      <Form.Item name="part_of_day" label="Part of day" rules={rulesFor('part_of_day')}>
        <Select options={PARTS_OF_DAY.map((part) => ({ value: part, label: PART_OF_DAY_LABELS[part] }))} />
      </Form.Item>
      <FieldRow spans={[12, 12]}>
        <Form.Item name="earliest_on" label="Earliest date" rules={rulesFor('earliest_on')}>
          <Input type="date" />
        </Form.Item>
        <Form.Item
          name="latest_on"
          label="Latest date"
          dependencies={['earliest_on']}
          rules={rulesFor('latest_on', [
            ({ getFieldValue }) => ({
              validator: async (_rule, value: string | undefined) => {
                const earliest = getFieldValue('earliest_on') as string | undefined;
                if (value && earliest && value < earliest) throw new Error(DATE_RANGE_MESSAGE);
              },
            }),
          ])}
        >
          <Input type="date" min={today} />
        </Form.Item>
      </FieldRow>
      <Form.Item name="note" label="Note" rules={rulesFor('note')}>
        <Input.TextArea rows={2} maxLength={WAITLIST_NOTE_MAX} showCount />
      </Form.Item>
    </ModalForm>
  );
}
