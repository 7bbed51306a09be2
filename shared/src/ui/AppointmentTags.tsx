import { type AppointmentStatus, bookedOnlineLabel } from '@dental/shared/domain';
import { Tag, Tooltip } from 'antd';

/** A visit's status colour, the same in every list, panel and history (docs/product.md, Statuses). */
export const APPOINTMENT_STATUS_COLORS: Record<AppointmentStatus, string> = {
  confirmed: 'green',
  pending: 'gold',
  cancelled: 'red',
  completed: 'blue',
};

/** A visit's status as a coloured tag. */
export function AppointmentStatusTag({
  status,
  flush = false,
}: {
  status: AppointmentStatus;
  flush?: boolean;
}) {
  return (
    <Tag color={APPOINTMENT_STATUS_COLORS[status]} style={flush ? { marginInlineEnd: 0 } : undefined}>
      {status}
    </Tag>
  );
}

/**
 * "Online" on a visit the patient booked on the clinic's booking page (docs/product.md, Online
 * booking), saying whether the patient confirmed it themself; nothing for a visit booked at the desk.
 */
export function OnlineTag({
  appointment,
}: {
  appointment: { source?: 'desk' | 'online'; confirmed_by?: 'desk' | 'patient' | null };
}) {
  const told = bookedOnlineLabel(appointment);
  if (!told) return null;
  return (
    <Tooltip title={told}>
      <Tag color="geekblue" aria-label={told}>
        Online
      </Tag>
    </Tooltip>
  );
}
