import type { Appointment } from '@dental/shared';
import { useMemo } from 'react';
import { useCalendarMonth } from '../api/calendar';
import { monthOf, monthOfDay } from './calendarMonth';

/**
 * The visits a Calendar view shows, by day: the month's (`month`, '2026-12'), and, when the Week view's
 * week reaches into the month before or after, that month's too (one request a month, as ever).
 * `appointments` is the month's read (its error, paging and retry); `complete` says whether it came whole.
 */
export function useCalendarVisits({
  month,
  week,
  weekShown,
  dentistId,
}: {
  month: string;
  week: readonly string[];
  weekShown: boolean;
  dentistId: number | undefined;
}) {
  const { year, month: monthNumber } = monthOf(month);
  const appointments = useCalendarMonth({ month: monthNumber, year, dentist_id: dentistId });
  const firstMonth = weekShown && week[0] ? monthOfDay(week[0]) : month;
  const lastMonth = weekShown && week[6] ? monthOfDay(week[6]) : month;
  const otherMonth = firstMonth !== month ? firstMonth : lastMonth !== month ? lastMonth : null;
  const other = monthOf(otherMonth ?? month);
  const otherAppointments = useCalendarMonth(
    { month: other.month, year: other.year, dentist_id: dentistId },
    otherMonth !== null,
  );

  const byDay = useMemo(() => {
    const days = new Map<string, Appointment[]>();
    const all = [
      ...(appointments.data?.data ?? []),
      ...(otherMonth !== null ? (otherAppointments.data?.data ?? []) : []),
    ];
    for (const appointment of all) {
      const list = days.get(appointment.date);
      if (list) list.push(appointment);
      else days.set(appointment.date, [appointment]);
    }
    return days;
  }, [appointments.data, otherAppointments.data, otherMonth]);
  const complete = (appointments.data?.total ?? 0) <= (appointments.data?.data.length ?? 0);
  return {
    appointments,
    byDay,
    complete,
    fetching: appointments.isFetching || otherAppointments.isFetching,
  };
}
