import { Empty, Typography } from '@dental/shared/ui';

/** Dentists: the screen of a later release; its API is ready. */
export default function DentistsPage() {
  return (
    <div>
      <Typography.Title level={2} style={{ marginTop: 0 }}>
        Dentists
      </Typography.Title>
      <Empty description="This screen is coming in a later release." />
    </div>
  );
}
