import { AVAILABILITY_SORTS, managesDaysOf, useAuthStore, type WireAvailability } from '@dental/shared';
import {
  formatDay,
  parseAsDay,
  parseAsString,
  todayDay,
  useListState,
  useQueryClient,
} from '@dental/shared/kit';
import { App, Button, ScheduleOutlined, Typography } from '@dental/shared/ui';
import { ListPage, useActionError, useConfirmDelete, useRowAction } from '@dental/shared/ui/lists';
import { useMemo, useState } from 'react';
import { deleteAvailability, refreshAvailability, updateSlot, useAvailability } from '../api/availability';
import { useDentistChoices } from '../api/calendar';
import { AvailabilityCard } from '../components/AvailabilityCard';
import { AvailabilityFilters } from '../components/AvailabilityFilters';
import { AvailabilityForm } from '../components/AvailabilityForm';
import { FillRangeForm } from '../components/FillRangeForm';

const FILTERS = { dentist: parseAsString, date: parseAsDay };

interface SlotToggle {
  day: WireAvailability;
  slot: { start: string; end: string; available: boolean };
}

/**
 * Availability (docs/product.md, Screens): one card per dentist and date, filtered by dentist and date in the URL,
 * from today on unless a date is chosen. A dentist sees their own days first and changes only those.
 */
export default function AvailabilityPage() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const confirmDelete = useConfirmDelete();
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

  const mayChange = (day: WireAvailability) =>
    user !== null && managesDaysOf({ role: user.role, dentistId: user.dentistId }, day.dentist_id);

  // Refused as stale or gone: the cards show the days as they are now.
  const refresh = () => refreshAvailability(queryClient);
  const actionError = useActionError(refresh);
  const toggle = useRowAction({
    run: ({ day, slot }: SlotToggle) =>
      // The day as the card showed it: changed or deleted at another desk meanwhile, it is refused.
      updateSlot(day.id, { start: slot.start, end: slot.end, available: !slot.available }, day.version),
    done: (_saved, { slot }) => `Slot ${slot.start}-${slot.end} ${slot.available ? 'closed' : 'reopened'}`,
    actionError,
    refresh,
  });
  // The slot being opened or closed spins on its card.
  const toggling = toggle.isPending ? toggle.variables : undefined;

  const remove = useRowAction({
    run: (day: WireAvailability) => deleteAvailability(day.id, day.version),
    done: (_answer, day) => `Availability of ${day.dentist_name} on ${formatDay(day.date)} was deleted`,
    actionError,
    refresh,
  });

  const askDelete = (day: WireAvailability) =>
    confirmDelete(
      {
        title: 'Delete availability?',
        content: `Are you sure you want to delete the availability of ${day.dentist_name} on ${formatDay(day.date, true)}?`,
      },
      () => remove.mutateAsync(day),
    );

  const filtered = state.date !== null || state.dentist !== null;

  return (
    <ListPage
      title="Availability"
      subtitle="The dentists' time slots, day by day. Click a slot to close or reopen it."
      primaryAction={{ label: 'Add Availability', onClick: () => setEditing({ day: null }) }}
      moreActions={
        <Button icon={<ScheduleOutlined />} onClick={() => setFilling(true)}>
          Fill Dates
        </Button>
      }
      read={days}
      list={list}
      isFiltered={filtered}
      actionError={actionError}
      filterAlign="end"
      filters={
        <AvailabilityFilters
          dentistId={dentistId}
          dentists={dentistList}
          date={state.date}
          onDentist={(dentist) => list.setFilters({ dentist })}
          onDate={(date) => list.setFilters({ date })}
          filtered={filtered}
          onClear={list.reset}
        />
      }
      filterDetails={
        <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8 }}>
          {state.date ? `Showing ${formatDay(state.date, true)}.` : `Showing ${formatDay(today)} onwards.`}
        </Typography.Text>
      }
      cards={{
        loadingLabel: 'Loading availability',
        empty: {
          noMatch: 'No availability matches these filters',
          none: 'No availability set from today on: Add Availability or Fill Dates',
        },
        render: (day) => (
          <AvailabilityCard
            day={day}
            editable={mayChange(day)}
            pendingSlot={toggling?.day.id === day.id ? `${toggling.slot.start}-${toggling.slot.end}` : null}
            onToggleSlot={(chosen, slot) => toggle.mutate({ day: chosen, slot })}
            onEdit={(chosen) => setEditing({ day: chosen })}
            onDelete={askDelete}
          />
        ),
      }}
    >
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
    </ListPage>
  );
}
