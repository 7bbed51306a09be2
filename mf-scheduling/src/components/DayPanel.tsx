import type { Appointment } from '@dental/shared';
import { formatDay } from '@dental/shared/kit';
import { Button, Card, Empty, Flex, PlusOutlined, SwapOutlined, Tag, Typography } from '@dental/shared/ui';

const STATUS_COLORS: Record<string, string> = {
  confirmed: 'green',
  pending: 'gold',
  cancelled: 'red',
  completed: 'blue',
};

export interface DayPanelProps {
  day: string;
  appointments: Appointment[];
  onNew: () => void;
  /** The keyboard's way to move an appointment (the grid's other way is dragging it). */
  onMove: (appointment: Appointment) => void;
}

/** The selected day (spec §2 Calendar): time, patient and treatment of each appointment, or a free day. */
export function DayPanel({ day, appointments, onNew, onMove }: DayPanelProps) {
  return (
    <Card
      className="calendar-panel"
      title={<span aria-live="polite">{formatDay(day, true)}</span>}
      extra={
        <Button
          size="small"
          icon={<PlusOutlined />}
          onClick={onNew}
          aria-label={`New appointment on ${formatDay(day)}`}
        >
          Book
        </Button>
      }
    >
      {appointments.length === 0 ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={
            <>
              <Typography.Text strong>No appointments</Typography.Text>
              <br />
              <Typography.Text type="secondary">This day is free</Typography.Text>
            </>
          }
        />
      ) : (
        <ul className="calendar-panel-list" aria-label={`Appointments on ${formatDay(day)}`}>
          {appointments.map((appointment) => (
            <li
              key={appointment.id}
              className="calendar-panel-item"
              draggable={appointment.status !== 'cancelled'}
              onDragStart={(event) => {
                event.dataTransfer.setData('application/x-appointment', String(appointment.id));
                event.dataTransfer.effectAllowed = 'move';
              }}
            >
              <Flex justify="space-between" align="start" gap={8}>
                <div>
                  <Typography.Text strong>{appointment.time}</Typography.Text>{' '}
                  <Typography.Text>{appointment.patient}</Typography.Text>
                  <br />
                  <Typography.Text type="secondary">
                    {appointment.treatment} · {appointment.dentist_name}
                  </Typography.Text>
                </div>
                <Flex vertical align="end" gap={4}>
                  <Tag color={STATUS_COLORS[appointment.status]}>{appointment.status}</Tag>
                  {appointment.status !== 'cancelled' && appointment.status !== 'completed' && (
                    <Button
                      size="small"
                      type="link"
                      icon={<SwapOutlined />}
                      aria-label={`Move appointment of ${appointment.patient} at ${appointment.time}`}
                      onClick={() => onMove(appointment)}
                    >
                      Move
                    </Button>
                  )}
                </Flex>
              </Flex>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
