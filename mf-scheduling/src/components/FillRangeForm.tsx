import {
  AVAILABILITY_FILL_MAX_DAYS,
  type AvailabilityFillResult,
  availabilityFillSchema,
  WEEKDAYS,
  type WireDentist,
} from '@dental/shared';
import { formatDay, todayDay, useQueryClient } from '@dental/shared/kit';
import { Typography } from '@dental/shared/ui';
import { Form, Input, ModalForm, Select, schemaRules, useModalForm } from '@dental/shared/ui/forms';
import { fillAvailability, refreshAvailability } from '../api/availability';
import { SlotPicker, SUGGESTED_KEYS, slotChoiceRule, slotOfKey } from './SlotPicker';

const rulesFor = schemaRules(availabilityFillSchema);
const FIELDS = ['dentist_id', 'from', 'to', 'time_slots'];

interface FillValues {
  dentist_id: number;
  from: string;
  to: string;
  time_slots: string[];
}

/** A dentist's `working_days` ('135') as names: 'Monday, Wednesday, Friday'. */
function workingDayNames(workingDays: string): string {
  return [...workingDays]
    .map((digit) => WEEKDAYS[Number(digit) - 1])
    .filter((day) => day !== undefined)
    .map((day) => day.charAt(0).toUpperCase() + day.slice(1))
    .join(', ');
}

const plusDays = (day: string, days: number) => {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};

export interface FillRangeFormProps {
  open: boolean;
  dentists: readonly WireDentist[];
  ownDentistId: number | null;
  initialDentistId?: number;
  onClose: () => void;
  onFilled: (result: AvailabilityFillResult, dentistName: string) => void;
}

/**
 * Beyond the original: a week or a month of availability in one action. Each of the dentist's working
 * days in the range gets the chosen slots; days already set are kept as they are.
 */
export function FillRangeForm({
  open,
  dentists,
  ownDentistId,
  initialDentistId,
  onClose,
  onFilled,
}: FillRangeFormProps) {
  const [form] = Form.useForm<FillValues>();
  const queryClient = useQueryClient();
  const today = todayDay();
  const chosenId = Form.useWatch('dentist_id', form);
  const chosen = dentists.find((dentist) => dentist.id === chosenId);
  const frame = useModalForm({
    form,
    open,
    fields: FIELDS,
    initialValues: () => ({
      dentist_id: ownDentistId ?? initialDentistId,
      from: today,
      to: plusDays(today, 6),
      time_slots: [...SUGGESTED_KEYS],
    }),
    refillOn: [ownDentistId, initialDentistId, today],
    save: (values) =>
      fillAvailability({
        dentist_id: values.dentist_id,
        from: values.from,
        to: values.to,
        time_slots: values.time_slots.map((key) => ({ ...slotOfKey(key), available: true })),
      }),
    onSaved: (result, values) => {
      refreshAvailability(queryClient);
      onFilled(result, dentists.find((dentist) => dentist.id === values.dentist_id)?.name ?? 'The dentist');
    },
  });

  const rangeRule = {
    validator: async (_rule: unknown, to: string | undefined) => {
      const from = form.getFieldValue('from') as string | undefined;
      if (!from || !to) return;
      const result = availabilityFillSchema.safeParse({ dentist_id: 1, from, to });
      const issue = result.success ? undefined : result.error.issues.find((each) => each.path[0] === 'to');
      if (issue) throw new Error(issue.message);
    },
  };

  return (
    <ModalForm
      frame={frame}
      name="fill"
      title="Fill Dates"
      okText="Fill Dates"
      onCancel={onClose}
      intro={
        <Typography.Paragraph>
          Each of the dentist's working days from the first to the last date (at most{' '}
          {AVAILABILITY_FILL_MAX_DAYS} days) gets the slots checked. Days that already have availability are
          kept as they are.
        </Typography.Paragraph>
      }
    >
      <Form.Item
        name="dentist_id"
        label="Dentist"
        rules={rulesFor('dentist_id')}
        extra={chosen ? `Works ${workingDayNames(chosen.working_days) || 'no day of the week'}.` : undefined}
      >
        <Select
          placeholder="Choose a dentist"
          disabled={ownDentistId !== null}
          showSearch={{ optionFilterProp: 'label' }}
          options={dentists
            .filter((dentist) => ownDentistId === null || dentist.id === ownDentistId)
            .map((dentist) => ({ value: dentist.id, label: dentist.name }))}
        />
      </Form.Item>
      <Form.Item name="from" label="From" rules={rulesFor('from')} extra={`Today is ${formatDay(today)}.`}>
        <Input type="date" min={today} />
      </Form.Item>
      <Form.Item name="to" label="To" rules={[...rulesFor('to'), rangeRule]} dependencies={['from']}>
        <Input type="date" min={today} />
      </Form.Item>
      <Form.Item name="time_slots" label="Time slots" required rules={[slotChoiceRule]}>
        <SlotPicker />
      </Form.Item>
    </ModalForm>
  );
}
