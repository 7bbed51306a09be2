import {
  type Appointment,
  bookedOnlineLabel,
  type HeldTime,
  minutesOf,
  type Span,
  spansOverlap,
  timeOfMinutes,
  timeRange,
} from '@dental/shared';
import { useNow } from '@dental/shared/kit';
import { type CSSProperties, type DragEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { HeldBlock, heldSpan, stillHeld } from './HeldOnline';

/** The Day and Week views' scale: a row every 15 minutes, this many pixels high. */
export const ROW_MINUTES = 15;
const ROW_PX = 20;
const PX_PER_MINUTE = ROW_PX / ROW_MINUTES;
/** The hours shown when no open time or visit asks for more. */
const FIRST_HOUR = 8;
const LAST_HOUR = 18;

/** One column of the grid: a dentist's day (Day view) or a day of the week (Week view). */
export interface TimeColumn {
  key: string;
  title: ReactNode;
  /** What a screen reader calls the column and its cells: 'Dr. Sarah Johnson, Tuesday, December 8'. */
  label: string;
  date: string;
  /** The dentist the column books for, when it is one dentist's. */
  dentistId: number | null;
  /** The chair the column books into, when it is one chair's (the Day view by chair). */
  chairId?: number | null;
  visits: Appointment[];
  /** Times patients hold on the booking page in this column (the Day view). */
  held?: HeldTime[];
  /** The dentist's open time that day, or null when it is not one dentist's (not shaded). */
  open: Span[] | null;
}

export interface TimeGridProps {
  columns: TimeColumn[];
  /** What the columns are, for the hint that more lie sideways on a narrow screen: 'dentists'. */
  columnsName: string;
  /** The column to bring into view where the columns scroll sideways (the Week view's selected day). */
  shownKey?: string;
  /** Names the dentist on each visit (a column holds several dentists' visits). */
  showDentist?: boolean;
  /** Shades the minutes of each visit the dentist is needed (the Day view by chair). */
  dentistPart?: boolean;
  onOpenVisit: (visit: Appointment) => void;
  /** Free time clicked: a new visit there. */
  onBookAt: (column: TimeColumn, time: string) => void;
  /** A visit dragged onto a time of a column. */
  onDropVisit: (visitId: number, column: TimeColumn, time: string) => void;
}

const VISIT_TYPE = 'application/x-appointment';

const spanOf = (visit: Appointment): Span => {
  const start = minutesOf(visit.time);
  return { start, end: start + visit.duration };
};

/** Visits side by side where they overlap (another dentist's, or ones kept overlapping): lane and lanes. */
function lanesOf(visits: Appointment[]): Map<number, { lane: number; lanes: number }> {
  const placed = new Map<number, { lane: number; lanes: number }>();
  const sorted = [...visits].sort((a, b) => a.time.localeCompare(b.time) || a.id - b.id);
  let group: Appointment[] = [];
  let groupEnd = -1;
  let laneEnds: number[] = [];
  const close = () => {
    for (const visit of group) {
      const found = placed.get(visit.id);
      if (found) found.lanes = laneEnds.length;
    }
    group = [];
    laneEnds = [];
  };
  for (const visit of sorted) {
    const span = spanOf(visit);
    if (span.start >= groupEnd) close();
    let lane = laneEnds.findIndex((end) => end <= span.start);
    if (lane < 0) lane = laneEnds.push(span.end) - 1;
    else laneEnds[lane] = span.end;
    placed.set(visit.id, { lane, lanes: 1 });
    group.push(visit);
    groupEnd = Math.max(groupEnd, span.end);
  }
  close();
  return placed;
}

/** The hours the grid spans: the usual day, widened to every open stretch and visit shown. */
function hoursOf(columns: TimeColumn[]): Span {
  let start = FIRST_HOUR * 60;
  let end = LAST_HOUR * 60;
  for (const column of columns) {
    for (const span of column.open ?? []) {
      start = Math.min(start, span.start);
      end = Math.max(end, span.end);
    }
    for (const visit of column.visits) {
      const span = spanOf(visit);
      start = Math.min(start, span.start);
      end = Math.max(end, Math.min(span.end, 24 * 60));
    }
  }
  return { start: Math.floor(start / 60) * 60, end: Math.ceil(end / 60) * 60 };
}

/** Whether the element's content is wider than it shows: on a phone, columns lie beyond the edge. */
function useWiderThanShown<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [wider, setWider] = useState(false);
  useEffect(() => {
    const element = ref.current;
    // Without layout (a test's DOM) nothing is measured, so nothing is hinted.
    if (!element || typeof ResizeObserver === 'undefined') return;
    const measure = () => setWider(element.scrollWidth > element.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    for (const child of Array.from(element.children)) observer.observe(child);
    measure();
    return () => observer.disconnect();
  }, []);
  return [ref, wider] as const;
}

/**
 * The minutes of a visit its dentist is needed, shaded inside its block; a visit that needs them
 * throughout shades it all. Hidden from screen readers: the block's label says it in words.
 */
function DentistPart({ visit }: { visit: Appointment }) {
  const from = visit.dentist_from ?? 0;
  const to = visit.dentist_to ?? visit.duration;
  return (
    <span
      className="timegrid-visit-dentist"
      aria-hidden
      style={{ top: `${(from / visit.duration) * 100}%`, height: `${((to - from) / visit.duration) * 100}%` }}
    />
  );
}

/** What a visit's block says of its dentist's part, for a screen reader: 'dentist 10:10–10:50'. */
function dentistPartWords(visit: Appointment): string {
  if (visit.dentist_from === null || visit.dentist_from === undefined || !visit.dentist_to) return '';
  const start = minutesOf(visit.time);
  return `, dentist ${timeRange(timeOfMinutes(start + visit.dentist_from), timeOfMinutes(start + visit.dentist_to))}`;
}

const STATUS_CLASS: Record<string, string> = {
  confirmed: 'timegrid-visit-confirmed',
  pending: 'timegrid-visit-pending',
  completed: 'timegrid-visit-completed',
};

/**
 * The Day and Week views' grid: a column per dentist or per day on a 15-minute scale, each live
 * visit a block from its start to its end, the dentist's open time white and the rest shaded. Free
 * time is a button that books there; a visit is dragged onto another time or column to move it
 * (the side panel's Move is the keyboard's way).
 */
export function TimeGrid({
  columns,
  columnsName,
  shownKey,
  showDentist = false,
  dentistPart = false,
  onOpenVisit,
  onBookAt,
  onDropVisit,
}: TimeGridProps) {
  const hours = hoursOf(columns);
  const rows: number[] = [];
  for (let minute = hours.start; minute < hours.end; minute += ROW_MINUTES) rows.push(minute);
  const height = (hours.end - hours.start) * PX_PER_MINUTE;

  const [scroller, widerThanShown] = useWiderThanShown<HTMLDivElement>();
  // Held times count down by the minute and let go by themselves.
  const now = useNow(15_000);
  useEffect(() => {
    const element = scroller.current;
    if (!element || !shownKey || !widerThanShown) return;
    const column = element.querySelector<HTMLElement>(`[data-column="${CSS.escape(shownKey)}"]`);
    const gutter = element.querySelector<HTMLElement>('.timegrid-gutter');
    if (column) element.scrollLeft = column.offsetLeft - (gutter?.offsetWidth ?? 0);
  }, [scroller, shownKey, widerThanShown]);
  // While a visit is dragged, the visits let the pointer through to the times beneath them.
  const [dragging, setDragging] = useState(false);
  const acceptsVisit = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes(VISIT_TYPE)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
  };
  /** The row of the column under the pointer: a drop lands at its start. */
  const dropAt = (event: DragEvent<HTMLElement>, column: TimeColumn) => {
    const id = Number(event.dataTransfer.getData(VISIT_TYPE));
    setDragging(false);
    if (!id) return;
    event.preventDefault();
    const offset = event.clientY - event.currentTarget.getBoundingClientRect().top;
    if (!Number.isFinite(offset)) return;
    const row = Math.max(0, Math.min(rows.length - 1, Math.floor(offset / ROW_PX)));
    onDropVisit(id, column, timeOfMinutes(hours.start + row * ROW_MINUTES));
  };

  return (
    <>
      {widerThanShown && (
        <p className="timegrid-more">
          Scroll sideways to see all {columns.length} {columnsName}.
        </p>
      )}
      <div
        ref={scroller}
        className={`timegrid${dragging ? ' timegrid-dragging' : ''}`}
        style={{ '--timegrid-columns': columns.length } as CSSProperties}
      >
        <div className="timegrid-head">
          <div className="timegrid-gutter" />
          {columns.map((column) => (
            <div key={column.key} className="timegrid-title" data-column={column.key}>
              {column.title}
            </div>
          ))}
        </div>
        <div className="timegrid-body">
          <div className="timegrid-gutter" style={{ height }} aria-hidden>
            {rows
              .filter((minute) => minute % 60 === 0)
              .map((minute) => (
                <div
                  key={minute}
                  className="timegrid-hour"
                  style={{ top: (minute - hours.start) * PX_PER_MINUTE }}
                >
                  {timeOfMinutes(minute)}
                </div>
              ))}
          </div>
          {columns.map((column) => {
            const lanes = lanesOf(column.visits);
            // A chair's column is busy through each visit's turnover too: no booking is offered in it.
            const held = stillHeld(column.held, now);
            const busy = column.visits.map((visit) => {
              const span = spanOf(visit);
              return dentistPart ? { ...span, end: span.end + (visit.turnover ?? 0) } : span;
            });
            busy.push(...held.map(heldSpan));
            return (
              // biome-ignore lint/a11y/useSemanticElements: a group of the column's visits and free times, named for screen readers
              <div
                key={column.key}
                className="timegrid-column"
                style={{ height }}
                role="group"
                aria-label={column.label}
                onDragOver={acceptsVisit}
                onDrop={(event) => dropAt(event, column)}
              >
                {rows.map((minute) => {
                  const row = { start: minute, end: minute + ROW_MINUTES };
                  const open =
                    column.open === null ||
                    column.open.some((span) => span.start <= minute && row.end <= span.end);
                  const free = open && !busy.some((span) => spansOverlap(span, row));
                  const style = { top: (minute - hours.start) * PX_PER_MINUTE, height: ROW_PX };
                  const className = `timegrid-cell${open ? '' : ' timegrid-closed'}${minute % 60 === 0 ? ' timegrid-on-hour' : ''}`;
                  return free ? (
                    <button
                      key={minute}
                      type="button"
                      tabIndex={-1}
                      className={`${className} timegrid-free`}
                      style={style}
                      aria-label={`Book at ${timeOfMinutes(minute)}, ${column.label}`}
                      onClick={() => onBookAt(column, timeOfMinutes(minute))}
                    />
                  ) : (
                    <div key={minute} className={className} style={style} />
                  );
                })}
                {column.visits.map((visit) => {
                  const span = spanOf(visit);
                  const place = lanes.get(visit.id) ?? { lane: 0, lanes: 1 };
                  const range = timeRange(visit.time, visit.end_time);
                  const who = showDentist ? `, ${visit.dentist_name}` : '';
                  const turnover = dentistPart && visit.turnover ? visit.turnover : 0;
                  const online = bookedOnlineLabel(visit);
                  const onlineWords = online ? `, ${online.toLowerCase()}` : '';
                  return [
                    turnover > 0 && (
                      // The chair's cleaning after the visit: held, though no one is booked in it.
                      <div
                        key={`turnover-${visit.id}`}
                        className="timegrid-turnover"
                        aria-hidden
                        title={`Turnover, ${turnover} minutes`}
                        style={{
                          top: (span.end - hours.start) * PX_PER_MINUTE,
                          height: turnover * PX_PER_MINUTE,
                          left: `calc(${(place.lane / place.lanes) * 100}% + 2px)`,
                          width: `calc(${100 / place.lanes}% - 4px)`,
                        }}
                      />
                    ),
                    <button
                      key={visit.id}
                      type="button"
                      className={`timegrid-visit ${STATUS_CLASS[visit.status] ?? ''}`}
                      style={{
                        top: (span.start - hours.start) * PX_PER_MINUTE,
                        height: Math.max(visit.duration * PX_PER_MINUTE - 2, ROW_PX - 2),
                        left: `calc(${(place.lane / place.lanes) * 100}% + 2px)`,
                        width: `calc(${100 / place.lanes}% - 4px)`,
                      }}
                      draggable={visit.status !== 'completed'}
                      onDragStart={(event) => {
                        event.dataTransfer.setData(VISIT_TYPE, String(visit.id));
                        event.dataTransfer.effectAllowed = 'move';
                        // After the drag has begun: a change of style during dragstart ends it.
                        setTimeout(() => setDragging(true));
                      }}
                      onDragEnd={() => setDragging(false)}
                      onClick={() => onOpenVisit(visit)}
                      // What it shows, then its status (its colour) for a screen reader.
                      aria-label={`${range} ${visit.patient}, ${visit.treatment}${who}${dentistPart ? dentistPartWords(visit) : ''}, ${visit.status}${onlineWords}`}
                      title={`${range} ${visit.patient}, ${visit.treatment}${who}${onlineWords}`}
                    >
                      {dentistPart && <DentistPart visit={visit} />}
                      {online && (
                        <span className="timegrid-visit-online" aria-hidden>
                          Online
                        </span>
                      )}
                      <span className="timegrid-visit-time">{range}</span> {visit.patient}, <br />
                      <span className="timegrid-visit-detail">
                        {visit.treatment}
                        {who}
                      </span>
                    </button>,
                  ];
                })}
                {held.map((hold) => (
                  <HeldBlock
                    key={`held-${hold.id}`}
                    hold={hold}
                    now={now}
                    dayStart={hours.start}
                    pxPerMinute={PX_PER_MINUTE}
                    showDentist={showDentist}
                  />
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </>
  );
}
