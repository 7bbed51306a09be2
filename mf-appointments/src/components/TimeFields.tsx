import {
  appointmentWriteSchema,
  OUTSIDE_HOURS_REASON_MAX,
  OUTSIDE_HOURS_REASON_REQUIRED,
} from '@dental/shared';
import { Checkbox, Form, Input, Select, schemaRules } from '@dental/shared/ui/forms';
import type { FreeTimeChoice } from './useFreeTimeChoice';

const rulesFor = schemaRules(appointmentWriteSchema.in);

export interface TimeFieldsProps {
  /** The free times for the dentist, day and length chosen (useFreeTimeChoice). */
  choice: FreeTimeChoice;
  /** The user may book outside open hours (an emergency): any time may then be typed, with a reason. */
  mayOverride: boolean;
}

/** The visit's start: one of the dentist's free times, or, outside open hours, any time with the reason. */
export function TimeFields({ choice, mayOverride }: TimeFieldsProps) {
  const { outsideHours, offered, options, reading, hint } = choice;
  return (
    <>
      <Form.Item name="time" label="Time" rules={rulesFor('time')} extra={hint}>
        {outsideHours ? (
          <Input type="time" step={300} />
        ) : (
          <Select
            placeholder="Choose a time"
            loading={reading}
            // Until the dentist's free times are read, none is offered: a taken one could be booked.
            options={offered ? options : []}
            notFoundContent={
              offered ? (offered.message ?? 'No free time') : "Reading the dentist's free times..."
            }
          />
        )}
      </Form.Item>
      {mayOverride && (
        <Form.Item
          name="outside_hours"
          valuePropName="checked"
          style={{ marginBottom: outsideHours ? 8 : 24 }}
        >
          <Checkbox>Book outside open hours (emergency)</Checkbox>
        </Form.Item>
      )}
      {mayOverride && outsideHours && (
        <Form.Item
          name="outside_hours_reason"
          label="Reason for booking outside open hours"
          rules={[
            { required: true, whitespace: true, message: OUTSIDE_HOURS_REASON_REQUIRED },
            ...rulesFor('outside_hours_reason'),
          ]}
        >
          <Input maxLength={OUTSIDE_HOURS_REASON_MAX} />
        </Form.Item>
      )}
    </>
  );
}
