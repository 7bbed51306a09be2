import { type Appointment, type SeriesScope, seriesPlaceText } from '@dental/shared';
import { Typography } from '@dental/shared/ui';
import { Modal, Radio } from '@dental/shared/ui/forms';
import { type ReactNode, useRef, useState } from 'react';

interface Question {
  appointment: Appointment;
  /** What is done: 'Cancel', 'Save changes to'. */
  action: string;
}

/**
 * "This visit" or "This and the following": asked before a visit of a series is cancelled or
 * edited. `ask` answers the scope chosen, or null when staff close the question; a visit outside a
 * series is not asked about and answers 'this' at once.
 */
export function useSeriesScopeQuestion(): {
  ask: (appointment: Appointment, action: string) => Promise<SeriesScope | null>;
  dialog: ReactNode;
} {
  const [question, setQuestion] = useState<Question | null>(null);
  const [scope, setScope] = useState<SeriesScope>('this');
  const answer = useRef<((scope: SeriesScope | null) => void) | null>(null);

  const ask = (appointment: Appointment, action: string) => {
    if (!appointment.series) return Promise.resolve<SeriesScope | null>('this');
    setScope('this');
    setQuestion({ appointment, action });
    return new Promise<SeriesScope | null>((resolve) => {
      answer.current = resolve;
    });
  };
  const close = (chosen: SeriesScope | null) => {
    answer.current?.(chosen);
    answer.current = null;
    setQuestion(null);
  };

  const series = question?.appointment.series;
  const dialog = (
    <Modal
      open={question !== null}
      title={`${question?.action ?? ''} a visit of a series`}
      okText={question?.action ?? 'OK'}
      cancelText="Back"
      onOk={() => close(scope)}
      onCancel={() => close(null)}
      destroyOnHidden
    >
      {series && (
        <Typography.Paragraph>
          This visit is {seriesPlaceText(series).toLowerCase()}. Which visits does this change?
        </Typography.Paragraph>
      )}
      <Radio.Group
        aria-label="Visits to change"
        value={scope}
        onChange={(event) => setScope(event.target.value as SeriesScope)}
        options={[
          { value: 'this', label: 'This visit' },
          {
            value: 'following',
            label: 'This and the following visits',
          },
        ]}
        style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
      />
    </Modal>
  );
  return { ask, dialog };
}
