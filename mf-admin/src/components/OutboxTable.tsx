import {
  type ApiError,
  OUTBOX_KIND_LABELS,
  OUTBOX_SHOWN_DAYS,
  OUTBOX_STATES,
  type OutboxState,
  type WireOutboxMessage,
} from '@dental/shared';
import { useMutation, useQueryClient } from '@dental/shared/kit';
import { Button, ErrorBanner, Flex, Tag, Typography } from '@dental/shared/ui';
import { Select } from '@dental/shared/ui/forms';
import { Table, type TableColumnsType } from '@dental/shared/ui/lists';
import { useEffect, useRef, useState } from 'react';
import { outboxKeys, retryMessage, useOutbox } from '../api/settings';

const STATE_COLORS: Record<OutboxState, string> = {
  pending: 'blue',
  sent: 'green',
  failed: 'red',
  skipped: 'default',
};
const whenFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The admin's outbox: what was sent, to whom and when, what failed and why, with Send again. */
export function OutboxTable() {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [state, setState] = useState<OutboxState | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const tableBox = useRef<HTMLDivElement>(null);
  // On a phone the table scrolls sideways in antd's content box; a page of skipped messages holds no
  // button to tab to, so the box itself takes the keyboard's focus to be scrolled without a mouse.
  useEffect(() => {
    const content = tableBox.current?.querySelector('.ant-table-content');
    if (!content || content.hasAttribute('tabindex')) return;
    content.setAttribute('tabindex', '0');
    content.setAttribute('role', 'region');
    content.setAttribute('aria-label', 'Outbox messages');
  });
  const messages = useOutbox({ page, ...(state ? { state } : {}) }, true);

  const retry = useMutation({
    mutationFn: (message: WireOutboxMessage) => retryMessage(message.id),
    onSuccess: () => {
      setError(null);
      void queryClient.invalidateQueries({ queryKey: outboxKeys.all });
    },
    onError: (failure: ApiError) => setError(failure.message),
  });

  const columns: TableColumnsType<WireOutboxMessage> = [
    {
      title: 'When',
      key: 'when',
      render: (_, message) => (
        <div>
          <div>{whenFormat.format(new Date(message.sent_at ?? message.due_at))}</div>
          <Typography.Text type="secondary">{message.sent_at ? 'sent' : 'due'}</Typography.Text>
        </div>
      ),
    },
    { title: 'Message', key: 'kind', render: (_, message) => OUTBOX_KIND_LABELS[message.kind] },
    { title: 'To', key: 'recipient', render: (_, message) => message.recipient || '(none)' },
    {
      title: 'State',
      key: 'state',
      render: (_, message) => (
        <div>
          <Tag color={STATE_COLORS[message.state]}>{message.state}</Tag>
          {(message.reason || message.last_error) && (
            <div>
              <Typography.Text type="secondary">{message.reason ?? message.last_error}</Typography.Text>
            </div>
          )}
        </div>
      ),
    },
    { title: 'Tries', key: 'attempts', render: (_, message) => message.attempts },
    {
      title: 'Actions',
      key: 'actions',
      render: (_, message) =>
        message.state === 'failed' ? (
          <Button
            size="small"
            loading={retry.isPending && retry.variables?.id === message.id}
            aria-label={`Send again the ${OUTBOX_KIND_LABELS[message.kind].toLowerCase()} to ${message.recipient}`}
            onClick={() => retry.mutate(message)}
          >
            Send again
          </Button>
        ) : null,
    },
  ];

  return (
    <Flex vertical gap={12}>
      <ErrorBanner
        message={messages.isError ? (messages.error as ApiError).message : error}
        onClose={() => setError(null)}
      />
      <Flex wrap gap={12} align="center" justify="space-between">
        <Typography.Text type="secondary">The last {OUTBOX_SHOWN_DAYS} days, newest first.</Typography.Text>
        <Select
          aria-label="Message state"
          value={state ?? 'all'}
          onChange={(value: string) => {
            setPage(1);
            setState(value === 'all' ? undefined : (value as OutboxState));
          }}
          options={[
            { value: 'all', label: 'All states' },
            ...OUTBOX_STATES.map((each) => ({ value: each, label: each })),
          ]}
          style={{ width: 160 }}
        />
      </Flex>
      {messages.data && messages.data.total === 0 ? (
        // No table for nothing: its six empty columns would be wider than a phone.
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          No messages in these days.
        </Typography.Paragraph>
      ) : (
        <div ref={tableBox}>
          <Table
            rowKey="id"
            size="small"
            columns={columns}
            dataSource={messages.data?.data ?? []}
            loading={messages.isFetching && !messages.data}
            scroll={{ x: 'max-content' }}
            locale={{
              emptyText: messages.isPending || messages.isError ? ' ' : 'No messages in these days',
            }}
            pagination={{
              current: page,
              pageSize: 10,
              total: messages.data?.total ?? 0,
              showSizeChanger: false,
              onChange: setPage,
            }}
          />
        </div>
      )}
    </Flex>
  );
}
