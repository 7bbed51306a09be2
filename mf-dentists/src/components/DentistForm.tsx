import {
  appointmentQueries,
  type DentistWriteRequest,
  dashboardQueries,
  dentistWriteSchema,
  PERSON_STATUSES,
  type PersonStatus,
  SPECIALIZATIONS,
  type Specialization,
  WEEKDAYS,
  type WireDentist,
} from '@dental/shared';
import {
  Checkbox,
  Form,
  InputNumber,
  ModalForm,
  type ModalFormOpenProps,
  NameEmailPhoneFields,
  optionsOf,
  Select,
  StatusField,
  schemaRules,
  TextField,
  useModalForm,
} from '@dental/shared/ui/forms';
import { createDentist, dentistKeys, getDentist, updateDentist } from '../api/dentists';
import { DAY_LABELS } from './workingDays';

const rulesFor = schemaRules(dentistWriteSchema.in);
/** The form's fields by the server's names, so the server's field errors land beside them. */
const FIELDS = [
  'name',
  'email',
  'phone',
  'specialty',
  'license',
  'years_of_experience',
  'working_days',
  'status',
];

interface DentistFormValues {
  name: string;
  email: string;
  phone: string;
  specialty: Specialization;
  license: string;
  years_of_experience: number | null;
  /** Day numbers as checked: '1' Monday … '7' Sunday (docs/product.md, Records and their fields: `working_days`). */
  working_days: string[];
  status: PersonStatus;
}

export interface DentistFormProps extends ModalFormOpenProps<WireDentist> {
  /** The dentist to edit; none for 'Add New Dentist'. */
  dentist: WireDentist | null;
}

function valuesOf(dentist: WireDentist | null): Partial<DentistFormValues> {
  if (!dentist) return { years_of_experience: 0, working_days: ['1', '2', '3', '4', '5'], status: 'active' };
  return {
    name: dentist.name,
    email: dentist.email,
    phone: dentist.phone,
    specialty: dentist.specialty as Specialization,
    license: dentist.license,
    years_of_experience: dentist.years_of_experience,
    working_days: [...dentist.working_days],
    status: dentist.status,
  };
}

function requestOf(values: DentistFormValues): DentistWriteRequest {
  return {
    name: values.name,
    email: values.email,
    phone: values.phone,
    specialty: values.specialty,
    license: values.license,
    years_of_experience: values.years_of_experience ?? 0,
    working_days: [...values.working_days].sort().join(''),
    status: values.status,
  };
}

/** The dialog's title and Save, adding or editing. */
const WORDS = { edit: 'Edit Dentist', add: 'Add New Dentist', addOk: 'Add Dentist' };

/** 'Add New Dentist' and 'Edit Dentist' (docs/product.md, Screens: Dentists): one form that saves, with the server's rules. */
export function DentistForm({ open, dentist: opened, onClose, onSaved }: DentistFormProps) {
  const [form] = Form.useForm<DentistFormValues>();
  const frame = useModalForm({
    form,
    open,
    fields: FIELDS,
    follows: { resource: 'dentist', record: opened, load: () => getDentist(opened?.id ?? 0) },
    initialValues: valuesOf,
    save: (values, { shown, version }) =>
      shown ? updateDentist(shown.id, requestOf(values), version()) : createDentist(requestOf(values)),
    // Appointments and availability show the dentist's name.
    invalidates: [dentistKeys.all, appointmentQueries.key, dashboardQueries.key],
    onSaved,
  });

  return (
    <ModalForm frame={frame} name="dentist" words={WORDS} onCancel={onClose} forceRender>
      <NameEmailPhoneFields rulesFor={rulesFor} namePlaceholder="Dr. Jane Doe" />
      <Form.Item name="specialty" label="Specialization" rules={rulesFor('specialty')}>
        <Select placeholder="Choose a specialization" options={optionsOf(SPECIALIZATIONS)} />
      </Form.Item>
      <TextField name="license" label="License Number" rulesFor={rulesFor} />
      <Form.Item
        name="years_of_experience"
        label="Experience (years)"
        rules={rulesFor('years_of_experience')}
      >
        {/* No min/precision: they would change a wrong number silently; the rule says what is wrong. */}
        <InputNumber style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item
        name="working_days"
        label="Working Days"
        rules={[
          {
            validator: async (_rule, value: string[] | undefined) => {
              if (!value?.length) throw new Error('Choose at least one working day');
            },
          },
        ]}
        extra="Monday to Friday are worked 09:00-17:00, Saturday and Sunday 09:00-13:00."
      >
        <Checkbox.Group
          options={WEEKDAYS.map((_day, index) => ({ value: String(index + 1), label: DAY_LABELS[index] }))}
        />
      </Form.Item>
      <StatusField
        statuses={PERSON_STATUSES}
        rules={rulesFor('status')}
        extra="An inactive dentist keeps their history but is not offered for new bookings."
      />
    </ModalForm>
  );
}
