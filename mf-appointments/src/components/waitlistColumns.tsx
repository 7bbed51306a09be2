import {
  endTimeOf,
  ISO_WEEKDAY_LABELS,
  PART_OF_DAY_LABELS,
  timeRange,
  type WaitlistEntry,
  type WaitlistOffer,
  waitlistBookingUrl,
} from '@dental/shared';
import { formatDay } from '@dental/shared/kit';
import { Button, Typography } from '@dental/shared/ui';
import { type RowAction, rowActionsColumn, type TableColumnsType } from '@dental/shared/ui/lists';
import { Link } from 'react-router-dom';
import { useEntryFreeTimes } from '../api/waitlist';

/** Mon–Fri for a run of days, else the days one by one: 'Mon, Wed'. */
export function weekdaysText(days: readonly number[]): string {
  const sorted = [...days].sort((a, b) => a - b);
  if (sorted.length === 7) return 'Any day';
  const first = sorted[0] ?? 0;
  const last = sorted[sorted.length - 1] ?? 0;
  const run = sorted.length >= 3 && last - first === sorted.length - 1;
  return run
    ? `${ISO_WEEKDAY_LABELS[first]}–${ISO_WEEKDAY_LABELS[last]}`
    : sorted.map((day) => ISO_WEEKDAY_LABELS[day]).join(', ');
}

/** An offer as staff read it: 'Mon, 8 Mar 2027 09:00–10:00, Dr. Sarah Johnson'. */
export function offerText(offer: WaitlistOffer): string {
  return `${formatDay(offer.date, true)} ${timeRange(offer.time, endTimeOf(offer.time, offer.duration))}, ${offer.dentist_name}`;
}

/** The entry's earliest free times now, each a link to book it (the entry leaves the list once booked). */
function EntryFreeTimes({ entry, returnTo }: { entry: WaitlistEntry; returnTo: string }) {
  const free = useEntryFreeTimes(entry.id);
  if (free.isPending) return <Typography.Text type="secondary">Looking for free times…</Typography.Text>;
  if (free.isError)
    return (
      <span>
        <Typography.Text type="danger">{free.error.message}</Typography.Text>{' '}
        <Button
          type="link"
          size="small"
          loading={free.isFetching}
          onClick={() => void free.refetch()}
          aria-label={`Retry the free times of ${entry.patient_name}`}
        >
          Retry
        </Button>
      </span>
    );
  if (free.data.data.length === 0)
    return (
      <Typography.Text type="secondary">
        {free.data.searched_until
          ? `No free time until ${formatDay(free.data.searched_until)}`
          : 'Its dates have passed'}
      </Typography.Text>
    );
  return (
    <ul
      aria-label={`Free times for ${entry.patient_name}`}
      style={{ margin: 0, paddingLeft: 0, listStyle: 'none' }}
    >
      {free.data.data.map((offer) => (
        <li key={`${offer.date} ${offer.time} ${offer.dentist_id}`} style={{ marginBottom: 4 }}>
          <div>{formatDay(offer.date, true)}</div>
          {timeRange(offer.time, endTimeOf(offer.time, offer.duration))}{' '}
          <Link
            to={waitlistBookingUrl(entry, offer, returnTo)}
            aria-label={`Book ${entry.patient_name} on ${offerText(offer)}`}
          >
            Book
          </Link>
          {/* One dentist asked for: their name is in the wish already. */}
          {entry.dentist_id === null && (
            <div>
              <Typography.Text type="secondary">{offer.dentist_name}</Typography.Text>
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The Waitlist's columns: who, what, the wish, and the earliest free times that meet it now. */
export function waitlistColumns(options: {
  actionsOf: (entry: WaitlistEntry) => RowAction[];
  returnTo: string;
}) {
  const columns: TableColumnsType<WaitlistEntry> = [
    {
      title: 'Patient',
      key: 'patient',
      render: (_, entry) => (
        <div>
          <Typography.Text strong>{entry.patient_name}</Typography.Text>
          <br />
          <Typography.Text type="secondary">{entry.phone}</Typography.Text>
        </div>
      ),
    },
    {
      title: 'Wants',
      key: 'wish',
      responsive: ['sm'],
      render: (_, entry) => (
        <div style={{ maxWidth: 260 }}>
          <div>
            {entry.treatment} ({entry.duration} min), {entry.dentist_name ?? 'any dentist'}
          </div>
          <Typography.Text type="secondary">
            {weekdaysText(entry.weekdays)}, {PART_OF_DAY_LABELS[entry.part_of_day].toLowerCase()};{' '}
            {formatDay(entry.earliest_on)} to {formatDay(entry.latest_on)}
          </Typography.Text>
          {entry.note && (
            <div>
              <Typography.Text type="secondary" style={{ whiteSpace: 'pre-wrap' }}>
                {entry.note}
              </Typography.Text>
            </div>
          )}
        </div>
      ),
    },
    {
      // Short, so an empty list's headings fit a phone's width without a box to scroll.
      title: 'Free times',
      key: 'free',
      render: (_, entry) => <EntryFreeTimes entry={entry} returnTo={options.returnTo} />,
    },
    {
      title: 'Waiting since',
      key: 'created_at',
      responsive: ['lg'],
      render: (_, entry) => formatDay(entry.created_at.slice(0, 10)),
    },
    rowActionsColumn(options.actionsOf, { small: true }),
  ];
  return columns;
}
