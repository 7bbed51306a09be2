import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Flex, Typography } from 'antd';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { type ApiError, apiRequest } from '../api/client';
import { waitlistQueries } from '../api/waitlist';
import { endTimeOf, timeRange } from '../domain/visitTime';
import {
  channelWords,
  type FreedVisit,
  type WaitlistMatch,
  type WaitlistOfferAnswer,
  waitlistBookingUrl,
  waitlistOfferUrl,
} from '../domain/waitlist';
import { formatDay } from '../kit/format';

/** One match's offer, as the patient was told of it: an entry may be told of several freed times. */
const offerKey = ({ entry, offer }: WaitlistMatch) =>
  `${entry.id} ${offer.dentist_id} ${offer.date} ${offer.time}`;

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
 * their entry leaves the waitlist) and a Tell them that sends them the time through the outbox. Any
 * screen that cancels, deletes or moves visits shows it; the form is reached by URL.
 */
export function FillFreedTime({ freed, onClose, returnTo }: FillFreedTimeProps) {
  const navigate = useNavigate();
  // Opened from a card far down a phone's screen, the panel above the list is brought into view.
  const panel = useRef<HTMLDivElement>(null);
  const shownFor = freed ? `${freed.dentist_id} ${freed.date} ${freed.time}` : null;
  useEffect(() => {
    if (shownFor) panel.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [shownFor]);
  const { message } = App.useApp();
  const matches = useQuery(
    waitlistQueries.matches(
      freed
        ? { dentist_id: freed.dentist_id, date: freed.date, time: freed.time, duration: freed.duration }
        : null,
    ),
  );
  // The server says which offers were told (told once: it refuses a second); those told here say so at once.
  const [told, setTold] = useState<ReadonlyMap<string, string>>(() => new Map());
  const [tellError, setTellError] = useState<string | null>(null);
  const tell = useMutation({
    mutationFn: ({ entry, offer }: WaitlistMatch) =>
      apiRequest<WaitlistOfferAnswer>(
        {
          method: 'POST',
          url: waitlistOfferUrl(entry.id),
          data: { dentist_id: offer.dentist_id, date: offer.date, time: offer.time },
        },
        'Failed to tell the patient',
      ),
    onMutate: () => setTellError(null),
    onSuccess: ({ queued }, match) => {
      const by = channelWords(queued);
      setTold((current) => new Map(current).set(offerKey(match), by));
      message.success(`${match.entry.patient_name} will be told by ${by}`);
    },
    onError: (error: ApiError) => {
      setTellError(error.message);
      // Told at another desk meanwhile (409): the matches say so once read again.
      if (error.status === 409) void matches.refetch();
    },
  });

  if (!freed) return null;
  const withWhom = freed.dentist_name ? ` with ${freed.dentist_name}` : '';
  const when = `${formatDay(freed.date, true)} ${timeRange(freed.time, endTimeOf(freed.time, freed.duration))}${withWhom}`;
  const found = matches.data?.data ?? [];
  let body: ReactNode;
  if (matches.isPending) body = <Typography.Text type="secondary">Looking at the waitlist…</Typography.Text>;
  else if (matches.isError) body = <Typography.Text type="danger">{matches.error.message}</Typography.Text>;
  else if (found.length === 0) body = 'No one on the waitlist wants this time.';
  else
    body = (
      <>
        <ol aria-label="Waitlisted patients for this time" style={{ margin: 0, paddingLeft: 20 }}>
          {found.map((match) => {
            const { entry, offer, wants_this_dentist } = match;
            const toldBy = told.get(offerKey(match)) ?? (match.told && channelWords(match.told.channels));
            const telling = tell.isPending && tell.variables && offerKey(tell.variables) === offerKey(match);
            return (
              <li key={entry.id} style={{ marginBottom: 6 }}>
                <Flex wrap gap={8} align="center" justify="space-between">
                  <span>
                    <Typography.Text strong>{entry.patient_name}</Typography.Text> · {entry.treatment},{' '}
                    {timeRange(offer.time, endTimeOf(offer.time, offer.duration))}
                    {wants_this_dentist ? ` (asked for ${offer.dentist_name})` : ''}
                  </span>
                  <Flex gap={8}>
                    {toldBy ? (
                      <Typography.Text type="secondary">Told by {toldBy}</Typography.Text>
                    ) : (
                      <Button
                        size="small"
                        loading={telling}
                        disabled={tell.isPending && !telling}
                        aria-label={`Tell them: ${entry.patient_name}, ${offer.time}`}
                        onClick={() => tell.mutate(match)}
                      >
                        Tell them
                      </Button>
                    )}
                    <Button
                      size="small"
                      type="primary"
                      aria-label={`Book ${entry.patient_name} at ${offer.time}`}
                      onClick={() => navigate(waitlistBookingUrl(entry, offer, returnTo))}
                    >
                      Book
                    </Button>
                  </Flex>
                </Flex>
              </li>
            );
          })}
        </ol>
        {tellError && (
          <Typography.Text type="danger" role="alert">
            {tellError}
          </Typography.Text>
        )}
      </>
    );
  return (
    <div ref={panel}>
      <Alert
        type="info"
        showIcon
        closable={{ onClose, 'aria-label': 'Close Fill this time' }}
        style={{ marginBottom: 16 }}
        title={`Fill this time: ${when}`}
        description={body}
      />
    </div>
  );
}
