import { type ApiError, type Appointment, actsForDentist, useAuthStore } from '@dental/shared';
import {
  formatDay,
  parseAsDay,
  parseAsString,
  todayDay,
  useMutation,
  useQueryClient,
  useQueryStates,
} from '@dental/shared/kit';
import {
  App,
  Button,
  CalendarOutlined,
  Card,
  ErrorBanner,
  Flex,
  LeftOutlined,
  PageHeading,
  PlusOutlined,
  RightOutlined,
  Select,
  Spin,
  Typography,
} from '@dental/shared/ui';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { moveAppointment, useCalendarMonth, useDentistChoices } from '../api/calendar';
import { CalendarFeedDialog } from '../components/CalendarFeedDialog';
import { monthOf, monthOfDay, monthTitle, parseAsMonth, shiftMonth } from '../components/calendarMonth';
import { DayPanel } from '../components/DayPanel';
import { MonthGrid } from '../components/MonthGrid';
import { MoveAppointmentForm } from '../components/MoveAppointmentForm';
import './calendar.css';

const URL_STATE = { month: parseAsMonth, day: parseAsDay, dentist: parseAsString };

/** Calendar (spec §2): a month of the clinic's appointments, one request a month, and the selected day. */
export default function CalendarPage() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const ownDentistId = useAuthStore((state) => state.user?.dentistId ?? null);
  const user = useAuthStore((state) => state.user);
  const [feedOpen, setFeedOpen] = useState(false);
  const today = todayDay();
  const [url, setUrl] = useQueryStates(URL_STATE, { history: 'push' });

  const month = url.month ?? (url.day ? monthOfDay(url.day) : monthOfDay(today));
  const selected =
    url.day && monthOfDay(url.day) === month ? url.day : monthOfDay(today) === month ? today : `${month}-01`;
  // A dentist signed in sees their own appointments unless they choose otherwise ('all').
  const dentistParam = url.dentist ?? (ownDentistId ? String(ownDentistId) : 'all');
  const dentistId = /^\d+$/.test(dentistParam) ? Number(dentistParam) : undefined;

  const { year, month: monthNumber } = monthOf(month);
  const appointments = useCalendarMonth({ month: monthNumber, year, dentist_id: dentistId });
  const dentists = useDentistChoices();

  const byDay = useMemo(() => {
    const days = new Map<string, Appointment[]>();
    for (const appointment of appointments.data?.data ?? []) {
      const list = days.get(appointment.date);
      if (list) list.push(appointment);
      else days.set(appointment.date, [appointment]);
    }
    return days;
  }, [appointments.data]);
  const complete = (appointments.data?.total ?? 0) <= (appointments.data?.data.length ?? 0);

  const [moving, setMoving] = useState<Appointment | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const move = useMutation({
    mutationFn: ({ appointment, to }: { appointment: Appointment; to: { date: string; time: string } }) =>
      moveAppointment(appointment, to),
    onMutate: () => setActionError(null),
    onSuccess: (saved) => {
      message.success(
        `The appointment of ${saved.patient} is now on ${formatDay(saved.date)} at ${saved.time}`,
      );
      setMoving(null);
      void queryClient.invalidateQueries({ queryKey: ['appointments'] });
      void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
      void setUrl({ day: saved.date, month: monthOfDay(saved.date) });
    },
    // The appointment stays where the server keeps it: nothing moved on screen before its answer.
    onError: (error: ApiError) => {
      setMoving(null);
      setActionError(error.message);
    },
  });

  const dropOn = (appointmentId: number, day: string) => {
    const appointment = appointments.data?.data.find((candidate) => candidate.id === appointmentId);
    if (!appointment || appointment.date === day || move.isPending) return;
    move.mutate({ appointment, to: { date: day, time: appointment.time } });
  };

  const goToMonth = (key: string) => void setUrl({ month: key, day: null });
  const openNew = () => {
    const back = `/calendar?month=${month}&day=${selected}${url.dentist ? `&dentist=${url.dentist}` : ''}`;
    const params = new URLSearchParams({ new: '1', date: selected, returnTo: back });
    if (dentistId) params.set('dentist', String(dentistId));
    navigate(`/appointments?${params}`);
  };

  const loadError = appointments.error ? (appointments.error as ApiError).message : null;
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
          <Typography.Text type="secondary">The clinic's appointments, month by month.</Typography.Text>
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

      <ErrorBanner message={loadError} onRetry={() => void appointments.refetch()} />
      <ErrorBanner message={actionError} onClose={() => setActionError(null)} />

      <Flex wrap gap={16} align="start">
        <Card className="calendar-month" style={{ flex: '3 1 560px', minWidth: 0 }}>
          <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 12 }}>
            <Flex align="center" gap={4} wrap>
              <Button
                icon={<LeftOutlined />}
                aria-label="Previous month"
                onClick={() => goToMonth(shiftMonth(month, -1))}
              />
              <Typography.Title
                level={3}
                style={{ margin: '0 4px', minWidth: 130, textAlign: 'center' }}
                aria-live="polite"
              >
                {monthTitle(month)}
              </Typography.Title>
              <Button
                icon={<RightOutlined />}
                aria-label="Next month"
                onClick={() => goToMonth(shiftMonth(month, 1))}
              />
              {monthOfDay(today) !== month && (
                <Button type="link" onClick={() => void setUrl({ month: null, day: null })}>
                  Today
                </Button>
              )}
            </Flex>
            <Select
              aria-label="Dentist"
              value={dentistId ?? 'all'}
              loading={dentists.isPending}
              onChange={(value: number | 'all') => void setUrl({ dentist: String(value) })}
              options={[
                { value: 'all', label: 'All dentists' },
                ...(dentists.data?.data ?? []).map((dentist) => ({ value: dentist.id, label: dentist.name })),
              ]}
              style={{ width: 220, maxWidth: '100%' }}
            />
          </Flex>
          <Spin spinning={appointments.isFetching} aria-label="Loading the month">
            <MonthGrid
              month={month}
              today={today}
              selected={selected}
              byDay={byDay}
              onSelect={(day) => void setUrl({ day, month: monthOfDay(day) })}
              onDropAppointment={dropOn}
            />
          </Spin>
          {!complete && (
            <Typography.Text type="secondary">
              This month has {appointments.data?.total} appointments; the first{' '}
              {appointments.data?.data.length} are shown.
            </Typography.Text>
          )}
          <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
            Drag an appointment onto another day to move it, or use Move beside it in the day's list.
          </Typography.Paragraph>
        </Card>
        <div style={{ flex: '1 1 280px', minWidth: 0 }}>
          <DayPanel
            day={selected}
            appointments={byDay.get(selected) ?? []}
            loading={appointments.isPending}
            onNew={openNew}
            onMove={setMoving}
          />
        </div>
      </Flex>

      <CalendarFeedDialog dentist={feedOpen ? feedDentist : null} onClose={() => setFeedOpen(false)} />
      <MoveAppointmentForm
        appointment={moving}
        saving={move.isPending}
        onClose={() => setMoving(null)}
        onMove={(appointment, to) => move.mutate({ appointment, to })}
      />
    </div>
  );
}
