import {
  type Appointment,
  appointmentWriteSchema,
  PAST_BOOKING_MESSAGE,
  TREATMENTS,
  VISIT_MINUTES_MAX,
  VISIT_MINUTES_MIN,
  VISIT_MINUTES_STEP,
} from '@dental/shared';
import { FieldRow, Form, Input, InputNumber, optionsOf, Select, schemaRules } from '@dental/shared/ui/forms';
import { isDay } from './appointmentFormValues';

const rulesFor = schemaRules(appointmentWriteSchema.in);

export interface VisitFieldsProps {
  /** The dentists a visit may be booked with (useBookableDentists). */
  dentists: { value: number; label: string }[];
  dentistsLoading: boolean;
  /** The visit being edited; null for a new one. */
  appointment: Appointment | null;
  /** The clinic's today (`YYYY-MM-DD`): no visit is booked, or moved, onto a day before it. */
  today: string;
}

/** Who sees the patient, on which day, for which treatment and how long. */
export function VisitFields({ dentists, dentistsLoading, appointment, today }: VisitFieldsProps) {
  return (
    <>
      <FieldRow spans={[12, 12]}>
        <Form.Item name="dentist_id" label="Dentist" rules={rulesFor('dentist_id')}>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            placeholder="Choose a dentist"
            loading={dentistsLoading}
            options={dentists}
          />
        </Form.Item>
        <Form.Item
          name="date"
          label="Date"
          rules={rulesFor('date', [
            {
              validator: async (_rule, value: string | undefined) => {
                const moved = !appointment || value !== appointment.date;
                if (moved && isDay(value) && value < today) throw new Error(PAST_BOOKING_MESSAGE);
              },
            },
          ])}
        >
          <Input type="date" min={appointment ? undefined : today} />
        </Form.Item>
      </FieldRow>
      <FieldRow spans={[14, 10]}>
        <Form.Item name="treatment" label="Treatment" rules={rulesFor('treatment')}>
          <Select placeholder="Choose a treatment" options={optionsOf(TREATMENTS)} />
        </Form.Item>
        <Form.Item
          name="duration"
          label="Duration"
          rules={rulesFor('duration', [{ required: true, message: 'Give the length in minutes' }])}
        >
          <InputNumber
            min={VISIT_MINUTES_MIN}
            max={VISIT_MINUTES_MAX}
            step={VISIT_MINUTES_STEP}
            suffix="minutes"
            style={{ width: '100%' }}
          />
        </Form.Item>
      </FieldRow>
    </>
  );
}
