import type { ApiError } from '@dental/shared';
import { useNow } from '@dental/shared/kit';
import { Badge, BellOutlined, Button, Dropdown, type MenuProps, Tag, Typography } from '@dental/shared/ui';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { countUnseen, isNewer, useActivitySeen } from '../dashboard/activitySeen';
import { ACTIVITY_LIMIT, useRecentActivity } from '../dashboard/dashboardApi';
import { ActivityWhen } from '../dashboard/RecentActivityCard';

/**
 * On a narrow screen the list slides along to stay inside the window: antd hands `shiftX` on to its
 * popup although its type names only the flips.
 */
const STAY_IN_VIEW = { adjustX: 1 as const, adjustY: 1 as const, shiftX: true };

/** How many records the bell's list shows; the badge counts every unseen record read. */
const SHOWN = 8;

/**
 * The top bar's bell: the clinic's recent changes (the same request as the dashboard's card, read
 * again as other desks change things), with a badge counting what this user has not seen yet, against
 * the marker the server keeps for them. Opening it marks them seen, in every browser of theirs.
 */
export function NotificationBell() {
  const navigate = useNavigate();
  const activity = useRecentActivity();
  const { seenId, markSeen } = useActivitySeen();
  const now = useNow();
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  // What was seen before this opening: those newer are marked 'New' while the list is open.
  const [seenBefore, setSeenBefore] = useState<number | null>(null);

  const records = activity.data ?? [];
  const unseen = countUnseen(records, seenId);
  const newest = records[0];

  // Only against a marker read from the server: it is never moved past what was not shown.
  useEffect(() => {
    if (open && newest && seenId !== null) markSeen(newest);
  }, [open, newest, seenId, markSeen]);

  const onOpenChange = (next: boolean) => {
    if (next) {
      setSeenBefore(seenId);
      void activity.refetch();
    } else {
      // Closed by Escape or a choice in the list: focus comes back to the bell, not the page's start.
      window.requestAnimationFrame(() => {
        const focused = document.activeElement;
        if (!focused || focused === document.body || focused.closest('.bell-menu'))
          buttonRef.current?.focus();
      });
    }
    setOpen(next);
  };

  const recordItems: MenuProps['items'] = records.slice(0, SHOWN).map((record) => {
    const fresh = isNewer(record, seenBefore);
    return {
      key: `activity-${record.id}`,
      label: (
        <div className="bell-item">
          <div className="bell-item__text">
            {fresh && (
              <Tag color="blue" className="bell-item__new">
                New
              </Tag>
            )}
            {record.description}
          </div>
          <Typography.Text type="secondary" className="bell-item__when">
            <ActivityWhen record={record} now={now} />
          </Typography.Text>
        </div>
      ),
      onClick: () => navigate('/'),
    };
  });

  const body: MenuProps['items'] =
    activity.isError && !activity.data
      ? [
          {
            key: 'error',
            disabled: true,
            label: <Typography.Text type="danger">{(activity.error as ApiError).message}</Typography.Text>,
          },
          { key: 'retry', label: 'Retry', onClick: () => void activity.refetch() },
        ]
      : activity.isPending
        ? [{ key: 'loading', disabled: true, label: 'Loading...' }]
        : records.length === 0
          ? [{ key: 'empty', disabled: true, label: 'No recent activity' }]
          : recordItems;

  const items: MenuProps['items'] = [
    { key: 'title', type: 'group', label: 'Recent activity', children: body },
    ...(records.length > 0
      ? [
          { type: 'divider' as const },
          { key: 'dashboard', label: 'See all on the Dashboard', onClick: () => navigate('/') },
        ]
      : []),
  ];

  // The bell reads the newest ACTIVITY_LIMIT records: when all are unseen there may be more.
  const shownCount = unseen >= ACTIVITY_LIMIT ? `${ACTIVITY_LIMIT - 1}+` : String(unseen);
  const label = unseen > 0 ? `Notifications, ${shownCount} new` : 'Notifications';

  return (
    // The count sits on the button's corner, clear of the bell; the label gives the exact count.
    <Badge count={unseen} overflowCount={9} size="small" offset={[-2, 6]} className="bell-badge">
      <Dropdown
        trigger={['click']}
        open={open}
        onOpenChange={onOpenChange}
        menu={{ items, className: 'bell-menu' }}
        placement="bottomRight"
        autoAdjustOverflow={STAY_IN_VIEW}
        autoFocus
      >
        <Button ref={buttonRef} type="text" aria-label={label} title={label} icon={<BellOutlined />} />
      </Dropdown>
    </Badge>
  );
}
