import { type Appointment, FREED_PARAM } from '@dental/shared';
import { useNavigate } from 'react-router-dom';
import type { CalendarView } from './CalendarPeriodBar';
import type { TimeColumn } from './TimeGrid';

/** The calendar as it is shown: what the way back to it from the appointment form keeps. */
export interface CalendarShown {
  view: CalendarView;
  month: string;
  selected: string;
  /** The dentist chosen in the URL (`all`, an id, or none). */
  dentist: string | null;
  /** The dentist whose appointments are shown, when one is. */
  dentistId: number | undefined;
  /** The freed time the calendar offers to the waitlist (its URL value). */
  freed: string | null;
  /** The Day view's columns: by dentist (the default) or by chair. */
  columnsBy: 'dentist' | 'chair';
}

/** The Appointments screen's form opened by URL from the calendar, coming back to it as it was. */
export function useAppointmentLinks({
  view,
  month,
  selected,
  dentist,
  dentistId,
  freed,
  columnsBy,
}: CalendarShown) {
  const navigate = useNavigate();
  /**
   * Back here as the calendar was; with the time offered to the waitlist still offered, unless
   * `filled` (a booking from the waitlist fills it).
   */
  const backHere = (filled = false) => {
    const params = new URLSearchParams();
    if (view !== 'month') params.set('view', view);
    if (view === 'month') params.set('month', month);
    params.set('day', selected);
    if (dentist) params.set('dentist', dentist);
    if (columnsBy === 'chair') params.set('by', 'chair');
    if (freed && !filled) params.set(FREED_PARAM, freed);
    return `/calendar?${params}`;
  };
  const openForm = (params: Record<string, string>, withDentist?: number, withChair?: number | null) => {
    const query = new URLSearchParams({ ...params, returnTo: backHere() });
    if (withDentist) query.set('dentist', String(withDentist));
    if (withChair) query.set('chair', String(withChair));
    navigate(`/appointments?${query}`);
  };
  return {
    backHere,
    openNew: () => openForm({ new: '1', date: selected }, dentistId),
    bookAt: (column: TimeColumn, time: string) =>
      openForm({ new: '1', date: column.date, time }, column.dentistId ?? dentistId, column.chairId),
    openVisit: (visit: Appointment) => openForm({ appointment: String(visit.id) }),
  };
}
