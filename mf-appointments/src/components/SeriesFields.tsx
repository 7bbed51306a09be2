import {
  type OccurrenceChoice,
  type RepeatRule,
  SERIES_EVERY_MAX,
  SERIES_VISITS_MAX,
  type SeriesCheckAnswer,
  type SeriesUnit,
} from '@dental/shared';
import { formatDay } from '@dental/shared/kit';
import { Alert, Button, Flex, Tag, Typography } from '@dental/shared/ui';
import { FieldRow, Form, Input, InputNumber, Radio, Select } from '@dental/shared/ui/forms';

/** The form's Repeat fields: does not repeat, or every N weeks or months, ending after K visits or on a day. */
export interface RepeatValues {
  repeat_unit?: 'none' | SeriesUnit;
  repeat_every?: number;
  repeat_end?: 'count' | 'until';
  repeat_count?: number;
  repeat_until?: string;
}

/** What a new booking's Repeat starts as. */
export const NO_REPEAT: RepeatValues = {
  repeat_unit: 'none',
  repeat_every: 1,
  repeat_end: 'count',
  repeat_count: 6,
};

/** The rule the Repeat fields set, or null when the visit does not repeat. */
export function repeatRuleOf(values: RepeatValues): RepeatRule | null {
  if (!values.repeat_unit || values.repeat_unit === 'none') return null;
  const every = values.repeat_every ?? 1;
  return values.repeat_end === 'until'
    ? { every, unit: values.repeat_unit, until: values.repeat_until ?? '' }
    : { every, unit: values.repeat_unit, count: values.repeat_count ?? 2 };
}

/** The Repeat control of a new booking. */
export function RepeatFields({ values, firstDay }: { values: RepeatValues; firstDay: string | null }) {
  const unit = values.repeat_unit ?? 'none';
  const repeat = (
    <Form.Item name="repeat_unit" label="Repeat">
      <Select options={UNIT_OPTIONS} />
    </Form.Item>
  );
  if (unit === 'none') return repeat;
  return (
    <>
      <FieldRow spans={[12, 12]}>
        {repeat}
        <CountField name="repeat_every" suffix={unit === 'week' ? 'weeks' : 'months'} />
      </FieldRow>
      <FieldRow spans={[12, 12]}>
        <Form.Item name="repeat_end" label="Ends">
          <Radio.Group
            options={[
              { value: 'count', label: 'After a number of visits' },
              { value: 'until', label: 'On a date' },
            ]}
          />
        </Form.Item>
        {values.repeat_end === 'until' ? (
          <Form.Item
            name="repeat_until"
            label="Last day"
            rules={[
              { required: true, message: 'Give the last day of the series' },
              {
                validator: async (_rule, value: string | undefined) => {
                  if (value && firstDay && value <= firstDay)
                    throw new Error('The last day is after the first visit');
                },
              },
            ]}
          >
            <Input type="date" min={firstDay ?? undefined} />
          </Form.Item>
        ) : (
          <CountField name="repeat_count" suffix="visits" />
        )}
      </FieldRow>
    </>
  );
}

/** The Repeat rule's whole numbers: each one's label, its range, and what is said outside it. */
const COUNTS = {
  repeat_every: { label: 'Every', min: 1, max: SERIES_EVERY_MAX, message: `1 to ${SERIES_EVERY_MAX}` },
  repeat_count: {
    label: 'Visits in all',
    min: 2,
    max: SERIES_VISITS_MAX,
    message: `2 to ${SERIES_VISITS_MAX} visits`,
  },
};

/** A whole number of the Repeat rule, kept in its range by the input and by the rule that says so. */
function CountField({ name, suffix }: { name: keyof typeof COUNTS; suffix: string }) {
  const { label, min, max, message } = COUNTS[name];
  return (
    <Form.Item name={name} label={label} rules={[{ required: true, type: 'integer', min, max, message }]}>
      <InputNumber min={min} max={max} suffix={suffix} style={{ width: '100%' }} />
    </Form.Item>
  );
}

const UNIT_OPTIONS = [
  { value: 'none', label: 'Does not repeat' },
  { value: 'week', label: 'Every N weeks' },
  { value: 'month', label: 'Every N months' },
];

/** One visit of a checked series and what staff chose for it. */
export interface ReviewedVisit {
  /** Where the rule put it. */
  date: string;
  time: string;
  /** Why it cannot be booked there; null when it can. */
  message: string | null;
  nearest: OccurrenceChoice | null;
  choice: 'book' | 'move' | 'skip' | 'undecided';
}

export function reviewOf(answer: SeriesCheckAnswer): ReviewedVisit[] {
  return answer.occurrences.map((occurrence) => ({
    date: occurrence.date,
    time: occurrence.time,
    message: occurrence.message,
    nearest: occurrence.nearest,
    choice: occurrence.state === 'ok' ? 'book' : 'undecided',
  }));
}

/** The visits to book as chosen, each with its place in the review (skipped ones left out). */
export function chosenVisits(
  review: readonly ReviewedVisit[],
): { visit: OccurrenceChoice; reviewIndex: number }[] {
  return review.flatMap((item, reviewIndex) => {
    if (item.choice === 'book') return [{ visit: { date: item.date, time: item.time }, reviewIndex }];
    if (item.choice === 'move' && item.nearest) return [{ visit: item.nearest, reviewIndex }];
    return [];
  });
}

export const UNDECIDED_MESSAGE = 'Move or skip each visit that cannot be booked';

/** The checked series: each visit bookable, or why not with Move and Skip; the final Save books them all or none. */
export function SeriesReview({
  review,
  onChange,
  problem,
}: {
  review: readonly ReviewedVisit[];
  onChange: (next: ReviewedVisit[]) => void;
  problem: string | null;
}) {
  const choose = (index: number, choice: ReviewedVisit['choice']) =>
    onChange(review.map((item, at) => (at === index ? { ...item, choice } : item)));
  const booking = chosenVisits(review).length;
  return (
    <section aria-label="Visits of the series" style={{ marginBottom: 16 }}>
      <Typography.Text strong>
        Visits of the series: {booking} of {review.length} to book
      </Typography.Text>
      {problem && <Alert type="error" showIcon title={problem} style={{ margin: '8px 0' }} />}
      <ol style={{ paddingLeft: 20, margin: '8px 0 0' }}>
        {review.map((item, index) => {
          const when = `${formatDay(item.date, true)} at ${item.time}`;
          return (
            <li key={`${item.date}-${item.time}`} style={{ marginBottom: 8 }}>
              <Flex wrap gap={8} align="center">
                <span>{when}</span>
                <VisitState item={item} />
              </Flex>
              {item.message && item.choice !== 'book' && (
                <Typography.Text type="secondary" style={{ display: 'block' }}>
                  {item.message}
                </Typography.Text>
              )}
              {item.message && (
                <Flex wrap gap={8} style={{ marginTop: 4 }}>
                  {item.nearest && item.choice !== 'move' && (
                    <Button size="small" onClick={() => choose(index, 'move')}>
                      Move to {item.nearest.date === item.date ? '' : `${formatDay(item.nearest.date)} `}
                      {item.nearest.time}
                    </Button>
                  )}
                  {item.choice !== 'skip' && (
                    <Button size="small" onClick={() => choose(index, 'skip')} aria-label={`Skip ${when}`}>
                      Skip
                    </Button>
                  )}
                  {item.choice !== 'undecided' && (
                    <Button
                      size="small"
                      type="link"
                      onClick={() => choose(index, 'undecided')}
                      aria-label={`Undo ${when}`}
                    >
                      Undo
                    </Button>
                  )}
                </Flex>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

function VisitState({ item }: { item: ReviewedVisit }) {
  switch (item.choice) {
    case 'book':
      return <Tag color="green">Free</Tag>;
    case 'move':
      return (
        <Tag color="blue">
          Moved to {item.nearest ? `${formatDay(item.nearest.date)} at ${item.nearest.time}` : ''}
        </Tag>
      );
    case 'skip':
      return <Tag>Skipped</Tag>;
    case 'undecided':
      return <Tag color="red">Cannot be booked</Tag>;
  }
}
