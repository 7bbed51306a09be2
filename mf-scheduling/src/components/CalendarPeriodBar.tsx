import { formatDay, parseAsStringLiteral } from '@dental/shared/kit';
import { Button, Flex, LeftOutlined, RightOutlined, Typography } from '@dental/shared/ui';
import { Segmented, Select } from '@dental/shared/ui/forms';
import { monthOfDay, monthTitle, weekTitle } from './calendarMonth';

/**
 * The Calendar's views (a month, a week, a day) and the bar above them that chooses one, steps through
 * its periods and picks the dentist. The page keeps which one is shown in its URL.
 */

export const CALENDAR_VIEWS = ['month', 'week', 'day'] as const;
export type CalendarView = (typeof CALENDAR_VIEWS)[number];
export const parseAsCalendarView = parseAsStringLiteral(CALENDAR_VIEWS);

const VIEW_LABELS: Record<CalendarView, string> = { month: 'Month', week: 'Week', day: 'Day' };

/** What one step of a view is called: 'month', 'week', 'day' ('Previous week', 'Loading the week'). */
export const periodNameOf = (view: CalendarView) => VIEW_LABELS[view].toLowerCase();

/**
 * What a view shows, from the page's URL (`month`, `day`): the month view a month ('2026-12') and a
 * day of it, today's if it is in that month, else the 1st; the day and week views follow the day alone.
 */
export function periodShown(
  view: CalendarView,
  url: { month: string | null; day: string | null },
  today: string,
): { month: string; selected: string } {
  const month =
    view === 'month'
      ? (url.month ?? (url.day ? monthOfDay(url.day) : monthOfDay(today)))
      : monthOfDay(url.day ?? today);
  const selected =
    view !== 'month'
      ? (url.day ?? today)
      : url.day && monthOfDay(url.day) === month
        ? url.day
        : monthOfDay(today) === month
          ? today
          : `${month}-01`;
  return { month, selected };
}

export interface CalendarPeriodBarProps {
  view: CalendarView;
  /** The month shown ('2026-12'), the week of the selected day, the selected day, and today. */
  month: string;
  week: readonly string[];
  selected: string;
  today: string;
  /** A step back (-1) or on (1) by the view's period. */
  onStep: (by: number) => void;
  onToday: () => void;
  onView: (view: CalendarView) => void;
  dentistId: number | undefined;
  dentists: ReadonlyArray<{ id: number; name: string }>;
  dentistsLoading: boolean;
  onDentist: (dentist: number | 'all') => void;
}

export function CalendarPeriodBar({
  view,
  month,
  week,
  selected,
  today,
  onStep,
  onToday,
  onView,
  dentistId,
  dentists,
  dentistsLoading,
  onDentist,
}: CalendarPeriodBarProps) {
  const showsToday =
    view === 'month'
      ? monthOfDay(today) === month
      : view === 'week'
        ? week.includes(today)
        : selected === today;
  const periodTitle =
    view === 'month' ? monthTitle(month) : view === 'week' ? weekTitle(week) : formatDay(selected, true);
  const periodName = periodNameOf(view);
  return (
    <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 12 }}>
      <Flex align="center" gap={4} wrap>
        <Button icon={<LeftOutlined />} aria-label={`Previous ${periodName}`} onClick={() => onStep(-1)} />
        <Typography.Title
          level={3}
          style={{ margin: '0 4px', minWidth: 130, textAlign: 'center' }}
          aria-live="polite"
        >
          {periodTitle}
        </Typography.Title>
        <Button icon={<RightOutlined />} aria-label={`Next ${periodName}`} onClick={() => onStep(1)} />
        {!showsToday && (
          <Button type="link" onClick={onToday}>
            Today
          </Button>
        )}
      </Flex>
      <Segmented
        aria-label="View"
        value={view}
        onChange={(next) => onView(next as CalendarView)}
        options={CALENDAR_VIEWS.map((value) => ({ value, label: VIEW_LABELS[value] }))}
      />
      <Select
        aria-label="Dentist"
        value={dentistId ?? 'all'}
        loading={dentistsLoading}
        onChange={(value: number | 'all') => onDentist(value)}
        options={[
          { value: 'all', label: 'All dentists' },
          ...dentists.map((dentist) => ({ value: dentist.id, label: dentist.name })),
        ]}
        style={{ width: 220, maxWidth: '100%' }}
      />
    </Flex>
  );
}

/** How a visit is moved (and free time booked) in the view shown. */
export function CalendarViewHint({ view }: { view: CalendarView }) {
  return (
    <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
      {view === 'month'
        ? "Drag an appointment onto another day to move it, or use Move beside it in the day's list."
        : view === 'day'
          ? "Drag an appointment to another time or dentist to move it, or use Move in the day's list. Click free time to book there."
          : "Drag an appointment to another time or day to move it, or use Move in the day's list. Click free time to book there."}
    </Typography.Paragraph>
  );
}
