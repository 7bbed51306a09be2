import { Empty, Typography } from '@dental/shared/ui';

/** Users: the screen of a later release; its API is ready. */
export default function UsersPage() {
  return (
    <div>
      <Typography.Title level={2} style={{ marginTop: 0 }}>
        Users
      </Typography.Title>
      <Empty description="This screen is coming in a later release." />
    </div>
  );
}
