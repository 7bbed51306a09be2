import type { WireDentist } from '@dental/shared';
import {
  Button,
  Card,
  ClockCircleOutlined,
  DeleteOutlined,
  EditOutlined,
  Flex,
  IdcardOutlined,
  MailOutlined,
  PhoneOutlined,
  Tag,
  Typography,
} from '@dental/shared/ui';
import { workingHoursSummary } from './workingDays';

export interface DentistCardProps {
  dentist: WireDentist;
  /** Sample cards (shown when the list cannot be read) have no actions. */
  sample?: boolean;
  onEdit?: (dentist: WireDentist) => void;
  onDelete?: (dentist: WireDentist) => void;
}

/** One dentist of the grid (spec §2 Dentists): who, how to reach them, and when they work. */
export function DentistCard({ dentist, sample = false, onEdit, onDelete }: DentistCardProps) {
  const days = dentist.days_per_week;
  return (
    <Card
      className="dentist-card"
      title={
        <Flex vertical>
          <Typography.Text strong style={{ whiteSpace: 'normal' }}>
            {dentist.name}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontWeight: 'normal', whiteSpace: 'normal' }}>
            {dentist.specialty}
          </Typography.Text>
        </Flex>
      }
      extra={
        <Flex gap={4} align="center">
          {sample && <Tag>Sample</Tag>}
          <Tag color={dentist.status === 'active' ? 'green' : 'default'}>{dentist.status}</Tag>
        </Flex>
      }
      actions={
        sample
          ? undefined
          : [
              <Button
                key="edit"
                type="text"
                icon={<EditOutlined />}
                aria-label={`Edit ${dentist.name}`}
                onClick={() => onEdit?.(dentist)}
              >
                Edit
              </Button>,
              <Button
                key="delete"
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={`Delete ${dentist.name}`}
                onClick={() => onDelete?.(dentist)}
              >
                Delete
              </Button>,
            ]
      }
    >
      <Flex vertical gap={6}>
        <span>
          <MailOutlined /> <span className="dentist-card-value">{dentist.email}</span>
        </span>
        <span>
          <PhoneOutlined /> {dentist.phone}
        </span>
        <span>
          <IdcardOutlined /> License: {dentist.license}
        </span>
        <Flex justify="space-between" wrap gap={8}>
          <span>
            Experience: {dentist.years_of_experience} {dentist.years_of_experience === 1 ? 'year' : 'years'}
          </span>
          <span>
            {days} {days === 1 ? 'day' : 'days'}/week
          </span>
        </Flex>
        <Typography.Text type="secondary">
          <ClockCircleOutlined /> {workingHoursSummary(dentist.working_hours)}
        </Typography.Text>
      </Flex>
    </Card>
  );
}
