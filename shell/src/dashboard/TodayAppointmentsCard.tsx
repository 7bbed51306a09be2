import { type DashboardAppointment, TODAY_APPOINTMENTS_LIMIT_DEFAULT, timeRange } from '@dental/shared';
import { initialsOf, todayDay } from '@dental/shared/kit';
import { Avatar, Card, Empty, OnlineTag, RightOutlined, Tag, Typography } from '@dental/shared/ui';
import { Link } from 'react-router-dom';

/**
 * Where a row leads: that appointment, opened on the Appointments screen searched for that patient on
 * that day. The Appointments module reads `search`, `from`, `to` and `appointment` from its URL.
 */
export function appointmentsUrlOf(
  appointment: Pick<DashboardAppointment, 'id' | 'patient' | 'date'>,
): string {
  const day = appointment.date || todayDay();
  return `/appointments?search=${encodeURIComponent(appointment.patient)}&from=${day}&to=${day}&appointment=${appointment.id}`;
}

const shortTime = (time: string) => time.slice(0, 5);

function AppointmentRow({
  appointment,
  sample,
  linkable,
}: {
  appointment: DashboardAppointment;
  sample: boolean;
  linkable: boolean;
}) {
  const cancelled = appointment.status === 'cancelled';
  const content = (
    <>
      <Avatar className="today-list__avatar" aria-hidden>
        {initialsOf(appointment.patient)}
      </Avatar>
      <Typography.Text strong delete={cancelled} className="today-list__name">
        {appointment.patient}
      </Typography.Text>
      <Typography.Text type="secondary" className="today-list__details">
        {`${appointment.treatment} · `}
        {/* A range is read whole: it never breaks at its dash. */}
        <span style={{ whiteSpace: 'nowrap' }}>
          {timeRange(shortTime(appointment.time), shortTime(appointment.end_time))}
        </span>
        {appointment.dentist_name ? ` · ${appointment.dentist_name}` : ''}
      </Typography.Text>
      <span className="today-list__badges">
        {sample && <Tag className="dashboard-sample-tag">Sample</Tag>}
        <OnlineTag appointment={appointment} />
        <Tag color={appointment.status === 'confirmed' ? 'green' : 'gold'}>{appointment.status}</Tag>
      </span>
      {linkable && <RightOutlined className="today-list__chevron" aria-hidden />}
    </>
  );
  return (
    <li className={cancelled ? 'today-list__item today-list__item--cancelled' : 'today-list__item'}>
      {linkable ? (
        <Link
          to={appointmentsUrlOf(appointment)}
          className="today-list__row today-list__row--link"
          title={`Open ${appointment.patient}'s appointment in Appointments`}
        >
          {content}
        </Link>
      ) : (
        <div className="today-list__row">{content}</div>
      )}
    </li>
  );
}

/** One group of the card's rows (the booked visits, or the cancelled ones apart), named for a screen reader. */
function AppointmentList({
  label,
  appointments,
  sample,
  linkable,
}: {
  label: string;
  appointments: DashboardAppointment[];
  sample: boolean;
  linkable: boolean;
}) {
  return (
    <ul className="today-list" aria-label={label}>
      {appointments.map((appointment) => (
        <AppointmentRow key={appointment.id} appointment={appointment} sample={sample} linkable={linkable} />
      ))}
    </ul>
  );
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * Today's appointments. The "Today's Appointments" figure leaves cancelled visits out; so does the
 * list's own count, and the cancelled ones are listed apart, struck through, saying they are not counted.
 */
export function TodayAppointmentsCard({
  appointments,
  sample,
  sampleReason,
  linkable,
}: {
  appointments: DashboardAppointment[];
  sample: boolean;
  sampleReason?: string;
  linkable: boolean;
}) {
  const booked = appointments.filter((appointment) => appointment.status !== 'cancelled');
  const cancelled = appointments.filter((appointment) => appointment.status === 'cancelled');
  const rowsLink = linkable && !sample;

  return (
    <Card
      title="Today's Appointments"
      className="dashboard-today"
      extra={sample ? <Tag className="dashboard-sample-tag">Sample</Tag> : null}
    >
      {sample ? (
        <Typography.Paragraph type="secondary" className="dashboard-today__summary">
          {`Sample appointments, not your clinic's${sampleReason ? ` (${sampleReason})` : ''}.`}
        </Typography.Paragraph>
      ) : appointments.length > 0 ? (
        <Typography.Paragraph type="secondary" className="dashboard-today__summary">
          {`${plural(booked.length, 'appointment', 'appointments')} today, not counting cancelled visits`}
          {cancelled.length > 0
            ? ` · ${plural(cancelled.length, 'cancelled visit', 'cancelled visits')} listed apart below`
            : ''}
          {appointments.length >= TODAY_APPOINTMENTS_LIMIT_DEFAULT
            ? ` · showing the first ${TODAY_APPOINTMENTS_LIMIT_DEFAULT}; Appointments lists them all`
            : ''}
        </Typography.Paragraph>
      ) : null}

      {booked.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No appointments scheduled for today" />
      ) : (
        <AppointmentList
          label="Today's appointments"
          appointments={booked}
          sample={sample}
          linkable={rowsLink}
        />
      )}

      {cancelled.length > 0 && (
        <>
          <Typography.Paragraph strong className="today-list__group">
            {`Cancelled today (${cancelled.length}), not counted`}
          </Typography.Paragraph>
          <AppointmentList
            label="Cancelled today, not counted"
            appointments={cancelled}
            sample={sample}
            linkable={rowsLink}
          />
        </>
      )}
    </Card>
  );
}
