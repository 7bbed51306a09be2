import {
  type ApiError,
  FUTURE_BIRTH_DATE_MESSAGE,
  type PatientWriteRequest,
  PERSON_STATUSES,
  patientWriteSchema,
  type WirePatient,
} from '@dental/shared';
import { todayDay, useMutation, useQueryClient } from '@dental/shared/kit';
import {
  ErrorBanner,
  Form,
  Input,
  Modal,
  Select,
  schemaRules,
  showServerErrors,
  useEditConflict,
} from '@dental/shared/ui';
import { useEffect, useState } from 'react';
import { createPatient, getPatient, patientKeys, updatePatient } from '../api/patients';

const rulesFor = schemaRules(patientWriteSchema.in);
const FIELDS = Object.keys(patientWriteSchema.in.shape);

type PatientFormValues = Required<Pick<PatientWriteRequest, 'name' | 'email' | 'phone' | 'dateOfBirth'>> &
  Pick<PatientWriteRequest, 'address' | 'emergencyContact' | 'medicalHistory' | 'status'>;

export interface PatientFormProps {
  open: boolean;
  /** The patient to edit; none for 'Add New Patient'. */
  patient: WirePatient | null;
  onClose: () => void;
  onSaved: (patient: WirePatient) => void;
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

/** 'Add New Patient' and 'Edit Patient' (spec §5 Patient form): one form, the server's rules. */
export function PatientForm({ open, patient, onClose, onSaved }: PatientFormProps) {
  const [form] = Form.useForm<PatientFormValues>();
  const [formError, setFormError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const today = todayDay();
  // Another desk's change to this patient while the form is open: an alert, never a silent overwrite.
  const conflict = useEditConflict({
    resource: 'patient',
    open,
    record: patient,
    load: () => getPatient(patient?.id ?? 0),
    resave: () => void submit(),
  });
  const shown = conflict.shown;

  // Only opening a patient (or 'Load theirs') fills the form: a list read again leaves typing alone.
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(valuesOf(shown));
    setFormError(null);
  }, [open, shown, form]);

  const save = useMutation({
    mutationFn: (values: PatientFormValues) =>
      shown ? updatePatient(shown.id, values, conflict.version()) : createPatient(values),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: patientKeys.all });
      // Appointments show the patient's name and phone.
      void queryClient.invalidateQueries({ queryKey: ['appointments'] });
      onSaved(saved);
    },
    onError: (error: ApiError) => {
      if (!conflict.handleSaveError(error)) setFormError(showServerErrors(form, error, FIELDS));
    },
  });

  const submit = async () => {
    setFormError(null);
    if (conflict.saveDisabled) return;
    const values = await form.validateFields().catch(() => null);
    if (values) save.mutate(values);
  };

  return (
    <Modal
      open={open}
      title={shown ? 'Edit Patient' : 'Add New Patient'}
      okText={shown ? 'Save Changes' : 'Add Patient'}
      onOk={() => void submit()}
      confirmLoading={save.isPending}
      okButtonProps={{ disabled: conflict.saveDisabled }}
      footer={conflict.footer}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      <ErrorBanner message={formError} onClose={() => setFormError(null)} />
      <Form form={form} layout="vertical" name="patient" requiredMark onFinish={() => void submit()}>
        <Form.Item name="name" label="Full Name" rules={rulesFor('name')}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="email" label="Email" rules={rulesFor('email')}>
          <Input type="email" autoComplete="off" />
        </Form.Item>
        <Form.Item name="phone" label="Phone" rules={rulesFor('phone')}>
          <Input type="tel" autoComplete="off" />
        </Form.Item>
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
        <Form.Item name="address" label="Address" rules={rulesFor('address')}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="emergencyContact" label="Emergency Contact" rules={rulesFor('emergencyContact')}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="medicalHistory" label="Medical History" rules={rulesFor('medicalHistory')}>
          <Input.TextArea rows={3} maxLength={2000} showCount />
        </Form.Item>
        {shown && (
          <Form.Item name="status" label="Status" rules={rulesFor('status')}>
            <Select options={PERSON_STATUSES.map((status) => ({ value: status, label: status }))} />
          </Form.Item>
        )}
        {/* Enter in a field submits, as in any form. */}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Modal>
  );
}
