import type { Chair, FreeTimes } from '@dental/shared';
import { Form, Select } from '@dental/shared/ui/forms';

/** The Chair field's "Any free chair": the server gives one (docs/product.md, Chairs). */
export const ANY_CHAIR = 0;

export interface ChairFieldProps {
  /** The clinic's chairs in order; those out of service are not offered. */
  chairs: readonly Chair[];
  chairsLoading: boolean;
  /** The free times read for the form's dentist, day and length: each time names the chair it would take. */
  offered: FreeTimes | null;
  /** The time chosen, if any. */
  time: string | undefined;
  /** The edited visit's own chair, offered even when it is no longer in service. */
  current: { id: number; name: string } | null;
}

/** What the Chair field says under it: the chair a booking at the chosen time will take. */
export function chairHint(
  chairs: readonly Chair[],
  offered: FreeTimes | null,
  chosen: number,
  time: string | undefined,
): string {
  // Until the chairs are read (none yet), a chosen chair is not judged.
  if (
    chosen !== ANY_CHAIR &&
    chairs.length > 0 &&
    !chairs.some((chair) => chair.id === chosen && chair.in_service)
  )
    return 'This chair is not in service: choose another to move the visit.';
  if (chosen !== ANY_CHAIR) return 'Only the times this chair is free are offered.';
  const slot = time ? offered?.slots?.find((one) => one.time === time) : undefined;
  const chair = slot && chairs.find((one) => one.id === slot.chair_id);
  return chair ? `${chair.name} will be taken.` : 'The first free chair is taken: the dentist’s own first.';
}

/** Which chair the visit holds: any free one (the default), or one the desk chooses. */
export function ChairField({ chairs, chairsLoading, offered, time, current }: ChairFieldProps) {
  const chosen = (Form.useWatch('chair_id') as number | undefined) ?? ANY_CHAIR;
  const inService = chairs.filter((chair) => chair.in_service);
  const options = [
    { value: ANY_CHAIR, label: 'Any free chair' },
    ...inService.map((chair) => ({ value: chair.id, label: chair.name })),
    // The visit's own chair, out of service or retired since: shown as it is, not offered anew.
    ...(current && !inService.some((chair) => chair.id === current.id)
      ? [{ value: current.id, label: `${current.name} (not in service)`, disabled: true }]
      : []),
  ];
  return (
    <Form.Item name="chair_id" label="Chair" extra={chairHint(chairs, offered, chosen, time)}>
      <Select loading={chairsLoading} options={options} />
    </Form.Item>
  );
}
