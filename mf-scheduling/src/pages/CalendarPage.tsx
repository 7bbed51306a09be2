import { Empty, Typography } from '@dental/shared/ui';

/** Calendar: the screen of a later release; its API is ready. */
export default function CalendarPage() {
  return (
    <div>
      <Typography.Title level={2} style={{ marginTop: 0 }}>
        Calendar
      </Typography.Title>
      <Empty description="This screen is coming in a later release." />
    </div>
  );
}
