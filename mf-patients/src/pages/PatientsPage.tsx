import { type ApiError, PATIENT_SORTS, PERSON_STATUSES, type WirePatient } from '@dental/shared';
import {
  emptyListText,
  formatDay,
  parseAsId,
  parseAsStringLiteral,
  sortFromTable,
  sortOrderOf,
  tablePagination,
  useListState,
  useMutation,
  useQueryClient,
  useQueryState,
} from '@dental/shared/kit';
import {
  App,
  Button,
  Card,
  DeleteOutlined,
  EditOutlined,
  ErrorBanner,
  EyeOutlined,
  Flex,
  ListSearch,
  PageHeading,
  PlusOutlined,
  Select,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
  useLiveTable,
} from '@dental/shared/ui';
import { useState } from 'react';
import { deletePatient, patientKeys, usePatients } from '../api/patients';
import { PatientDetails } from '../components/PatientDetails';
import { PatientForm } from '../components/PatientForm';

const FILTERS = { status: parseAsStringLiteral(PERSON_STATUSES) };

/** Patients (spec §2): the clinic's patients, searched, filtered and paged by the server. */
export default function PatientsPage() {
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const list = useListState({ sorts: PATIENT_SORTS, filters: FILTERS });
  const { state } = list;
  const [openPatient, setOpenPatient] = useQueryState('patient', parseAsId.withOptions({ history: 'push' }));
  const [editing, setEditing] = useState<{ patient: WirePatient | null } | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  const patients = usePatients({
    page: state.page,
    limit: state.pageSize,
    search: state.search || undefined,
    status: state.status ?? undefined,
    sort: state.sort,
  });

  // Another desk's changes update the rows in place; a row they bring in is marked for a moment.
  const live = useLiveTable(patients, state);

  const remove = useMutation({
    // The patient as the row showed it: changed or deleted at another desk meanwhile, it is refused.
    mutationFn: (patient: WirePatient) => deletePatient(patient.id, patient.version),
    onSuccess: (_answer, patient) => {
      message.success(`${patient.name} was deleted`);
      void queryClient.invalidateQueries({ queryKey: patientKeys.all });
    },
    onError: (error: ApiError) => {
      setActionError(error.message);
      // Refused as stale or gone: the list shows the patient as it is now.
      if (error.status === 412 || error.status === 404)
        void queryClient.invalidateQueries({ queryKey: patientKeys.all });
    },
  });

  const confirmDelete = (patient: WirePatient) =>
    modal.confirm({
      title: 'Delete patient?',
      content: `Are you sure you want to delete ${patient.name}? This cannot be undone.`,
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: () => remove.mutateAsync(patient).catch(() => undefined),
    });

  const columns: TableColumnsType<WirePatient> = [
    {
      title: 'Patient',
      key: 'name',
      sorter: true,
      sortOrder: sortOrderOf(state.sort, 'name'),
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
      render: (_, patient) => (
        <Tag color={patient.status === 'active' ? 'green' : 'default'}>{patient.status}</Tag>
      ),
    },
    {
      title: 'Actions',
      key: 'actions',
      render: (_, patient) => (
        <Space size={0} wrap>
          <Button
            type="text"
            icon={<EyeOutlined />}
            aria-label={`View ${patient.name}`}
            onClick={() => void setOpenPatient(patient.id)}
          />
          <Button
            type="text"
            icon={<EditOutlined />}
            aria-label={`Edit ${patient.name}`}
            onClick={() => setEditing({ patient })}
          />
          <Button
            type="text"
            danger
            icon={<DeleteOutlined />}
            aria-label={`Delete ${patient.name}`}
            onClick={() => confirmDelete(patient)}
          />
        </Space>
      ),
    },
  ];

  const loadError = patients.error ? (patients.error as ApiError).message : null;

  return (
    <div>
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBottom: 16 }}>
        <div>
          <PageHeading>Patients</PageHeading>
          <Typography.Text type="secondary">The clinic's patients and their visits.</Typography.Text>
        </div>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ patient: null })}>
          Add New Patient
        </Button>
      </Flex>

      <ErrorBanner message={loadError} onRetry={() => void patients.refetch()} />
      <ErrorBanner message={actionError} onClose={() => setActionError(null)} />

      <Card>
        <Flex wrap gap={12} style={{ marginBottom: 16 }}>
          <ListSearch
            label="Search patients"
            placeholder="Search patients..."
            value={state.search}
            onSearch={list.setSearch}
          />
          <Select
            aria-label="Status"
            value={state.status ?? 'all'}
            onChange={(value: string) =>
              list.setFilters({
                status: value === 'all' ? null : (value as (typeof PERSON_STATUSES)[number]),
              })
            }
            options={[
              { value: 'all', label: 'All' },
              ...PERSON_STATUSES.map((status) => ({ value: status, label: status })),
            ]}
            style={{ width: 160 }}
          />
        </Flex>
        <Table
          rowKey="id"
          columns={columns}
          dataSource={patients.data?.data ?? []}
          loading={live.loading}
          rowClassName={live.rowClassName}
          scroll={{ x: 'max-content' }}
          locale={{
            // Said only once the server has answered, never under the loading spinner.
            emptyText: emptyListText(patients, list.isFiltered, {
              noMatch: 'No patients match your search',
              none: 'No patients yet',
            }),
          }}
          pagination={tablePagination(
            state,
            patients.data?.total ?? 0,
            list.setPage,
            patients.data?.total_capped,
          )}
          onChange={(_pagination, _filters, sorter, extra) => {
            if (extra.action === 'sort') list.setFilters({ sort: sortFromTable(sorter) });
          }}
        />
      </Card>

      <PatientForm
        open={editing !== null}
        patient={editing?.patient ?? null}
        onClose={() => setEditing(null)}
        onSaved={(saved) => {
          message.success(editing?.patient ? `${saved.name} was saved` : `${saved.name} was added`);
          setEditing(null);
        }}
      />
      <PatientDetails
        patientId={openPatient}
        onClose={() => void setOpenPatient(null)}
        onEdit={(patient) => setEditing({ patient })}
      />
    </div>
  );
}
