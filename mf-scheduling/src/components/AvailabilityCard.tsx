import type { WireAvailability } from '@dental/shared';
import { formatDay } from '@dental/shared/kit';
import { Button, Card, Tag, Typography } from '@dental/shared/ui';
import { CardTitle, cardActions } from '@dental/shared/ui/lists';
import './availability.css';

export interface AvailabilityCardProps {
  day: WireAvailability;
  /** The signed-in user may change this dentist's days: chips open and close, Edit and Delete. */
  editable: boolean;
  /** The slot whose change is on its way (its chip waits). */
  pendingSlot?: string | null;
  onToggleSlot?: (day: WireAvailability, slot: { start: string; end: string; available: boolean }) => void;
  onEdit?: (day: WireAvailability) => void;
  onDelete?: (day: WireAvailability) => void;
}

/** One dentist's day (docs/product.md, Screens: Availability): 'available/total slots available' and a chip per slot. */
export function AvailabilityCard({
  day,
  editable,
  pendingSlot = null,
  onToggleSlot,
  onEdit,
  onDelete,
}: AvailabilityCardProps) {
  const when = formatDay(day.date, true);
  const inactive = day.status === 'inactive';
  // An inactive day offers nothing for booking, whatever its slots say.
  const free = inactive ? 0 : day.time_slots.filter((slot) => slot.available).length;
  return (
    <Card
      className="availability-card"
      title={<CardTitle name={day.dentist_name} detail={when} />}
      extra={<Tag color={inactive ? 'default' : 'green'}>{day.status}</Tag>}
      actions={
        editable
          ? cardActions({
              editLabel: `Edit availability of ${day.dentist_name} on ${when}`,
              deleteLabel: `Delete availability of ${day.dentist_name} on ${when}`,
              onEdit: () => onEdit?.(day),
              onDelete: () => onDelete?.(day),
            })
          : undefined
      }
    >
      <Typography.Paragraph style={{ marginBottom: 8 }}>
        {free}/{day.time_slots.length} slots available
      </Typography.Paragraph>
      {inactive && (
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          Inactive day: nothing can be booked with {day.dentist_name} on it.
        </Typography.Paragraph>
      )}
      <ul className="availability-slots" aria-label={`Slots of ${day.dentist_name} on ${when}`}>
        {day.time_slots.map((slot) => {
          const key = `${slot.start}-${slot.end}`;
          const state = slot.available ? 'Available' : 'Booked';
          if (inactive)
            return (
              <li key={key}>
                <Tag>
                  {key} · {slot.available ? 'Not offered' : state}
                </Tag>
              </li>
            );
          return (
            <li key={key}>
              {editable ? (
                <Button
                  size="small"
                  color={slot.available ? 'green' : 'red'}
                  variant="outlined"
                  loading={pendingSlot === key}
                  aria-label={`${key} ${state}: ${slot.available ? 'close this slot' : 'reopen this slot'}`}
                  title={slot.available ? 'Click to close this slot' : 'Click to reopen this slot'}
                  onClick={() => onToggleSlot?.(day, slot)}
                >
                  {key} · {state}
                </Button>
              ) : (
                <Tag color={slot.available ? 'green' : 'red'}>
                  {key} · {state}
                </Tag>
              )}
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
