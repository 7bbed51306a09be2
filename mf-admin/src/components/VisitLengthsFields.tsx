import {
  BOOKING_GRIDS,
  practiceSettingsUpdateSchema,
  TREATMENTS,
  treatmentMinutesSchema,
  VISIT_MINUTES_MAX,
  VISIT_MINUTES_MIN,
  VISIT_MINUTES_STEP,
} from '@dental/shared';
import { Form, InputNumber, Select, schemaRules, Typography } from '@dental/shared/ui';
import './visitLengths.css';

const lengthRules = schemaRules(treatmentMinutesSchema);
const settingsRules = schemaRules(practiceSettingsUpdateSchema);
const GRID_OPTIONS = BOOKING_GRIDS.map((minutes) => ({ value: minutes, label: `${minutes} minutes` }));

/**
 * Each treatment's visit length, used when a booking gives none, and the booking grid the day's
 * start times are offered on. Checked by the rules the server applies.
 */
export function VisitLengthsFields({ disabled }: { disabled: boolean }) {
  return (
    <>
      <Typography.Paragraph type="secondary">
        {`How long each treatment's visit lasts when a booking does not say: from ${VISIT_MINUTES_MIN} to ${VISIT_MINUTES_MAX} minutes, in steps of ${VISIT_MINUTES_STEP}.`}
      </Typography.Paragraph>
      {/* Columns of equal width, as many as fit: five on a desktop, two on a phone. */}
      <div
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fit, minmax(150px, 1fr))',
          columnGap: 16,
        }}
      >
        {TREATMENTS.map((treatment) => (
          <Form.Item
            key={treatment}
            name={['treatmentMinutes', treatment]}
            label={treatment}
            rules={lengthRules(treatment)}
          >
            {/*
              No min/max: they would change a wrong number silently (500 into 480); the rule says what
              is wrong. The range is still announced to assistive technology.
            */}
            <InputNumber
              step={VISIT_MINUTES_STEP}
              aria-valuemin={VISIT_MINUTES_MIN}
              aria-valuemax={VISIT_MINUTES_MAX}
              suffix="minutes"
              disabled={disabled}
              className="visit-length-input"
              style={{ width: '100%' }}
            />
          </Form.Item>
        ))}
      </div>
      <Form.Item
        name="bookingGridMinutes"
        label="Booking grid"
        rules={settingsRules('bookingGridMinutes')}
        extra="The start times a day offers are this many minutes apart."
        style={{ marginBottom: 0 }}
      >
        <Select options={GRID_OPTIONS} disabled={disabled} style={{ maxWidth: 200 }} />
      </Form.Item>
    </>
  );
}
