import {
  APPOINTMENT_SORTS,
  APPOINTMENT_STATUSES,
  type ApiError,
  type Appointment,
  type AppointmentStatus,
  canCompleteOn,
  timeRange,
  timeString,
} from '@dental/shared';
import {
  emptyListText,
  formatDay,
  parseAsDay,
  parseAsId,
  parseAsString,
  parseAsStringLiteral,
  sortFromTable,
  sortOrderOf,
  tablePagination,
  todayDay,
  useListState,
  useMutation,
  useQueryClient,
  useQueryState,
} from '@dental/shared/kit';
import {
  Alert,
  App,
  Badge,
  Button,
  Card,
  CarryOutOutlined,
  CheckCircleOutlined,
  CloseCircleOutlined,
  DeleteOutlined,
  EditOutlined,
  ErrorBanner,
  FilterOutlined,
  Flex,
  ListSearch,
  PageHeading,
  PlusOutlined,
  Select,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Tooltip,
  Typography,
  useLiveTable,
} from '@dental/shared/ui';
import { type ReactNode, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  appointmentKeys,
  deleteAppointment,
  invalidateAround,
  setAppointmentStatus,
  showSavedAppointment,
  useAppointment,
  useAppointments,
  useOverlapping,
} from '../api/appointments';
import { useDentistChoices } from '../api/dentists';
import {
  DATES_PARAM_VALUES,
  type DatePreset,
  DateRangeFilter,
  dayBefore,
  describeRange,
  rangeOf,
  urlOf,
} from '../components/AppointmentFilters';
import { AppointmentForm } from '../components/AppointmentForm';

const FILTERS = {
  status: parseAsStringLiteral(APPOINTMENT_STATUSES),
  dentist: parseAsId,
  from: parseAsDay,
  to: parseAsDay,
  dates: parseAsStringLiteral(DATES_PARAM_VALUES),
};

/** The status filter's choices, in the spec's order (§2: All, confirmed, pending, cancelled, completed). */
const STATUS_CHOICES = ['confirmed', 'pending', 'cancelled', 'completed'] as const;

const STATUS_COLORS: Record<AppointmentStatus, string> = {
  confirmed: 'green',
  pending: 'gold',
  cancelled: 'red',
  completed: 'blue',
};

const STATUS_DONE: Record<AppointmentStatus, string> = {
  confirmed: 'confirmed',
  pending: 'set to pending',
  cancelled: 'cancelled',
  completed: 'marked as completed',
};

const FILTER_PANEL_ID = 'appointment-date-filters';

interface StatusChange {
  appointment: Appointment;
  status: AppointmentStatus;
}

/** What sets a visit apart in the list: booked outside open hours, or overlapping another. */
function VisitMarks({ appointment }: { appointment: Appointment }) {
  if (!appointment.outside_hours && !appointment.overlapping) return null;
  return (
    <div>
      {appointment.outside_hours && (
        <Tooltip title={appointment.outside_hours_reason ?? undefined}>
          <Tag color="purple">Outside hours</Tag>
        </Tooltip>
      )}
      {appointment.overlapping && <Tag color="orange">Overlaps</Tag>}
    </div>
  );
}

/** `?new=1` opens the New Appointment form; `0`/`false` or nothing does not. */
const opensForm = (value: string | null) => value !== null && value !== '0' && value !== 'false';

/**
 * `?returnTo=/calendar?month=2026-12` sends staff back to the screen that opened the form once it is
 * saved or cancelled; only a path of this app is followed, never another site.
 */
const returnPathOf = (value: string | null) =>
  value?.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') ? value : null;

/** Appointments (spec §2): the clinic's appointments, searched, filtered, sorted and paged by the server. */
export default function AppointmentsPage() {
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const list = useListState({ sorts: APPOINTMENT_SORTS, filters: FILTERS });
  const { state, setPage } = list;
  const today = todayDay();
  const range = rangeOf(state, today);

  const [newParam, setNewParam] = useQueryState('new', parseAsString.withOptions({ history: 'push' }));
  const [patientParam, setPatientParam] = useQueryState(
    'patient',
    parseAsId.withOptions({ history: 'push' }),
  );
  const [dateParam, setDateParam] = useQueryState('date', parseAsDay.withOptions({ history: 'push' }));
  const [timeParam, setTimeParam] = useQueryState('time', parseAsString.withOptions({ history: 'push' }));
  const overlapping = useOverlapping();
  const [returnParam] = useQueryState('returnTo', parseAsString);
  const returnTo = returnPathOf(returnParam);
  const navigate = useNavigate();
  const creating = opensForm(newParam);
  const [editing, setEditing] = useState<Appointment | null>(null);
  // Another screen opens one appointment by its URL (`?appointment=12`): it opens in the edit form.
  const [linkedId, setLinkedId] = useQueryState('appointment', parseAsId.withOptions({ history: 'push' }));
  const linked = useAppointment(linkedId);
  const linkedError = linked.error ? (linked.error as ApiError).message : null;
  useEffect(() => {
    if (linked.data && linked.data.id === linkedId) setEditing(linked.data);
  }, [linked.data, linkedId]);

  const [actionError, setActionError] = useState<string | null>(null);
  const [busyIds, setBusyIds] = useState<ReadonlySet<number>>(() => new Set());
  const hasDateFilter = state.from !== null || state.to !== null || state.dates !== null;
  const [showDates, setShowDates] = useState(hasDateFilter);

  const appointments = useAppointments({
    page: state.page,
    limit: state.pageSize,
    search: state.search || undefined,
    status: state.status ?? undefined,
    dentist_id: state.dentist ?? undefined,
    from: range.from ?? undefined,
    to: range.to ?? undefined,
    sort: state.sort,
  });
  const dentists = useDentistChoices();

  // Another desk's changes update the rows in place; a row they bring in is marked for a moment.
  const live = useLiveTable(appointments, state);

  // A page emptied by a delete goes back to the last page that has rows.
  const total = appointments.data?.total ?? 0;
  const rows = appointments.data?.data ?? [];
  useEffect(() => {
    if (appointments.isFetching || rows.length > 0 || state.page === 1 || total === 0) return;
    setPage(Math.max(1, Math.ceil(total / state.pageSize)), state.pageSize);
  }, [appointments.isFetching, rows.length, state.page, state.pageSize, total, setPage]);

  const markBusy = (id: number, busy: boolean) =>
    setBusyIds((current) => {
      const next = new Set(current);
      if (busy) next.add(id);
      else next.delete(id);
      return next;
    });

  const changeStatus = useMutation({
    // The visit as the row showed it: changed or deleted at another desk meanwhile, it is refused.
    mutationFn: ({ appointment, status }: StatusChange) =>
      setAppointmentStatus(appointment.id, status, appointment.version),
    onMutate: ({ appointment }) => {
      setActionError(null);
      markBusy(appointment.id, true);
    },
    onSettled: (_answer, _error, { appointment }) => markBusy(appointment.id, false),
    onSuccess: (saved) => {
      showSavedAppointment(queryClient, saved);
      message.success(`The appointment of ${saved.patient} is ${STATUS_DONE[saved.status]}`);
    },
    onError: (error: ApiError) => {
      setActionError(error.message);
      // Changed or gone meanwhile: the list shows what the server now holds; nothing is retried.
      if (error.status === 404 || error.status === 412)
        void queryClient.invalidateQueries({ queryKey: appointmentKeys.all });
    },
  });

  const remove = useMutation({
    mutationFn: (appointment: Appointment) => deleteAppointment(appointment.id, appointment.version),
    onMutate: (appointment) => {
      setActionError(null);
      markBusy(appointment.id, true);
    },
    onSettled: (_answer, _error, appointment) => markBusy(appointment.id, false),
    onSuccess: (_answer, appointment) => {
      message.success(`The appointment of ${appointment.patient} was deleted`);
      void queryClient.invalidateQueries({ queryKey: appointmentKeys.all });
      invalidateAround(queryClient);
    },
    onError: (error: ApiError) => {
      setActionError(error.message);
      if (error.status === 404 || error.status === 412)
        void queryClient.invalidateQueries({ queryKey: appointmentKeys.all });
    },
  });

  const confirmDelete = (appointment: Appointment) =>
    modal.confirm({
      title: 'Delete appointment?',
      content: `Are you sure you want to delete the appointment of ${appointment.patient} on ${formatDay(appointment.date)} at ${appointment.time}? This cannot be undone.`,
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: () => remove.mutateAsync(appointment).catch(() => undefined),
    });

  const openNew = () => {
    setEditing(null);
    void setNewParam('1');
  };
  const closeForm = () => {
    setEditing(null);
    if (returnTo) {
      navigate(returnTo);
      return;
    }
    if (linkedId !== null) void setLinkedId(null);
    if (newParam !== null || patientParam !== null || dateParam !== null || timeParam !== null) {
      void setNewParam(null);
      void setPatientParam(null);
      void setDateParam(null);
      void setTimeParam(null);
    }
  };

  const choosePreset = (preset: DatePreset) => {
    const from = preset === 'upcoming' ? today : null;
    const to = preset === 'past' ? dayBefore(today) : null;
    // The past reads best newest first; the other views run forward in time.
    let sort: string | null | undefined;
    if (preset === 'past' && state.sort === 'date') sort = '-date';
    if (preset !== 'past' && state.sort === '-date') sort = null;
    list.setFilters({ ...urlOf(from, to, today), ...(sort !== undefined ? { sort } : {}) });
  };

  const action = (
    appointment: Appointment,
    label: string,
    icon: ReactNode,
    onClick: () => void,
    options: { disabled?: boolean; danger?: boolean } = {},
  ) => (
    <Tooltip title={label}>
      <Button
        type="text"
        size="small"
        danger={options.danger}
        icon={icon}
        aria-label={`${label} appointment of ${appointment.patient}`}
        disabled={options.disabled || busyIds.has(appointment.id)}
        onClick={onClick}
      />
    </Tooltip>
  );

  const columns: TableColumnsType<Appointment> = [
    {
      title: 'Patient',
      key: 'patient',
      sorter: true,
      sortOrder: sortOrderOf(state.sort, 'patient'),
      render: (_, appointment) => (
        <div>
          <Typography.Text strong>{appointment.patient}</Typography.Text>
          <br />
          <Typography.Text type="secondary">{appointment.phone}</Typography.Text>
        </div>
      ),
    },
    {
      title: 'Dentist',
      key: 'dentist',
      sorter: true,
      sortOrder: sortOrderOf(state.sort, 'dentist'),
      render: (_, appointment) => (
        <div>
          <div>{appointment.dentist_name}</div>
          <Typography.Text type="secondary">ID: {appointment.dentist_id}</Typography.Text>
        </div>
      ),
    },
    {
      title: 'Date & Time',
      key: 'date',
      sorter: true,
      sortOrder: sortOrderOf(state.sort, 'date'),
      render: (_, appointment) => (
        <div style={{ whiteSpace: 'nowrap' }}>
          <div>{formatDay(appointment.date, true)}</div>
          <Typography.Text type="secondary">
            {timeRange(appointment.time, appointment.end_time)}
          </Typography.Text>
          <VisitMarks appointment={appointment} />
        </div>
      ),
    },
    {
      title: 'Treatment',
      key: 'treatment',
      render: (_, appointment) => (
        <div style={{ maxWidth: 220 }}>
          <div>{appointment.treatment}</div>
          {appointment.notes && (
            <Typography.Text type="secondary" style={{ whiteSpace: 'pre-wrap' }}>
              {appointment.notes}
            </Typography.Text>
          )}
        </div>
      ),
    },
    {
      title: 'Status',
      key: 'status',
      sorter: true,
      sortOrder: sortOrderOf(state.sort, 'status'),
      render: (_, appointment) => <Tag color={STATUS_COLORS[appointment.status]}>{appointment.status}</Tag>,
    },
    {
      title: 'Actions',
      key: 'actions',
      render: (_, appointment) => (
        <Space size={2}>
          {action(
            appointment,
            'Confirm',
            <CheckCircleOutlined />,
            () => changeStatus.mutate({ appointment, status: 'confirmed' }),
            { disabled: appointment.status === 'confirmed' },
          )}
          {action(
            appointment,
            'Cancel',
            <CloseCircleOutlined />,
            () => changeStatus.mutate({ appointment, status: 'cancelled' }),
            { disabled: appointment.status === 'cancelled' },
          )}
          {action(
            appointment,
            'Complete',
            <CarryOutOutlined />,
            () => changeStatus.mutate({ appointment, status: 'completed' }),
            {
              // A visit is completed once it has taken place (the server says the same).
              disabled:
                appointment.status === 'completed' ||
                appointment.status === 'cancelled' ||
                !canCompleteOn(appointment.date, today),
            },
          )}
          {action(appointment, 'Edit', <EditOutlined />, () => setEditing(appointment))}
          {action(appointment, 'Delete', <DeleteOutlined />, () => confirmDelete(appointment), {
            danger: true,
          })}
        </Space>
      ),
    },
  ];

  const loadError = appointments.error ? (appointments.error as ApiError).message : null;
  const dentistsError = dentists.error ? (dentists.error as ApiError).message : null;
  const dateFilterCount = range.preset === 'upcoming' ? 0 : 1;

  return (
    <div>
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBottom: 16 }}>
        <div>
          <PageHeading>Appointments</PageHeading>
          <Typography.Text type="secondary">Book, confirm and follow the clinic's visits.</Typography.Text>
        </div>
        <Button type="primary" icon={<PlusOutlined />} onClick={openNew}>
          New Appointment
        </Button>
      </Flex>

      <ErrorBanner message={loadError} onRetry={() => void appointments.refetch()} />
      <ErrorBanner message={linkedError} onClose={() => void setLinkedId(null)} />
      <ErrorBanner message={dentistsError} onRetry={() => void dentists.refetch()} />
      <ErrorBanner message={actionError} onClose={() => setActionError(null)} />
      {overlapping.data && overlapping.data.total > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={`${overlapping.data.total === 1 ? '1 visit overlaps' : `${overlapping.data.total} visits overlap`} another visit of its dentist or patient`}
          description={
            <div>
              <Typography.Paragraph style={{ marginBottom: 8 }}>
                They were booked before overlapping visits were refused. Move or cancel one of each: no new
                overlap can be made.
              </Typography.Paragraph>
              <ul aria-label="Overlapping visits" style={{ margin: 0, paddingLeft: 20 }}>
                {overlapping.data.data.map((visit) => (
                  <li key={visit.id}>
                    <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setEditing(visit)}>
                      {`${formatDay(visit.date, true)} ${timeRange(visit.time, visit.end_time)}, ${visit.patient} with ${visit.dentist_name}`}
                    </Button>
                  </li>
                ))}
              </ul>
            </div>
          }
        />
      )}

      <Card>
        <Flex wrap gap={12} style={{ marginBottom: 16 }}>
          <ListSearch
            label="Search appointments"
            placeholder="Search appointments..."
            value={state.search}
            onSearch={list.setSearch}
          />
          <Select
            aria-label="Status"
            value={state.status ?? 'all'}
            onChange={(value: string) =>
              list.setFilters({ status: value === 'all' ? null : (value as AppointmentStatus) })
            }
            options={[
              { value: 'all', label: 'All' },
              ...STATUS_CHOICES.map((status) => ({ value: status, label: status })),
            ]}
            style={{ flex: '1 1 110px', maxWidth: 160 }}
          />
          <Select
            aria-label="Dentist"
            value={state.dentist ?? 'all'}
            loading={dentists.isPending}
            onChange={(value: number | 'all') => list.setFilters({ dentist: value === 'all' ? null : value })}
            options={[
              { value: 'all', label: 'All dentists' },
              ...(dentists.data?.data ?? []).map((dentist) => ({ value: dentist.id, label: dentist.name })),
              // A dentist in the URL who is not (yet) in the list still reads as chosen.
              ...(state.dentist !== null &&
              !dentists.data?.data.some((dentist) => dentist.id === state.dentist)
                ? [{ value: state.dentist, label: `Dentist ${state.dentist}` }]
                : []),
            ]}
            popupMatchSelectWidth={false}
            style={{ flex: '1 1 150px', maxWidth: 240 }}
          />
          <Badge count={dateFilterCount} size="small">
            <Button
              icon={<FilterOutlined />}
              aria-expanded={showDates}
              aria-controls={FILTER_PANEL_ID}
              onClick={() => setShowDates((shown) => !shown)}
            >
              Filter
            </Button>
          </Badge>
          {list.isFiltered && <Button onClick={list.reset}>Clear filters</Button>}
        </Flex>

        {showDates && (
          <DateRangeFilter
            id={FILTER_PANEL_ID}
            range={range}
            onPreset={choosePreset}
            onRange={(from, to) => list.setFilters(urlOf(from, to, today))}
          />
        )}

        <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
          {describeRange(range)}
        </Typography.Paragraph>

        <Table
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={rows}
          loading={live.loading}
          rowClassName={live.rowClassName}
          scroll={{ x: 'max-content' }}
          locale={{
            // Said only once the server has answered, never under the loading spinner.
            emptyText: emptyListText(appointments, list.isFiltered, {
              noMatch: 'No appointments match these filters',
              none: 'No upcoming appointments',
            }),
          }}
          pagination={tablePagination(state, total, list.setPage, appointments.data?.total_capped)}
          onChange={(_pagination, _filters, sorter, extra) => {
            if (extra.action === 'sort') list.setFilters({ sort: sortFromTable(sorter) });
          }}
        />
      </Card>

      <AppointmentForm
        open={creating || editing !== null}
        appointment={editing}
        patientId={creating && !editing ? patientParam : null}
        date={creating && !editing ? dateParam : null}
        time={creating && !editing && timeString.safeParse(timeParam).success ? timeParam : null}
        dentistId={state.dentist}
        onClose={closeForm}
        onSaved={(saved) => {
          message.success(
            editing
              ? `The appointment of ${saved.patient} was saved`
              : `Appointment booked for ${saved.patient} on ${formatDay(saved.date)} at ${timeRange(saved.time, saved.end_time)}`,
          );
          closeForm();
        }}
      />
    </div>
  );
}
