import { timeString, WEEKDAYS, type Weekday } from '@dental/shared';
import { Flex, Typography } from '@dental/shared/ui';
import { Checkbox, Form, Input } from '@dental/shared/ui/forms';
import './workingHours.css';

const dayName = (day: Weekday) => day.charAt(0).toUpperCase() + day.slice(1);

const timeRule = {
  validator: async (_rule: unknown, value: string | undefined) => {
    const result = timeString.safeParse(value ?? '');
    if (!result.success) throw new Error(result.error.issues[0]?.message ?? 'Use HH:mm');
  },
};

/** Opening hours per weekday (docs/product.md, Records and their fields: workingHours): start, end, closed; an open day ends after it starts. */
export function WorkingHoursFields({ disabled }: { disabled: boolean }) {
  return (
    <Flex vertical gap={4}>
      {WEEKDAYS.map((day) => (
        <Form.Item key={day} noStyle shouldUpdate>
          {(form) => {
            const closed = form.getFieldValue(['workingHours', day, 'closed']) === true;
            return (
              <Flex wrap gap={12} align="start" className="working-hours-row">
                <Typography.Text strong className="working-hours-day" style={{ width: 100, paddingTop: 5 }}>
                  {dayName(day)}
                </Typography.Text>
                <Form.Item
                  name={['workingHours', day, 'start']}
                  rules={closed ? [] : [timeRule]}
                  style={{ marginBottom: 8 }}
                >
                  <Input
                    type="time"
                    step={60}
                    aria-label={`${dayName(day)} opens`}
                    disabled={disabled || closed}
                    style={{ width: 130 }}
                  />
                </Form.Item>
                <Form.Item
                  name={['workingHours', day, 'end']}
                  dependencies={[
                    ['workingHours', day, 'start'],
                    ['workingHours', day, 'closed'],
                  ]}
                  rules={
                    closed
                      ? []
                      : [
                          timeRule,
                          ({ getFieldValue }) => ({
                            validator: async (_rule, end: string | undefined) => {
                              const start = getFieldValue(['workingHours', day, 'start']) as
                                | string
                                | undefined;
                              if (start && end && end <= start) {
                                throw new Error('The end time must be after the start time');
                              }
                            },
                          }),
                        ]
                  }
                  style={{ marginBottom: 8 }}
                >
                  <Input
                    type="time"
                    step={60}
                    aria-label={`${dayName(day)} closes`}
                    disabled={disabled || closed}
                    style={{ width: 130 }}
                  />
                </Form.Item>
                <Form.Item
                  name={['workingHours', day, 'closed']}
                  valuePropName="checked"
                  style={{ marginBottom: 8, paddingTop: 5 }}
                >
                  <Checkbox disabled={disabled} aria-label={`${dayName(day)} closed`}>
                    Closed
                  </Checkbox>
                </Form.Item>
              </Flex>
            );
          }}
        </Form.Item>
      ))}
    </Flex>
  );
}
