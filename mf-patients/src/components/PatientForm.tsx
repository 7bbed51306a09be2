import {
  appointmentQueries,
  FUTURE_BIRTH_DATE_MESSAGE,
  getPatient,
  type PatientWriteRequest,
  PERSON_STATUSES,
  patientWriteSchema,
  type WirePatient,
} from '@dental/shared';
import { todayDay } from '@dental/shared/kit';
import {
  Form,
  Input,
  ModalForm,
  type ModalFormOpenProps,
  NameEmailPhoneFields,
  StatusField,
  schemaRules,
  TextField,
  useModalForm,
} from '@dental/shared/ui/forms';
import { createPatient, patientKeys, updatePatient } from '../api/patients';

const rulesFor = schemaRules(patientWriteSchema.in);
const FIELDS = Object.keys(patientWriteSchema.in.shape);

type PatientFormValues = Required<Pick<PatientWriteRequest, 'name' | 'email' | 'phone' | 'dateOfBirth'>> &
  Pick<PatientWriteRequest, 'address' | 'emergencyContact' | 'medicalHistory' | 'status'>;

export interface PatientFormProps extends ModalFormOpenProps<WirePatient> {
  /** The patient to edit; none for 'Add New Patient'. */
  patient: WirePatient | null;
}

function valuesOf(patient: WirePatient | null): Partial<PatientFormValues> {
  if (!patient) return { status: 'active' };
  return {
    name: patient.name,
    email: patient.email ?? '',
    phone: patient.phone,
    dateOfBirth: patient.dateOfBirth ?? '',
    address: patient.address ?? '',
    emergencyContact: patient.emergencyContact ?? '',
    medicalHistory: patient.medicalHistory ?? '',
    status: patient.status,
  };
}

/** The dialog's title and Save, adding or editing. */
const WORDS = { edit: 'Edit Patient', add: 'Add New Patient', addOk: 'Add Patient' };

/** 'Add New Patient' and 'Edit Patient' (docs/product.md, Validation rules: Patient form): one form, the server's rules. */
export function PatientForm({ open, patient, onClose, onSaved }: PatientFormProps) {
  const [form] = Form.useForm<PatientFormValues>();
  const today = todayDay();
  const frame = useModalForm({
    form,
    open,
    fields: FIELDS,
    follows: { resource: 'patient', record: patient, load: () => getPatient(patient?.id ?? 0) },
    initialValues: valuesOf,
    save: (values, { shown, version }) =>
      shown ? updatePatient(shown.id, values, version()) : createPatient(values),
    // Appointments show the patient's name and phone.
    invalidates: [patientKeys.all, appointmentQueries.key],
    onSaved,
  });
  const shown = frame.shown;

  return (
    <ModalForm frame={frame} name="patient" words={WORDS} onCancel={onClose} forceRender>
      <NameEmailPhoneFields rulesFor={rulesFor} />
      <Form.Item
        name="dateOfBirth"
        label="Date of Birth"
        rules={rulesFor('dateOfBirth', [
          {
            validator: async (_rule, value: string | undefined) => {
              if (value && value > today) throw new Error(FUTURE_BIRTH_DATE_MESSAGE);
            },
          },
        ])}
      >
        <Input type="date" max={today} />
      </Form.Item>
      <TextField name="address" label="Address" rulesFor={rulesFor} />
      <TextField name="emergencyContact" label="Emergency Contact" rulesFor={rulesFor} />
      <Form.Item name="medicalHistory" label="Medical History" rules={rulesFor('medicalHistory')}>
        <Input.TextArea rows={3} maxLength={2000} showCount />
      </Form.Item>
      {shown && <StatusField statuses={PERSON_STATUSES} rules={rulesFor('status')} />}
    </ModalForm>
  );
}
