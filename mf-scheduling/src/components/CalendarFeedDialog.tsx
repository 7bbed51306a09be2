import type { ApiError } from '@dental/shared';
import { useMutation, useQueryClient } from '@dental/shared/kit';
import { Button, ErrorBanner, Flex, Typography } from '@dental/shared/ui';
import { Input, Modal } from '@dental/shared/ui/forms';
import { useEffect, useState } from 'react';
import { feedKeys, rotateFeed, turnOffFeed, useFeedStatus } from '../api/calendar';

const sinceFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export interface CalendarFeedDialogProps {
  /** The dentist whose feed this is; null closes the dialog. */
  dentist: { id: number; name: string } | null;
  onClose: () => void;
}

/**
 * A dentist's private calendar feed: a URL a phone's calendar subscribes to. It is shown once when
 * made; making a new one stops the old one (a lost phone, a URL shared by mistake).
 */
export function CalendarFeedDialog({ dentist, onClose }: CalendarFeedDialogProps) {
  const queryClient = useQueryClient();
  const status = useFeedStatus(dentist?.id ?? null);
  const [url, setUrl] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!dentist) return;
    setUrl(null);
    setCopied(false);
    setError(null);
  }, [dentist]);

  const rotate = useMutation({
    mutationFn: () => rotateFeed(dentist?.id ?? 0),
    onSuccess: (grant) => {
      setUrl(grant.url);
      setError(null);
      void queryClient.invalidateQueries({ queryKey: feedKeys.status(grant.dentist_id) });
    },
    onError: (failure: ApiError) => setError(failure.message),
  });

  const turnOff = useMutation({
    mutationFn: () => turnOffFeed(dentist?.id ?? 0),
    onSuccess: (status) => {
      setUrl(null);
      setCopied(false);
      setError(null);
      queryClient.setQueryData(feedKeys.status(status.dentist_id), status);
    },
    onError: (failure: ApiError) => setError(failure.message),
  });

  const copy = async () => {
    if (!url) return;
    await navigator.clipboard?.writeText(url).catch(() => undefined);
    setCopied(true);
  };

  const active = status.data?.active === true;
  return (
    <Modal
      open={dentist !== null}
      title={`Calendar feed of ${dentist?.name ?? ''}`}
      onCancel={onClose}
      footer={<Button onClick={onClose}>Close</Button>}
      destroyOnHidden
    >
      <ErrorBanner message={error} onClose={() => setError(null)} />
      <Typography.Paragraph>
        Subscribe to this private address in a phone's or computer's calendar to see the appointments of the
        last 30 days and the next 180, kept up to date. It shows patients' names and treatments, never their
        phone, e-mail or notes.
      </Typography.Paragraph>
      {status.isError ? (
        // Unknown is not "none": making an address now could stop one a phone uses without a word.
        <ErrorBanner
          message={`The feed could not be read: ${status.error.message}`}
          onRetry={() => void status.refetch()}
        />
      ) : (
        <Typography.Paragraph type="secondary">
          {status.isPending
            ? 'Reading the feed...'
            : active && status.data?.created_at
              ? `A feed address has been in use since ${sinceFormat.format(new Date(status.data.created_at))}.`
              : 'No feed address is in use.'}
        </Typography.Paragraph>
      )}
      {status.isError || status.isPending ? null : url ? (
        <Flex vertical gap={8}>
          <label htmlFor="calendar-feed-url">Feed address (shown only now: copy it)</label>
          <Flex gap={8}>
            <Input id="calendar-feed-url" readOnly value={url} onFocus={(event) => event.target.select()} />
            <Button onClick={() => void copy()}>{copied ? 'Copied' : 'Copy'}</Button>
          </Flex>
        </Flex>
      ) : (
        <Button type="primary" loading={rotate.isPending} onClick={() => rotate.mutate()}>
          {active ? 'Make a new address (the old one stops working)' : 'Make a feed address'}
        </Button>
      )}
      {active && (
        <Flex style={{ marginTop: 16 }}>
          <Button danger loading={turnOff.isPending} onClick={() => turnOff.mutate()}>
            Turn the feed off
          </Button>
        </Flex>
      )}
    </Modal>
  );
}
