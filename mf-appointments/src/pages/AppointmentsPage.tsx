import { Empty, Typography } from '@dental/shared/ui';

/** Appointments: the screen of a later release; its API is ready. */
export default function AppointmentsPage() {
  return (
    <div>
      <Typography.Title level={2} style={{ marginTop: 0 }}>
        Appointments
      </Typography.Title>
      <Empty description="This screen is coming in a later release." />
    </div>
  );
}
