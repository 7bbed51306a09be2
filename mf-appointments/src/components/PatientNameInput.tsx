import { appointmentWriteSchema, type PatientListRow } from '@dental/shared';
import { Typography } from '@dental/shared/ui';
import { AutoComplete, FieldRow, Form, Input, schemaRules } from '@dental/shared/ui/forms';
import { useTypedPatientSearch } from '../api/patients';

export interface PatientNameInputProps {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  onPick: (patient: PatientListRow) => void;
  disabled?: boolean;
}

/** The patient's name: typing looks the clinic's patients up by name or phone; picking one fills the form. */
export function PatientNameInput({ id, value, onChange, onPick, disabled }: PatientNameInputProps) {
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

const rulesFor = schemaRules(appointmentWriteSchema.in);

export interface PatientFieldsProps {
  /** An edited visit keeps its patient: name and phone are shown, not changed. */
  editing: boolean;
  /** The name and phone are those of the clinic's patient chosen (not a new one). */
  isChosenPatient: boolean;
  onPick: (patient: PatientListRow) => void;
}

/** The booking's patient: the name (which finds the clinic's patients), the phone, and the id of the one picked. */
export function PatientFields({ editing, isChosenPatient, onPick }: PatientFieldsProps) {
  return (
    <>
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
          <PatientNameInput onPick={onPick} disabled={editing} />
        </Form.Item>
        <Form.Item name="phone" label="Phone" rules={rulesFor('phone')}>
          <Input type="tel" autoComplete="off" disabled={editing} />
        </Form.Item>
      </FieldRow>
    </>
  );
}
