import { type Appointment, timeRange } from '@dental/shared';
import { formatDay } from '@dental/shared/kit';
import { Alert, Button, Typography } from '@dental/shared/ui';
import { useOverlapping } from '../api/appointments';

/**
 * The visits kept overlapping from before overlaps were refused, each a link that opens it, so the
 * front desk moves or cancels one of each. Nothing when there are none.
 */
export function OverlapsBanner({ onOpen }: { onOpen: (visit: Appointment) => void }) {
  const overlapping = useOverlapping();
  if (!overlapping.data || overlapping.data.total === 0) return null;
  const { total, data } = overlapping.data;
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      title={`${total === 1 ? '1 visit overlaps' : `${total} visits overlap`} another visit of its dentist or patient`}
      description={
        <div>
          <Typography.Paragraph style={{ marginBottom: 8 }}>
            They were booked before overlapping visits were refused. Move or cancel one of each: no new
            overlap can be made.
          </Typography.Paragraph>
          <ul aria-label="Overlapping visits" style={{ margin: 0, paddingLeft: 20 }}>
            {data.map((visit) => (
              <li key={visit.id}>
                <Button type="link" size="small" style={{ padding: 0 }} onClick={() => onOpen(visit)}>
                  {`${formatDay(visit.date, true)} ${timeRange(visit.time, visit.end_time)}, ${visit.patient} with ${visit.dentist_name}`}
                </Button>
              </li>
            ))}
          </ul>
        </div>
      }
    />
  );
}
