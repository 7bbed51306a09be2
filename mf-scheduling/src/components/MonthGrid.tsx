import type { Appointment } from '@dental/shared';
import { VisuallyHidden } from '@dental/shared/ui';
import { type KeyboardEvent, useRef } from 'react';
import { monthWeeks, shiftDay } from './calendarMonth';

/** At most this many appointments are written in a day's cell (docs/product.md, Constants and limits); the rest are '+N more'. */
export const CELL_APPOINTMENTS = 2;

const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export interface MonthGridProps {
  month: string;
  today: string;
  selected: string;
  byDay: ReadonlyMap<string, Appointment[]>;
  onSelect: (day: string) => void;
  /** An appointment dropped on another day (drag and drop). */
  onDropAppointment: (appointmentId: number, day: string) => void;
}

const dayNumber = (day: string) => Number(day.slice(8));
const longDay = new Intl.DateTimeFormat('en-US', {
  weekday: 'long',
  month: 'long',
  day: 'numeric',
  year: 'numeric',
});
const labelOf = (day: string) => {
  const [year, month, date] = day.split('-').map(Number);
  return longDay.format(new Date(year ?? 1970, (month ?? 1) - 1, date ?? 1));
};

/**
 * The month grid of docs/product.md, Screens: Calendar: Sunday to Saturday, today highlighted, up to two
 * appointments a day as 'time - patient' and '+N more'. A day is a button (arrow keys move between
 * days); an appointment can be dragged onto another day.
 */
export function MonthGrid({ month, today, selected, byDay, onSelect, onDropAppointment }: MonthGridProps) {
  const weeks = monthWeeks(month);
  const grid = useRef<HTMLTableElement>(null);

  const focusDay = (day: string) => {
    onSelect(day);
    // The day may be in another month: the grid re-renders first, then the button exists.
    requestAnimationFrame(() =>
      grid.current?.querySelector<HTMLButtonElement>(`[data-day="${day}"]`)?.focus(),
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, day: string) => {
    const moves: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };
    const by = moves[event.key];
    if (by === undefined) return;
    event.preventDefault();
    focusDay(shiftDay(day, by));
  };

  return (
    // A grid to assistive technology (the APG date grid): rows of day cells, the selected one marked,
    // arrows between them.
    // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: an ARIA grid is a table by design
    <table ref={grid} className="calendar-grid" role="grid" aria-label="Month">
      <thead>
        <tr>
          {WEEKDAY_NAMES.map((name) => (
            <th key={name} scope="col" abbr={name}>
              <span className="calendar-weekday-long">{name.slice(0, 3)}</span>
              <span className="calendar-weekday-short" aria-hidden>
                {name.slice(0, 1)}
              </span>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {weeks.map((week) => (
          <tr key={week.find(Boolean) ?? 'week'}>
            {week.map((day, index) => {
              if (!day)
                return (
                  // biome-ignore lint/a11y/useFocusableInteractive: a day of another month: nothing to focus
                  <td
                    key={WEEKDAY_NAMES[index]}
                    // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a grid's cells are table cells
                    role="gridcell"
                    className="calendar-cell calendar-cell-empty"
                  />
                );
              const appointments = byDay.get(day) ?? [];
              const shown = appointments.slice(0, CELL_APPOINTMENTS);
              const more = appointments.length - shown.length;
              const classes = ['calendar-cell'];
              if (day === today) classes.push('calendar-today');
              if (day === selected) classes.push('calendar-selected');
              return (
                // The cell is a gridcell of the month; its day button is what takes focus (roving tabindex).
                // biome-ignore lint/a11y/useFocusableInteractive: the day button inside the cell takes focus
                <td
                  key={day}
                  className={classes.join(' ')}
                  // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a grid's cells are table cells
                  role="gridcell"
                  aria-selected={day === selected}
                  onDragOver={(event) => {
                    if (event.dataTransfer.types.includes('application/x-appointment'))
                      event.preventDefault();
                  }}
                  onDrop={(event) => {
                    const id = Number(event.dataTransfer.getData('application/x-appointment'));
                    if (id) {
                      event.preventDefault();
                      onDropAppointment(id, day);
                    }
                  }}
                >
                  <button
                    type="button"
                    className="calendar-day"
                    data-day={day}
                    aria-pressed={day === selected}
                    aria-current={day === today ? 'date' : undefined}
                    tabIndex={day === selected ? 0 : -1}
                    onClick={() => onSelect(day)}
                    onKeyDown={(event) => onKeyDown(event, day)}
                  >
                    {/* Named by its content, which begins with what it shows (WCAG 2.5.3): the day's
                        number, then, unseen, its count and date; the count badge is not read twice. */}
                    <span className="calendar-day-number">{dayNumber(day)}</span>
                    <VisuallyHidden>
                      {`, ${
                        appointments.length === 0
                          ? 'no appointments'
                          : `${appointments.length} appointment${appointments.length === 1 ? '' : 's'}`
                      }, ${labelOf(day)}${day === today ? ', today' : ''}`}
                    </VisuallyHidden>
                    {appointments.length > 0 && (
                      <span className="calendar-count" aria-hidden>
                        {appointments.length}
                      </span>
                    )}
                  </button>
                  <ul className="calendar-entries">
                    {shown.map((appointment) => (
                      <li
                        key={appointment.id}
                        className={`calendar-entry calendar-entry-${appointment.status}`}
                        draggable={appointment.status !== 'cancelled'}
                        onDragStart={(event) => {
                          event.dataTransfer.setData('application/x-appointment', String(appointment.id));
                          event.dataTransfer.effectAllowed = 'move';
                        }}
                        title={`${appointment.time} - ${appointment.patient} (${appointment.status})`}
                      >
                        {appointment.time} - {appointment.patient}
                      </li>
                    ))}
                    {more > 0 && <li className="calendar-more">+{more} more</li>}
                  </ul>
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
