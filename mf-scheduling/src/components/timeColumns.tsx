import type { Appointment, Chair, HeldTime, Span } from '@dental/shared';
import { formatDay } from '@dental/shared/kit';
import type { TimeColumn } from './TimeGrid';

/** A Week view column's title: 'Tue, Dec 8'. */
const weekdayAndDay = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric' });

/** The Day view's columns: one a dentist shown, each with its open hours (`open`, in the same order). */
export function dentistColumns(
  day: string,
  dentists: ReadonlyArray<{ id: number; name: string }>,
  visits: readonly Appointment[],
  open: ReadonlyArray<Span[] | null>,
  held: readonly HeldTime[] = [],
): TimeColumn[] {
  return dentists.map((dentist, index) => ({
    key: `dentist-${dentist.id}`,
    title: dentist.name,
    label: `${dentist.name}, ${formatDay(day, true)}`,
    date: day,
    dentistId: dentist.id,
    visits: visits.filter((visit) => visit.dentist_id === dentist.id),
    held: held.filter((hold) => hold.dentist_id === dentist.id),
    open: open[index] ?? null,
  }));
}

/**
 * The Day view's columns by chair: one a chair in the clinic's order, open in the practice's hours
 * of the day (`practiceOpen`, null while unknown: not shaded); one out of service is shown closed.
 */
export function chairColumns(
  day: string,
  chairs: readonly Chair[],
  visits: readonly Appointment[],
  practiceOpen: Span[] | null,
  held: readonly HeldTime[] = [],
): TimeColumn[] {
  return chairs.map((chair) => {
    const name = chair.in_service ? chair.name : `${chair.name} (out of service)`;
    return {
      key: `chair-${chair.id}`,
      title: name,
      label: `${name}, ${formatDay(day, true)}`,
      date: day,
      // Free time booked here is for the chair's own dentist, if it has one.
      dentistId: chair.default_dentist_id,
      chairId: chair.id,
      visits: visits.filter((visit) => visit.chair_id === chair.id),
      held: held.filter((hold) => hold.chair_id === chair.id),
      // Out of service: closed all day, nothing is booked or dropped into it.
      open: chair.in_service ? practiceOpen : [],
    };
  });
}

export interface WeekColumnsOptions {
  week: readonly string[];
  today: string;
  selected: string;
  /** The dentist chosen, if one is: the columns are theirs, shaded by their open hours. */
  dentistId: number | undefined;
  /** The name each column's label ends with, when only one dentist is shown. */
  dentistName: string | undefined;
  visitsOf: (day: string) => Appointment[];
  /** Each day's open hours (the chosen dentist's; none for all dentists), in the week's order. */
  open: ReadonlyArray<Span[] | null>;
  /** A day's title clicked: that day in the Day view. */
  onOpenDay: (day: string) => void;
}

/** The Week view's columns: one a day, for the dentist shown or all of them. */
export function weekColumns({
  week,
  today,
  selected,
  dentistId,
  dentistName,
  visitsOf,
  open,
  onOpenDay,
}: WeekColumnsOptions): TimeColumn[] {
  return week.map((date, index) => ({
    key: `day-${date}`,
    title: (
      <button
        type="button"
        className={`timegrid-day${date === today ? ' timegrid-today' : ''}${date === selected ? ' timegrid-selected' : ''}`}
        title="Open the Day view"
        onClick={() => onOpenDay(date)}
      >
        {weekdayAndDay.format(new Date(`${date}T00:00:00`))}
      </button>
    ),
    label: `${formatDay(date, true)}${dentistName !== undefined ? `, ${dentistName}` : ''}`,
    date,
    dentistId: dentistId ?? null,
    visits: visitsOf(date),
    open: dentistId ? (open[index] ?? null) : null,
  }));
}
