import { DATE_RANGE_MESSAGE } from '@dental/shared';
import { formatDay, todayDay } from '@dental/shared/kit';
import { Flex, Typography } from '@dental/shared/ui';
import { Input, Segmented } from '@dental/shared/ui/forms';

/** Which appointments the list covers: from today on (the default), before today, all, or a range. */
export const DATE_PRESETS = ['upcoming', 'past', 'all'] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];
/** How the URL says a preset other than the default (`?dates=past`); the default says nothing. */
export const DATES_PARAM_VALUES = ['past', 'all'] as const;

export interface DateRange {
  from: string | null;
  to: string | null;
  /** The preset this range is, or 'custom'. */
  preset: DatePreset | 'custom';
}

/** The day before a `YYYY-MM-DD` day. */
export function dayBefore(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  return todayDay(new Date(year ?? 1970, (month ?? 1) - 1, (date ?? 1) - 1));
}

/**
 * The range the list shows, from the URL: `from`/`to` when either is there, otherwise the preset
 * named by `dates` (past: up to yesterday; all: no bounds), otherwise upcoming (from today on).
 */
export function rangeOf(
  url: { from: string | null; to: string | null; dates: (typeof DATES_PARAM_VALUES)[number] | null },
  today: string,
): DateRange {
  if (url.from || url.to) {
    const { from, to } = url;
    return { from, to, preset: presetOf(from, to, today) };
  }
  if (url.dates === 'all') return { from: null, to: null, preset: 'all' };
  if (url.dates === 'past') return { from: null, to: dayBefore(today), preset: 'past' };
  return { from: today, to: null, preset: 'upcoming' };
}

function presetOf(from: string | null, to: string | null, today: string): DatePreset | 'custom' {
  if (from === today && !to) return 'upcoming';
  if (!from && to === dayBefore(today)) return 'past';
  if (!from && !to) return 'all';
  return 'custom';
}

/** The URL's `from`, `to` and `dates` for a range: a preset is written by its name, the default not at all. */
export function urlOf(from: string | null, to: string | null, today: string) {
  const preset = presetOf(from, to, today);
  if (preset === 'upcoming') return { from: null, to: null, dates: null };
  if (preset === 'past' || preset === 'all') return { from: null, to: null, dates: preset };
  return { from, to, dates: null };
}

/** What the list covers, in words. */
export function describeRange(range: DateRange): string {
  if (range.preset === 'upcoming') return 'Upcoming appointments, from today on';
  if (range.preset === 'past') return 'Past appointments, before today';
  if (range.preset === 'all') return 'Appointments of all dates';
  if (range.from && range.to) return `Appointments from ${formatDay(range.from)} to ${formatDay(range.to)}`;
  if (range.from) return `Appointments from ${formatDay(range.from)} on`;
  return `Appointments up to ${formatDay(range.to)}`;
}

export interface DateRangeFilterProps {
  id: string;
  range: DateRange;
  onPreset: (preset: DatePreset) => void;
  onRange: (from: string | null, to: string | null) => void;
}

/** The Filter button's panel: presets and a from/to range of dates. */
export function DateRangeFilter({ id, range, onPreset, onRange }: DateRangeFilterProps) {
  // A range typed (or linked) backwards is said beside the field, in the server's words.
  const backwards = !!range.from && !!range.to && range.to < range.from;
  return (
    <Flex id={id} wrap gap={12} align="end" style={{ marginBottom: 16 }}>
      <Flex vertical gap={4}>
        <Typography.Text aria-hidden>Dates</Typography.Text>
        <Segmented<DatePreset | 'custom'>
          aria-label="Dates"
          value={range.preset}
          onChange={(value) => {
            if (value !== 'custom') onPreset(value);
          }}
          options={[
            { value: 'upcoming', label: 'Upcoming' },
            { value: 'past', label: 'Past' },
            { value: 'all', label: 'All dates' },
          ]}
        />
      </Flex>
      <Flex vertical gap={4} style={{ flex: '1 1 120px', maxWidth: 180 }}>
        <label htmlFor={`${id}-from`}>From</label>
        <Input
          id={`${id}-from`}
          type="date"
          value={range.from ?? ''}
          max={range.to ?? undefined}
          onChange={(event) => onRange(event.target.value || null, range.to)}
        />
      </Flex>
      <Flex vertical gap={4} style={{ flex: '1 1 120px', maxWidth: 180 }}>
        <label htmlFor={`${id}-to`}>To</label>
        <Input
          id={`${id}-to`}
          type="date"
          value={range.to ?? ''}
          min={range.from ?? undefined}
          status={backwards ? 'error' : undefined}
          aria-invalid={backwards}
          aria-describedby={backwards ? `${id}-to-error` : undefined}
          onChange={(event) => onRange(range.from, event.target.value || null)}
        />
        {backwards && (
          <Typography.Text id={`${id}-to-error`} type="danger">
            {DATE_RANGE_MESSAGE}
          </Typography.Text>
        )}
      </Flex>
    </Flex>
  );
}
