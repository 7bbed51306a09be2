import {
  type ApiError,
  AVAILABILITY_SORTS,
  managesDaysOf,
  useAuthStore,
  type WireAvailability,
} from '@dental/shared';
import {
  formatDay,
  parseAsDay,
  parseAsString,
  tablePagination,
  todayDay,
  useListState,
  useMutation,
  useQueryClient,
} from '@dental/shared/kit';
import {
  App,
  Button,
  Card,
  Col,
  Empty,
  ErrorBanner,
  Flex,
  Input,
  PageHeading,
  Pagination,
  PlusOutlined,
  Row,
  ScheduleOutlined,
  Select,
  Spin,
  Typography,
  useRowArrivals,
} from '@dental/shared/ui';
import { useMemo, useState } from 'react';
import { deleteAvailability, refreshAvailability, updateSlot, useAvailability } from '../api/availability';
import { useDentistChoices } from '../api/calendar';
import { AvailabilityCard } from '../components/AvailabilityCard';
import { AvailabilityForm } from '../components/AvailabilityForm';
import { FillRangeForm } from '../components/FillRangeForm';

const FILTERS = { dentist: parseAsString, date: parseAsDay };

/**
 * Availability (spec §2): one card per dentist and date, filtered by dentist and date in the URL,
 * from today on unless a date is chosen. A dentist sees their own days first and changes only those.
 */
export default function AvailabilityPage() {
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const user = useAuthStore((state) => state.user);
  const ownDentistId = user?.role === 'dentist' ? user.dentistId : null;
  const list = useListState({ sorts: AVAILABILITY_SORTS, filters: FILTERS });
  const { state } = list;
  const today = todayDay();

  const dentistParam = state.dentist ?? (ownDentistId ? String(ownDentistId) : 'all');
  const dentistId = /^\d+$/.test(dentistParam) ? Number(dentistParam) : undefined;
  const days = useAvailability({
    page: state.page,
    limit: state.pageSize,
    dentist_id: dentistId,
    ...(state.date ? { date: state.date } : { from: today }),
    sort: state.sort,
  });
  // The form starts from the filters once per opening, not on every render.
  const formStart = useMemo(() => ({ dentistId, date: state.date ?? undefined }), [dentistId, state.date]);
  const dentists = useDentistChoices();
  const dentistList = dentists.data?.data ?? [];

  const [editing, setEditing] = useState<{ day: WireAvailability | null } | null>(null);
  const [filling, setFilling] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [pendingSlot, setPendingSlot] = useState<string | null>(null);

  const mayChange = (day: WireAvailability) =>
    user !== null && managesDaysOf({ role: user.role, dentistId: user.dentistId }, day.dentist_id);

  const toggle = useMutation({
    mutationFn: ({
      day,
      slot,
    }: {
      day: WireAvailability;
      slot: { start: string; end: string; available: boolean };
    }) =>
      // The day as the card showed it: changed or deleted at another desk meanwhile, it is refused.
      updateSlot(day.id, { start: slot.start, end: slot.end, available: !slot.available }, day.version),
    onMutate: ({ slot }) => setPendingSlot(`${slot.start}-${slot.end}`),
    onSuccess: (_saved, { slot }) => {
      setActionError(null);
      message.success(`Slot ${slot.start}-${slot.end} ${slot.available ? 'closed' : 'reopened'}`);
      refreshAvailability(queryClient);
    },
    onError: (error: ApiError) => {
      setActionError(error.message);
      // Refused as stale or gone: the cards show the days as they are now.
      if (error.status === 412 || error.status === 404) refreshAvailability(queryClient);
    },
    onSettled: () => setPendingSlot(null),
  });

  const remove = useMutation({
    mutationFn: (day: WireAvailability) => deleteAvailability(day.id, day.version),
    onSuccess: (_answer, day) => {
      setActionError(null);
      message.success(`Availability of ${day.dentist_name} on ${formatDay(day.date)} was deleted`);
      refreshAvailability(queryClient);
    },
    onError: (error: ApiError) => {
      setActionError(error.message);
      if (error.status === 412 || error.status === 404) refreshAvailability(queryClient);
    },
  });

  const confirmDelete = (day: WireAvailability) =>
    modal.confirm({
      title: 'Delete availability?',
      content: `Are you sure you want to delete the availability of ${day.dentist_name} on ${formatDay(day.date, true)}?`,
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: () => remove.mutateAsync(day).catch(() => undefined),
    });

  const shown = days.data?.data ?? [];
  // Another desk's changes update the cards in place; a day they bring in is marked for a moment.
  const arrival = useRowArrivals(
    days.isPlaceholderData ? undefined : days.data?.data,
    state,
    (day) => day.id,
  );
  const total = days.data?.total ?? 0;
  const filtered = state.date !== null || state.dentist !== null;

  return (
    <div>
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBottom: 16 }}>
        <div>
          <PageHeading>Availability</PageHeading>
          <Typography.Text type="secondary">
            The dentists' time slots, day by day. Click a slot to close or reopen it.
          </Typography.Text>
        </div>
        <Flex wrap gap={8}>
          <Button icon={<ScheduleOutlined />} onClick={() => setFilling(true)}>
            Fill Dates
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ day: null })}>
            Add Availability
          </Button>
        </Flex>
      </Flex>

      <ErrorBanner
        message={days.isError ? (days.error as ApiError).message : null}
        onRetry={() => void days.refetch()}
      />
      <ErrorBanner message={actionError} onClose={() => setActionError(null)} />

      <Card style={{ marginBottom: 16 }}>
        <Flex wrap gap={12} align="end">
          <Flex vertical gap={4} style={{ flex: '1 1 200px', maxWidth: 280 }}>
            <Typography.Text aria-hidden>Dentist</Typography.Text>
            <Select
              aria-label="Dentist"
              value={dentistId ?? 'all'}
              onChange={(value: number | 'all') => list.setFilters({ dentist: String(value) })}
              options={[
                { value: 'all', label: 'All dentists' },
                ...dentistList.map((dentist) => ({ value: dentist.id, label: dentist.name })),
              ]}
            />
          </Flex>
          <Flex vertical gap={4} style={{ flex: '1 1 150px', maxWidth: 200 }}>
            <label htmlFor="availability-date">Date</label>
            <Input
              id="availability-date"
              type="date"
              value={state.date ?? ''}
              onChange={(event) => list.setFilters({ date: event.target.value || null })}
            />
          </Flex>
          <Button onClick={list.reset} disabled={!filtered}>
            Clear Filters
          </Button>
        </Flex>
        <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8 }}>
          {state.date ? `Showing ${formatDay(state.date, true)}.` : `Showing ${formatDay(today)} onwards.`}
        </Typography.Text>
      </Card>

      {days.isPending ? (
        <Flex justify="center" style={{ padding: 48 }}>
          <Spin aria-label="Loading availability" />
        </Flex>
      ) : days.isError && !days.data ? null : shown.length === 0 ? (
        <Card>
          <Empty
            description={
              filtered
                ? 'No availability matches these filters'
                : 'No availability set from today on: Add Availability or Fill Dates'
            }
          />
        </Card>
      ) : (
        <Row gutter={[16, 16]} aria-busy={days.isFetching}>
          {shown.map((day) => (
            <Col key={day.id} xs={24} md={12} xl={8} className={arrival(day)}>
              <AvailabilityCard
                day={day}
                editable={mayChange(day)}
                pendingSlot={toggle.isPending && toggle.variables?.day.id === day.id ? pendingSlot : null}
                onToggleSlot={(chosen, slot) => toggle.mutate({ day: chosen, slot })}
                onEdit={(chosen) => setEditing({ day: chosen })}
                onDelete={confirmDelete}
              />
            </Col>
          ))}
        </Row>
      )}

      {total > 0 && (
        <Flex justify="end" style={{ marginTop: 16 }}>
          <Pagination {...tablePagination(state, total, list.setPage)} />
        </Flex>
      )}

      <AvailabilityForm
        open={editing !== null}
        day={editing?.day ?? null}
        dentists={dentistList}
        ownDentistId={ownDentistId}
        initial={formStart}
        onClose={() => setEditing(null)}
        onSaved={(saved) => {
          message.success(
            `Availability of ${saved.dentist_name} on ${formatDay(saved.date)} was ${editing?.day ? 'saved' : 'added'}`,
          );
          setEditing(null);
        }}
      />
      <FillRangeForm
        open={filling}
        dentists={dentistList}
        ownDentistId={ownDentistId}
        initialDentistId={dentistId}
        onClose={() => setFilling(false)}
        onFilled={(result, dentistName) => {
          const added = result.created.length;
          const kept = result.kept.length;
          message.success(
            `${dentistName}: ${added} ${added === 1 ? 'day' : 'days'} added` +
              (kept ? `, ${kept} already set and kept` : ''),
          );
          setFilling(false);
        }}
      />
    </div>
  );
}
