import { Empty, Typography } from '@dental/shared/ui';

/** Settings: the screen of a later release; its API is ready. */
export default function SettingsPage() {
  return (
    <div>
      <Typography.Title level={2} style={{ marginTop: 0 }}>
        Settings
      </Typography.Title>
      <Empty description="This screen is coming in a later release." />
    </div>
  );
}
