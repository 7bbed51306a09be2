import { Empty, Typography } from '@dental/shared/ui';

/** Availability: the screen of a later release; its API is ready. */
export default function AvailabilityPage() {
  return (
    <div>
      <Typography.Title level={2} style={{ marginTop: 0 }}>
        Availability
      </Typography.Title>
      <Empty description="This screen is coming in a later release." />
    </div>
  );
}
