import type { WireDentist } from '@dental/shared';
import {
  Card,
  ClockCircleOutlined,
  Flex,
  IdcardOutlined,
  MailOutlined,
  PhoneOutlined,
  Tag,
  Typography,
} from '@dental/shared/ui';
import { CardTitle, cardActions } from '@dental/shared/ui/lists';
import { workingHoursSummary } from './workingDays';

export interface DentistCardProps {
  dentist: WireDentist;
  /** Sample cards (shown when the list cannot be read) have no actions. */
  sample?: boolean;
  onEdit?: (dentist: WireDentist) => void;
  onDelete?: (dentist: WireDentist) => void;
}

/** One dentist of the grid (docs/product.md, Screens: Dentists): who, how to reach them, and when they work. */
export function DentistCard({ dentist, sample = false, onEdit, onDelete }: DentistCardProps) {
  const days = dentist.days_per_week;
  return (
    <Card
      className="dentist-card"
      title={<CardTitle name={dentist.name} detail={dentist.specialty} wrapDetail />}
      extra={
        <Flex gap={4} align="center">
          {sample && <Tag>Sample</Tag>}
          <Tag color={dentist.status === 'active' ? 'green' : 'default'}>{dentist.status}</Tag>
        </Flex>
      }
      actions={
        sample
          ? undefined
          : cardActions({
              editLabel: `Edit ${dentist.name}`,
              deleteLabel: `Delete ${dentist.name}`,
              onEdit: () => onEdit?.(dentist),
              onDelete: () => onDelete?.(dentist),
            })
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
