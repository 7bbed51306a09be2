import { apiRequest, ERROR_MESSAGES } from '@dental/shared';
import { Badge, BellOutlined, Button, Dropdown, Typography } from '@dental/shared/ui';
import { useState } from 'react';

interface ActivityRecord {
  id: number;
  description?: string;
  action?: string;
  entity?: string;
  user_name?: string;
  created_at: string;
}

function describe(record: ActivityRecord): string {
  if (record.description) return record.description;
  return [record.user_name, record.action, record.entity].filter(Boolean).join(' ');
}

/** The top bar's bell: the clinic's latest recorded changes, read when opened. */
export function NotificationBell() {
  const [records, setRecords] = useState<ActivityRecord[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = async () => {
    setError(null);
    try {
      const body = await apiRequest<ActivityRecord[] | { data: ActivityRecord[] }>(
        { method: 'GET', url: '/api/dashboard/activity', params: { limit: 8 } },
        ERROR_MESSAGES.fetchRecentActivity,
      );
      setRecords(Array.isArray(body) ? body : body.data);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : ERROR_MESSAGES.fetchRecentActivity);
    }
  };

  const items = error
    ? [{ key: 'error', disabled: true, label: <Typography.Text type="danger">{error}</Typography.Text> }]
    : records === null
      ? [{ key: 'loading', disabled: true, label: 'Loading...' }]
      : records.length === 0
        ? [{ key: 'empty', disabled: true, label: 'No recent activity' }]
        : records.map((record) => ({
            key: String(record.id),
            label: (
              <div style={{ maxWidth: 320 }}>
                <div>{describe(record)}</div>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {new Date(record.created_at).toLocaleString()}
                </Typography.Text>
              </div>
            ),
          }));

  return (
    <Dropdown
      trigger={['click']}
      menu={{ items }}
      onOpenChange={(open) => {
        if (open) void load();
      }}
    >
      <Button
        type="text"
        aria-label="Notifications"
        icon={
          <Badge dot={!!records?.length}>
            <BellOutlined />
          </Badge>
        }
      />
    </Dropdown>
  );
}
