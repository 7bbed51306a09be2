import { type Appointment, endTimeOf, timeRange, waitlistBookingUrl } from '@dental/shared';
import { formatDay } from '@dental/shared/kit';
import { Alert, Button, Flex, Typography } from '@dental/shared/ui';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { useFreedTimeMatches } from '../api/waitlist';

/** A visit's time as it was before it was cancelled, deleted or moved: what it leaves free. */
export type FreedVisit = Pick<
  Appointment,
  'dentist_id' | 'dentist_name' | 'date' | 'time' | 'end_time' | 'duration' | 'patient'
>;

export interface FillFreedTimeProps {
  /** The visit that freed its time; null: nothing was freed (the panel is not shown). */
  freed: FreedVisit | null;
  onClose: () => void;
  /** Where the appointment form goes back to once the booking is saved or cancelled. */
  returnTo?: string;
}

/**
 * "Fill this time": after a visit is cancelled, deleted or moved, the waitlisted patients its time
 * suits, best first, each with a Book that opens the appointment form prefilled for them (booked,
 * their entry leaves the waitlist).
 */
export function FillFreedTime({ freed, onClose, returnTo }: FillFreedTimeProps) {
  const navigate = useNavigate();
  const matches = useFreedTimeMatches(
    freed
      ? { dentist_id: freed.dentist_id, date: freed.date, time: freed.time, duration: freed.duration }
      : null,
  );
  if (!freed) return null;
  const when = `${formatDay(freed.date, true)} ${timeRange(freed.time, freed.end_time)} with ${freed.dentist_name}`;
  const found = matches.data?.data ?? [];
  let body: ReactNode;
  if (matches.isPending) body = <Typography.Text type="secondary">Looking at the waitlist…</Typography.Text>;
  else if (matches.isError) body = <Typography.Text type="danger">{matches.error.message}</Typography.Text>;
  else if (found.length === 0) body = 'No one on the waitlist wants this time.';
  else
    body = (
      <ol aria-label="Waitlisted patients for this time" style={{ margin: 0, paddingLeft: 20 }}>
        {found.map(({ entry, offer, wants_this_dentist }) => (
          <li key={entry.id} style={{ marginBottom: 6 }}>
            <Flex wrap gap={8} align="center" justify="space-between">
              <span>
                <Typography.Text strong>{entry.patient_name}</Typography.Text> · {entry.treatment},{' '}
                {timeRange(offer.time, endTimeOf(offer.time, offer.duration))}
                {wants_this_dentist ? ` (asked for ${offer.dentist_name})` : ''}
              </span>
              <Button
                size="small"
                type="primary"
                aria-label={`Book ${entry.patient_name} at ${offer.time}`}
                onClick={() => navigate(waitlistBookingUrl(entry, offer, returnTo))}
              >
                Book
              </Button>
            </Flex>
          </li>
        ))}
      </ol>
    );
  return (
    <Alert
      type="info"
      showIcon
      closable={{ onClose, 'aria-label': 'Close Fill this time' }}
      style={{ marginBottom: 16 }}
      title={`Fill this time: ${when}`}
      description={body}
    />
  );
}

/** Whether an edit left some of the visit's time free: moved, shortened, given to another dentist, or cancelled. */
export function leftFree(before: Appointment, after: Appointment): boolean {
  return (
    after.status === 'cancelled' ||
    after.dentist_id !== before.dentist_id ||
    after.date !== before.date ||
    after.time !== before.time ||
    after.duration < before.duration
  );
}
