import { SUGGESTED_SLOTS, timeSlotsSchema } from '@dental/shared';
import { Button, Flex, PlusOutlined, Typography } from '@dental/shared/ui';
import { Checkbox, Input } from '@dental/shared/ui/forms';
import { useId, useMemo, useState } from 'react';

/** A slot as the picker names it: `09:00-10:00`. */
export const slotKey = (slot: { start: string; end: string }): string => `${slot.start}-${slot.end}`;

export function slotOfKey(key: string): { start: string; end: string } {
  const [start = '', end = ''] = key.split('-');
  return { start, end };
}

/** The suggested slots of docs/product.md, Constants and limits, as picker keys. */
export const SUGGESTED_KEYS: string[] = SUGGESTED_SLOTS.map(slotKey);

/**
 * The form rule of a slot choice: the shared schema of a day's slots (1 to 48, none overlapping),
 * so the browser says what the server would.
 */
export const slotChoiceRule = {
  validator: async (_rule: unknown, keys: string[] | undefined) => {
    const result = timeSlotsSchema.safeParse((keys ?? []).map(slotOfKey));
    if (!result.success) throw new Error(result.error.issues[0]?.message ?? 'These slots are not valid');
  },
};

export interface SlotPickerProps {
  /** The keys checked (a Form.Item gives and takes them). */
  value?: string[];
  onChange?: (keys: string[]) => void;
  /** Slots the day already has, offered beside the suggested ones; a booked one says so. */
  known?: ReadonlyArray<{ start: string; end: string; available: boolean }>;
}

/**
 * Several slots at once: the suggested slots and the day's own as checkboxes, and any other slot
 * added by its start and end time.
 */
export function SlotPicker({ value = [], onChange, known = [] }: SlotPickerProps) {
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [added, setAdded] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const baseId = useId();

  const options = useMemo(() => {
    const keys = new Set<string>([...SUGGESTED_KEYS, ...known.map(slotKey), ...added, ...value]);
    const booked = new Set(known.filter((slot) => !slot.available).map(slotKey));
    return [...keys].sort().map((key) => ({ value: key, label: booked.has(key) ? `${key} (booked)` : key }));
  }, [known, added, value]);

  const addSlot = () => {
    if (!start || !end) return setProblem('Give the start and the end time');
    if (end <= start) return setProblem('The end time must be after the start time');
    const key = slotKey({ start, end });
    setProblem(null);
    setAdded((keys) => (keys.includes(key) ? keys : [...keys, key]));
    if (!value.includes(key)) onChange?.([...value, key]);
    setStart('');
    setEnd('');
  };

  return (
    <Flex vertical gap={8}>
      <Checkbox.Group
        value={value}
        onChange={(keys) => onChange?.(keys as string[])}
        options={options}
        style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))', gap: 4 }}
      />
      <Flex wrap gap={8} align="end">
        <Flex vertical gap={4} style={{ flex: '1 1 110px' }}>
          <label htmlFor={`${baseId}-start`}>Start time</label>
          <Input
            id={`${baseId}-start`}
            type="time"
            step={60}
            value={start}
            aria-describedby={`${baseId}-hint`}
            onChange={(event) => setStart(event.target.value)}
          />
        </Flex>
        <Flex vertical gap={4} style={{ flex: '1 1 110px' }}>
          <label htmlFor={`${baseId}-end`}>End time</label>
          <Input
            id={`${baseId}-end`}
            type="time"
            step={60}
            value={end}
            aria-describedby={`${baseId}-hint`}
            onChange={(event) => setEnd(event.target.value)}
          />
        </Flex>
        <Button icon={<PlusOutlined />} onClick={addSlot}>
          Add slot
        </Button>
      </Flex>
      <Typography.Text
        id={`${baseId}-hint`}
        type={problem ? 'danger' : 'secondary'}
        role={problem ? 'alert' : undefined}
      >
        {problem ?? 'Another slot: its start and end time, then Add slot.'}
      </Typography.Text>
    </Flex>
  );
}
