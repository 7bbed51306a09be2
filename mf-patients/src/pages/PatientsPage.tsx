import {
  type ApiError,
  PATIENT_SORTS,
  type PatientListRow,
  PERSON_STATUSES,
  patientQueries,
  type WirePatient,
} from '@dental/shared';
import {
  formatDay,
  parseAsId,
  parseAsStringLiteral,
  useListState,
  useQueryClient,
  useQueryState,
} from '@dental/shared/kit';
import { ActiveTag, EyeOutlined, Typography } from '@dental/shared/ui';
import { useRecordEditor } from '@dental/shared/ui/forms';
import {
  deleteRowAction,
  editRowAction,
  ListFilters,
  ListPage,
  listQueryOf,
  rowActionsColumn,
  type TableColumnsType,
  useActionError,
  useRowDelete,
} from '@dental/shared/ui/lists';
import { useState } from 'react';
import { deletePatient, patientKeys, usePatients } from '../api/patients';
import { PatientDetails } from '../components/PatientDetails';
import { PatientForm } from '../components/PatientForm';

const FILTERS = { status: parseAsStringLiteral(PERSON_STATUSES) };
/** The filter bar's select. */
const FILTER_BAR = [
  { name: 'status', label: 'Status', allLabel: 'All', choices: PERSON_STATUSES, width: 160 },
] as const;

/** Patients (docs/product.md, Screens): the clinic's patients, searched, filtered and paged by the server. */
export default function PatientsPage() {
  const queryClient = useQueryClient();
  const list = useListState({ sorts: PATIENT_SORTS, filters: FILTERS });
  const { state } = list;
  const [openPatient, setOpenPatient] = useQueryState('patient', parseAsId.withOptions({ history: 'push' }));
  const editor = useRecordEditor<WirePatient>();
  // The row whose record is being read for its form: its Edit spins meanwhile.
  const [opening, setOpening] = useState<number | null>(null);

  const patients = usePatients({ ...listQueryOf(state), status: state.status ?? undefined });

  const refresh = () => void queryClient.invalidateQueries({ queryKey: patientKeys.all });
  // Refused as stale or gone: the list shows the patient as it is now.
  const actionError = useActionError(refresh);
  const askDelete = useRowDelete<PatientListRow>({
    remove: deletePatient,
    question: (patient) => ({
      title: 'Delete patient?',
      content: `Are you sure you want to delete ${patient.name}? This cannot be undone.`,
    }),
    refused: actionError.refused,
    refresh,
  });

  // A list row carries no medical history: the form opens with the patient's own record, read now
  // (and so on the trail as opened), or says why it could not be read.
  const editFromRow = (row: PatientListRow) => {
    setOpening(row.id);
    void queryClient
      .fetchQuery(patientQueries.detail(row.id))
      .then(
        (patient) => editor.edit(patient),
        (error: ApiError) => actionError.refused(error),
      )
      .finally(() => setOpening(null));
  };

  const columns: TableColumnsType<PatientListRow> = [
    {
      title: 'Patient',
      key: 'name',
      sorter: true,
      render: (_, patient) => (
        <div>
          <Typography.Link
            href={`/patients?patient=${patient.id}`}
            onClick={(event) => {
              // A plain click opens the file here; a modified click opens it in a new tab, by its URL.
              if (event.metaKey || event.ctrlKey || event.shiftKey) return;
              event.preventDefault();
              void setOpenPatient(patient.id);
            }}
          >
            {patient.name}
          </Typography.Link>
          <br />
          <Typography.Text type="secondary">
            {patient.dateOfBirth ? `Born ${formatDay(patient.dateOfBirth)}` : 'Date of birth not given'}
          </Typography.Text>
        </div>
      ),
    },
    {
      title: 'Contact',
      key: 'contact',
      render: (_, patient) => (
        <div>
          <div>{patient.phone}</div>
          <Typography.Text type="secondary">{patient.email ?? 'No e-mail'}</Typography.Text>
        </div>
      ),
    },
    {
      title: 'Last Visit',
      key: 'lastVisit',
      render: (_, patient) => (patient.lastVisit ? formatDay(patient.lastVisit) : 'Never'),
    },
    {
      title: 'Next Appointment',
      key: 'nextAppointment',
      render: (_, patient) =>
        patient.nextAppointment
          ? `${formatDay(patient.nextAppointment.date)} ${patient.nextAppointment.time}`
          : 'No appointment',
    },
    {
      title: 'Status',
      key: 'status',
      render: (_, patient) => <ActiveTag active={patient.status === 'active'}>{patient.status}</ActiveTag>,
    },
    rowActionsColumn<PatientListRow>((patient) => [
      {
        label: `View ${patient.name}`,
        icon: <EyeOutlined />,
        onClick: () => void setOpenPatient(patient.id),
      },
      { ...editRowAction(patient.name, () => editFromRow(patient)), loading: opening === patient.id },
      deleteRowAction(patient.name, () => askDelete(patient)),
    ]),
  ];

  return (
    <ListPage
      title="Patients"
      subtitle="The clinic's patients and their visits."
      primaryAction={{ label: 'Add New Patient', onClick: () => editor.add() }}
      read={patients}
      list={list}
      actionError={actionError}
      search="Search patients"
      filters={<ListFilters list={list} filters={FILTER_BAR} />}
      table={{ columns, empty: { noMatch: 'No patients match your search', none: 'No patients yet' } }}
    >
      <PatientForm open={editor.open} patient={editor.record} onClose={editor.close} onSaved={editor.saved} />
      <PatientDetails
        patientId={openPatient}
        onClose={() => void setOpenPatient(null)}
        onEdit={(patient) => editor.edit(patient)}
      />
    </ListPage>
  );
}
