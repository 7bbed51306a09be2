import { Button, Flex, Typography } from '@dental/shared/ui';
import { Input, Select } from '@dental/shared/ui/forms';

export interface AvailabilityFiltersProps {
  /** The dentist shown; undefined: every dentist. */
  dentistId: number | undefined;
  dentists: ReadonlyArray<{ id: number; name: string }>;
  /** The one date shown, or null: from today on. */
  date: string | null;
  /** 'all' is written to the URL as such, so that a dentist's own default gives way to every dentist. */
  onDentist: (dentist: string) => void;
  onDate: (date: string | null) => void;
  /** Whether a dentist or a date is chosen (Clear Filters is off without). */
  filtered: boolean;
  onClear: () => void;
}

/** The Availability filter bar: a dentist, a date, and Clear Filters. */
export function AvailabilityFilters(props: AvailabilityFiltersProps) {
  return (
    <>
      <Flex vertical gap={4} style={{ flex: '1 1 200px', maxWidth: 280 }}>
        <Typography.Text aria-hidden>Dentist</Typography.Text>
        <Select
          aria-label="Dentist"
          value={props.dentistId ?? 'all'}
          onChange={(value: number | 'all') => props.onDentist(String(value))}
          options={[
            { value: 'all', label: 'All dentists' },
            ...props.dentists.map((dentist) => ({ value: dentist.id, label: dentist.name })),
          ]}
        />
      </Flex>
      <Flex vertical gap={4} style={{ flex: '1 1 150px', maxWidth: 200 }}>
        <label htmlFor="availability-date">Date</label>
        <Input
          id="availability-date"
          type="date"
          value={props.date ?? ''}
          onChange={(event) => props.onDate(event.target.value || null)}
        />
      </Flex>
      <Button onClick={props.onClear} disabled={!props.filtered}>
        Clear Filters
      </Button>
    </>
  );
}
