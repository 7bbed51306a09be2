import {
  type ApiError,
  actsForDentist,
  FREED_PARAM,
  minutesOf,
  parseFreedParam,
  type Span,
  useAuthStore,
  weekdayOf,
} from '@dental/shared';
import {
  parseAsDay,
  parseAsString,
  parseAsStringLiteral,
  todayDay,
  useQueryStates,
} from '@dental/shared/kit';
import {
  Button,
  CalendarOutlined,
  Card,
  ErrorBanner,
  Flex,
  PageHeading,
  PlusOutlined,
  Spin,
  Typography,
} from '@dental/shared/ui';
import { Segmented } from '@dental/shared/ui/forms';
import { FillFreedTime } from '@dental/shared/ui/lists';
import { useMemo, useState } from 'react';
import { useChairs, useDentistChoices, useOpenHours, usePracticeHours } from '../api/calendar';
import { useHeldTimes } from '../api/heldTimes';
import { CalendarFeedDialog } from '../components/CalendarFeedDialog';
import {
  CalendarPeriodBar,
  type CalendarView,
  CalendarViewHint,
  parseAsCalendarView,
  periodNameOf,
  periodShown,
} from '../components/CalendarPeriodBar';
import { monthOfDay, parseAsMonth, shiftDay, shiftMonth, weekOf } from '../components/calendarMonth';
import { DayPanel } from '../components/DayPanel';
import { MonthGrid } from '../components/MonthGrid';
import { MoveAppointmentForm } from '../components/MoveAppointmentForm';
import { type TimeColumn, TimeGrid } from '../components/TimeGrid';
import { chairColumns, dentistColumns, weekColumns } from '../components/timeColumns';
import { useAppointmentLinks } from '../components/useAppointmentLinks';
import { useCalendarMove } from '../components/useCalendarMove';
import { useCalendarVisits } from '../components/useCalendarVisits';
import './calendar.css';

/** Without a dentist's open hours the grid cannot shade the closed time: it says so rather than look all free. */
const OPEN_HOURS_UNREAD =
  "The dentists' open hours could not be read: the times are shown without their closed hours shaded.";

/** The Day view's columns: a dentist's each, or a chair's each. */
const COLUMNS_BY = ['dentist', 'chair'] as const;

const URL_STATE = {
  month: parseAsMonth,
  by: parseAsStringLiteral(COLUMNS_BY),
  day: parseAsDay,
  dentist: parseAsString,
  view: parseAsCalendarView,
  // The time a visit moved or cancelled from here left free (FREED_PARAM): offered to the waitlist.
  [FREED_PARAM]: parseAsString,
};

/** Calendar (docs/product.md, Screens): a month of the clinic's appointments, one request a month, and the selected day. */
export default function CalendarPage() {
  const ownDentistId = useAuthStore((state) => state.user?.dentistId ?? null);
  const user = useAuthStore((state) => state.user);
  const [feedOpen, setFeedOpen] = useState(false);
  const today = todayDay();
  const [url, setUrl] = useQueryStates(URL_STATE, { history: 'push' });

  const view: CalendarView = url.view ?? 'month';
  const { month, selected } = periodShown(view, url, today);
  const week = useMemo(() => weekOf(selected), [selected]);
  // A dentist signed in sees their own appointments unless they choose otherwise ('all').
  const dentistParam = url.dentist ?? (ownDentistId ? String(ownDentistId) : 'all');
  const dentistId = /^\d+$/.test(dentistParam) ? Number(dentistParam) : undefined;

  const { appointments, byDay, complete, fetching } = useCalendarVisits({
    month,
    week,
    weekShown: view === 'week',
    dentistId,
  });
  const dentists = useDentistChoices();
  const columnsBy = view === 'day' ? (url.by ?? 'dentist') : 'dentist';
  const chairs = useChairs(columnsBy === 'chair');
  const practice = usePracticeHours(columnsBy === 'chair');
  /** The practice's open hours on a day, from Settings: a chair's column is open in them. */
  const practiceOpenOn = (day: string): Span[] | null => {
    const hours = practice.data?.workingHours[weekdayOf(day)];
    if (!hours) return null;
    return hours.closed ? [] : [{ start: minutesOf(hours.start), end: minutesOf(hours.end) }];
  };

  // The Day view: a column per dentist (the one chosen, or every active one); the Week view: a
  // column per day, for the dentist chosen or all of them.
  const shownDentists = (dentists.data?.data ?? []).filter((dentist) =>
    dentistId ? dentist.id === dentistId : dentist.status === 'active',
  );
  const openDays =
    view === 'day' && columnsBy === 'dentist'
      ? shownDentists.map((dentist) => ({ dentistId: dentist.id, date: selected }))
      : view === 'week' && dentistId
        ? week.map((date) => ({ dentistId, date }))
        : [];
  const openHours = useOpenHours(openDays);
  const live = (date: string) => (byDay.get(date) ?? []).filter((visit) => visit.status !== 'cancelled');
  const held = useHeldTimes(selected, view === 'day').data?.data ?? [];
  const columns: TimeColumn[] =
    view === 'day'
      ? columnsBy === 'chair'
        ? chairColumns(selected, chairs.data?.data ?? [], live(selected), practiceOpenOn(selected), held)
        : dentistColumns(selected, shownDentists, live(selected), openHours.open, held)
      : weekColumns({
          week,
          today,
          selected,
          dentistId,
          dentistName: shownDentists.length === 1 ? shownDentists[0]?.name : undefined,
          visitsOf: live,
          open: openHours.open,
          onOpenDay: (day) => void setUrl({ view: 'day', day }),
        });

  const moves = useCalendarMove({
    visitsByDay: byDay,
    onMoved: (saved, freed) =>
      void setUrl(
        view === 'month'
          ? { day: saved.date, month: monthOfDay(saved.date), freed }
          : { day: saved.date, freed },
      ),
  });

  const goToMonth = (key: string) => void setUrl({ month: key, day: null });
  const { backHere, openNew, bookAt, openVisit } = useAppointmentLinks({
    view,
    month,
    selected,
    dentist: url.dentist,
    dentistId,
    freed: url.freed,
    columnsBy,
  });
  const freedTime = parseFreedParam(url.freed);
  const freed = freedTime && {
    ...freedTime,
    dentist_name: dentists.data?.data.find((dentist) => dentist.id === freedTime.dentist_id)?.name,
  };
  const step = (by: number) => {
    if (view === 'month') goToMonth(shiftMonth(month, by));
    else void setUrl({ day: shiftDay(selected, by * (view === 'week' ? 7 : 1)) });
  };

  const loadError = appointments.error
    ? (appointments.error as ApiError).message
    : chairs.error
      ? (chairs.error as ApiError).message
      : null;
  // The feed of the dentist shown: a dentist's own, or any one an admin picks.
  const shownDentist = (dentists.data?.data ?? []).find((dentist) => dentist.id === dentistId);
  const feedDentist =
    shownDentist && user && actsForDentist({ role: user.role, dentistId: user.dentistId }, shownDentist.id)
      ? { id: shownDentist.id, name: shownDentist.name }
      : null;

  return (
    <div>
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBottom: 16 }}>
        <div>
          <PageHeading>Calendar</PageHeading>
          <Typography.Text type="secondary">The clinic's appointments by month, week or day.</Typography.Text>
        </div>
        <Flex wrap gap={8}>
          {feedDentist && (
            <Button icon={<CalendarOutlined />} onClick={() => setFeedOpen(true)}>
              Calendar Feed
            </Button>
          )}
          <Button type="primary" icon={<PlusOutlined />} onClick={openNew}>
            New Appointment
          </Button>
        </Flex>
      </Flex>

      <ErrorBanner
        message={loadError}
        onRetry={() => void (appointments.error ? appointments.refetch() : chairs.refetch())}
      />
      <ErrorBanner message={moves.actionError} onClose={moves.clearActionError} />
      <ErrorBanner
        message={openHours.failed && view !== 'month' ? OPEN_HOURS_UNREAD : null}
        onRetry={openHours.retry}
      />
      <FillFreedTime freed={freed} onClose={() => void setUrl({ freed: null })} returnTo={backHere(true)} />

      <Flex wrap gap={16} align="start">
        {/* The Day and Week views take the whole width; the day's list goes below them. */}
        <Card
          className="calendar-month"
          style={{ flex: view === 'month' ? '3 1 560px' : '1 1 100%', minWidth: 0 }}
        >
          <CalendarPeriodBar
            view={view}
            month={month}
            week={week}
            selected={selected}
            today={today}
            onStep={step}
            onToday={() => void setUrl({ month: null, day: null })}
            onView={(next) =>
              void setUrl({ view: next === 'month' ? null : next, day: selected, month: null })
            }
            dentistId={dentistId}
            dentists={dentists.data?.data ?? []}
            dentistsLoading={dentists.isPending}
            onDentist={(value) => void setUrl({ dentist: String(value) })}
          />
          {view === 'day' && (
            <Segmented
              aria-label="Columns of the day"
              className="calendar-columns-by"
              value={columnsBy}
              options={[
                { label: 'By dentist', value: 'dentist' },
                { label: 'By chair', value: 'chair' },
              ]}
              onChange={(value) => void setUrl({ by: value === 'chair' ? 'chair' : null })}
            />
          )}
          <Spin
            spinning={fetching || (columnsBy === 'chair' && chairs.isPending)}
            aria-label={`Loading the ${periodNameOf(view)}`}
          >
            {view === 'month' ? (
              <MonthGrid
                month={month}
                today={today}
                selected={selected}
                byDay={byDay}
                onSelect={(day) => void setUrl({ day, month: monthOfDay(day) })}
                onDropAppointment={moves.dropOnDay}
              />
            ) : (
              <TimeGrid
                columns={columns}
                columnsName={view === 'day' ? (columnsBy === 'chair' ? 'chairs' : 'dentists') : 'days'}
                shownKey={view === 'week' ? `day-${selected}` : undefined}
                showDentist={(view === 'week' && !dentistId) || columnsBy === 'chair'}
                dentistPart={columnsBy === 'chair'}
                onOpenVisit={openVisit}
                onBookAt={bookAt}
                onDropVisit={moves.dropOnTime}
              />
            )}
          </Spin>
          {!complete && (
            <Typography.Text type="secondary">
              This month has {appointments.data?.total} appointments; the first{' '}
              {appointments.data?.data.length} are shown.
            </Typography.Text>
          )}
          <CalendarViewHint view={view} />
        </Card>
        <div style={{ flex: '1 1 280px', minWidth: 0 }}>
          <DayPanel
            day={selected}
            appointments={byDay.get(selected) ?? []}
            loading={appointments.isPending && !appointments.isError}
            failed={appointments.isError && !appointments.data}
            onNew={openNew}
            onMove={moves.openMove}
          />
        </div>
      </Flex>

      <CalendarFeedDialog dentist={feedOpen ? feedDentist : null} onClose={() => setFeedOpen(false)} />
      <MoveAppointmentForm
        appointment={moves.moving}
        saving={moves.saving}
        onClose={moves.closeMove}
        dentists={(dentists.data?.data ?? []).filter((dentist) => dentist.status === 'active')}
        onMove={moves.moveInForm}
      />
    </div>
  );
}
