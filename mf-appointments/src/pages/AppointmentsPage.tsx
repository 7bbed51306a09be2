import {
  APPOINTMENT_SORTS,
  APPOINTMENT_STATUSES,
  type FreedVisit,
  leftFree,
  timeRange,
} from '@dental/shared';
import {
  formatDay,
  parseAsDay,
  parseAsId,
  parseAsStringLiteral,
  todayDay,
  useListState,
} from '@dental/shared/kit';
import { App, Badge, Button, ErrorBanner, FilterOutlined, Typography } from '@dental/shared/ui';
import {
  ClearFilters,
  FillFreedTime,
  FilterChoicesError,
  ListFilters,
  ListPage,
  listQueryOf,
} from '@dental/shared/ui/lists';
import { useEffect, useState } from 'react';
import { useAppointments } from '../api/appointments';
import { useDentistChoices } from '../api/dentists';
import { appointmentColumns } from '../components/AppointmentColumns';
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
import { useAppointmentActions } from '../components/AppointmentRowActions';
import { useAppointmentFormUrl } from '../components/appointmentFormUrl';
import { OverlapsBanner } from '../components/OverlapsBanner';

const FILTERS = {
  status: parseAsStringLiteral(APPOINTMENT_STATUSES),
  dentist: parseAsId,
  from: parseAsDay,
  to: parseAsDay,
  dates: parseAsStringLiteral(DATES_PARAM_VALUES),
};

/** The status filter, its choices in the product's order (All, confirmed, pending, cancelled, completed: docs/product.md, Screens). */
const STATUS_FILTER = {
  name: 'status',
  label: 'Status',
  allLabel: 'All',
  choices: ['confirmed', 'pending', 'cancelled', 'completed'],
  width: [110, 160],
} as const;

const FILTER_PANEL_ID = 'appointment-date-filters';

/** Appointments (docs/product.md, Screens): the clinic's appointments, searched, filtered, sorted and paged by the server. */
export default function AppointmentsPage() {
  const { message } = App.useApp();
  const list = useListState({ sorts: APPOINTMENT_SORTS, filters: FILTERS });
  const { state, setPage } = list;
  const today = todayDay();
  const range = rangeOf(state, today);
  const form = useAppointmentFormUrl();
  // The time a visit cancelled, deleted or moved here left free: offered to the waitlist.
  const [freed, setFreed] = useState<FreedVisit | null>(null);
  const { actionError, actionsOf, dialog } = useAppointmentActions({
    today,
    onEdit: form.setEditing,
    onFreed: setFreed,
  });

  const hasDateFilter = state.from !== null || state.to !== null || state.dates !== null;
  const [showDates, setShowDates] = useState(hasDateFilter);

  const appointments = useAppointments({
    ...listQueryOf(state),
    status: state.status ?? undefined,
    dentist_id: state.dentist ?? undefined,
    from: range.from ?? undefined,
    to: range.to ?? undefined,
  });
  const dentists = useDentistChoices();

  // A page emptied by a delete goes back to the last page that has rows.
  const total = appointments.data?.total ?? 0;
  const rowCount = appointments.data?.data.length ?? 0;
  useEffect(() => {
    if (appointments.isFetching || rowCount > 0 || state.page === 1 || total === 0) return;
    setPage(Math.max(1, Math.ceil(total / state.pageSize)), state.pageSize);
  }, [appointments.isFetching, rowCount, state.page, state.pageSize, total, setPage]);

  const choosePreset = (preset: DatePreset) => {
    const from = preset === 'upcoming' ? today : null;
    const to = preset === 'past' ? dayBefore(today) : null;
    // The past reads best newest first; the other views run forward in time.
    let sort: string | null | undefined;
    if (preset === 'past' && state.sort === 'date') sort = '-date';
    if (preset !== 'past' && state.sort === '-date') sort = null;
    list.setFilters({ ...urlOf(from, to, today), ...(sort !== undefined ? { sort } : {}) });
  };

  return (
    <ListPage
      title="Appointments"
      subtitle="Book, confirm and follow the clinic's visits."
      primaryAction={{ label: 'New Appointment', onClick: form.openNew }}
      read={appointments}
      list={list}
      banners={
        <>
          <ErrorBanner message={form.linkedError} onClose={form.dismissLinked} />
          <FilterChoicesError reads={[dentists]} />
          <FillFreedTime freed={freed} onClose={() => setFreed(null)} />
        </>
      }
      actionError={actionError}
      notice={<OverlapsBanner onOpen={form.setEditing} />}
      search="Search appointments"
      filters={
        <>
          <ListFilters
            list={list}
            filters={[STATUS_FILTER, { name: 'dentist', dentists, width: [150, 240] }]}
          />
          <Badge count={range.preset === 'upcoming' ? 0 : 1} size="small">
            <Button
              icon={<FilterOutlined />}
              aria-expanded={showDates}
              aria-controls={FILTER_PANEL_ID}
              onClick={() => setShowDates((shown) => !shown)}
            >
              Filter
            </Button>
          </Badge>
          <ClearFilters list={list} />
        </>
      }
      filterDetails={
        <>
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
        </>
      }
      table={{
        columns: appointmentColumns(actionsOf),
        size: 'middle',
        empty: { noMatch: 'No appointments match these filters', none: 'No upcoming appointments' },
      }}
    >
      {dialog}
      <AppointmentForm
        open={form.open}
        appointment={form.editing}
        patientId={form.prefill.patientId}
        date={form.prefill.date}
        time={form.prefill.time}
        treatment={form.prefill.treatment}
        dentistId={form.prefill.dentistId ?? state.dentist}
        chairId={form.prefill.chairId}
        waitlistEntryId={form.prefill.waitlistEntryId}
        onClose={() => form.closeForm()}
        onSaved={(saved) => {
          const before = form.editing;
          const freedNow = before && leftFree(before, saved) ? before : null;
          // Opened from another screen (the calendar): that screen offers the freed time, back there.
          if (freedNow && !form.returnsElsewhere) setFreed(freedNow);
          // Booked from the waitlist: the time is filled.
          if (form.prefill.waitlistEntryId !== null) setFreed(null);
          message.success(
            form.editing
              ? `The appointment of ${saved.patient} was saved`
              : saved.series
                ? `${saved.series.size} visits booked for ${saved.patient}, the first on ${formatDay(saved.date)} at ${timeRange(saved.time, saved.end_time)}`
                : `Appointment booked for ${saved.patient} on ${formatDay(saved.date)} at ${timeRange(saved.time, saved.end_time)}`,
          );
          form.closeForm(freedNow);
        }}
      />
    </ListPage>
  );
}
