import { type Appointment, seriesPlaceText, timeRange } from '@dental/shared';
import { formatDay } from '@dental/shared/kit';
import {
  AppointmentStatusTag,
  Button,
  Card,
  Empty,
  OnlineTag,
  PlusOutlined,
  SwapOutlined,
  Tag,
  Typography,
} from '@dental/shared/ui';

export interface DayPanelProps {
  day: string;
  appointments: Appointment[];
  /** The month is still being read: the day is not known to be free yet. */
  loading?: boolean;
  /** The month could not be read: the day is not known to be free. */
  failed?: boolean;
  onNew: () => void;
  /** The keyboard's way to move an appointment (the grid's other way is dragging it). */
  onMove: (appointment: Appointment) => void;
}

/** The selected day (docs/product.md, Screens: Calendar): time, patient and treatment of each appointment, or a free day. */
export function DayPanel({
  day,
  appointments,
  loading = false,
  failed = false,
  onNew,
  onMove,
}: DayPanelProps) {
  return (
    <Card
      className="calendar-panel"
      title={<span aria-live="polite">{formatDay(day, true)}</span>}
      extra={
        <Button size="small" icon={<PlusOutlined />} onClick={onNew} aria-label={`Book on ${formatDay(day)}`}>
          Book
        </Button>
      }
    >
      {loading ? (
        <Typography.Text type="secondary">Loading the day's appointments...</Typography.Text>
      ) : failed ? (
        <Typography.Text type="secondary">The day's appointments could not be loaded.</Typography.Text>
      ) : appointments.length === 0 ? (
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
              {/* Plain elements, not antd's Typography and Flex: a busy day lists dozens of these, and the
                  list is drawn again on every step through the month. */}
              <div className="calendar-panel-row">
                <div>
                  <strong>{timeRange(appointment.time, appointment.end_time)}</strong>{' '}
                  <span>{appointment.patient}</span>
                  <br />
                  <span className="calendar-panel-secondary">
                    {appointment.treatment} · {appointment.dentist_name}
                  </span>
                  {appointment.outside_hours && (
                    <>
                      <br />
                      <Tag color="purple" title={appointment.outside_hours_reason ?? undefined}>
                        Outside hours
                      </Tag>
                    </>
                  )}
                  {appointment.series && (
                    <>
                      <br />
                      <Tag color="cyan">{seriesPlaceText(appointment.series)}</Tag>
                    </>
                  )}
                </div>
                <div className="calendar-panel-actions">
                  <AppointmentStatusTag status={appointment.status} />
                  <OnlineTag appointment={appointment} />
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
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
