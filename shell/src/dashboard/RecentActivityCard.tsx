import type { ActivityRecord, ApiError } from '@dental/shared';
import { initialsOf, useNow } from '@dental/shared/kit';
import { Avatar, Card, Empty, ErrorBanner, Typography } from '@dental/shared/ui';
import { useRecentActivity } from './dashboardApi';
import { fullTime, timeAgo } from './relativeTime';

/** How many of the records read the card shows; the bell reads the same request. */
const SHOWN = 8;

export function ActivityWhen({ record, now }: { record: ActivityRecord; now: number }) {
  return (
    <time dateTime={record.created_at} title={fullTime(record.created_at)}>
      {timeAgo(record.created_at, now)}
    </time>
  );
}

/** The clinic's latest changes, who did what and when (the audit log the server keeps). */
export function RecentActivityCard() {
  const activity = useRecentActivity();
  const now = useNow();
  const records = activity.data ?? [];

  return (
    <Card title="Recent Activity" className="dashboard-activity">
      {activity.isPending ? (
        <Typography.Text role="status">Loading activity...</Typography.Text>
      ) : activity.isError && !activity.data ? (
        <ErrorBanner message={(activity.error as ApiError).message} onRetry={() => void activity.refetch()} />
      ) : records.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No recent activity" />
      ) : (
        <ol className="activity-list" aria-label="Recent activity">
          {records.slice(0, SHOWN).map((record) => (
            <li key={record.id} className="activity-list__item">
              <Avatar size="small" className="activity-list__avatar" aria-hidden>
                {initialsOf(record.user_name ?? 'System')}
              </Avatar>
              <span className="activity-list__text">
                <Typography.Text>{record.description}</Typography.Text>
                <Typography.Text type="secondary" className="activity-list__when">
                  <ActivityWhen record={record} now={now} />
                </Typography.Text>
              </span>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}
