import { type Appointment, seriesPlaceText, timeRange } from '@dental/shared';
import { formatDay } from '@dental/shared/kit';
import { AppointmentStatusTag, OnlineTag, Tag, Tooltip, Typography } from '@dental/shared/ui';
import { type RowAction, rowActionsColumn, type TableColumnsType } from '@dental/shared/ui/lists';

/** What sets a visit apart in the list: booked outside open hours, overlapping another, of a series. */
function VisitMarks({ appointment }: { appointment: Appointment }) {
  if (!appointment.outside_hours && !appointment.overlapping && !appointment.series) return null;
  return (
    <div>
      {appointment.series && <Tag color="cyan">{seriesPlaceText(appointment.series)}</Tag>}
      {appointment.outside_hours && (
        <Tooltip title={appointment.outside_hours_reason ?? undefined}>
          <Tag color="purple">Outside hours</Tag>
        </Tooltip>
      )}
      {appointment.overlapping && <Tag color="orange">Overlaps</Tag>}
    </div>
  );
}

/** The Appointments list's columns (docs/product.md, Screens); those with `sorter` sort on the server. */
export function appointmentColumns(actionsOf: (appointment: Appointment) => RowAction[]) {
  const columns: TableColumnsType<Appointment> = [
    {
      title: 'Patient',
      key: 'patient',
      sorter: true,
      render: (_, appointment) => (
        <div>
          <Typography.Text strong>{appointment.patient}</Typography.Text>
          <br />
          <Typography.Text type="secondary">{appointment.phone}</Typography.Text>
        </div>
      ),
    },
    {
      title: 'Dentist',
      key: 'dentist',
      sorter: true,
      render: (_, appointment) => (
        <div>
          <div>{appointment.dentist_name}</div>
          <Typography.Text type="secondary">ID: {appointment.dentist_id}</Typography.Text>
        </div>
      ),
    },
    {
      title: 'Date & Time',
      key: 'date',
      sorter: true,
      render: (_, appointment) => (
        <div style={{ whiteSpace: 'nowrap' }}>
          <div>{formatDay(appointment.date, true)}</div>
          <Typography.Text type="secondary">
            {timeRange(appointment.time, appointment.end_time)}
          </Typography.Text>
          <VisitMarks appointment={appointment} />
        </div>
      ),
    },
    {
      title: 'Treatment',
      key: 'treatment',
      render: (_, appointment) => (
        <div style={{ maxWidth: 220 }}>
          <div>{appointment.treatment}</div>
          {appointment.notes && (
            <Typography.Text type="secondary" style={{ whiteSpace: 'pre-wrap' }}>
              {appointment.notes}
            </Typography.Text>
          )}
        </div>
      ),
    },
    {
      title: 'Status',
      key: 'status',
      sorter: true,
      render: (_, appointment) => (
        <>
          <AppointmentStatusTag status={appointment.status} />
          <OnlineTag appointment={appointment} />
        </>
      ),
    },
    rowActionsColumn(actionsOf, { small: true }),
  ];
  return columns;
}
