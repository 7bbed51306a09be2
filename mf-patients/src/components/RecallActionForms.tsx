import { dateString, type RecallRow } from '@dental/shared';
import { formatDay, todayDay } from '@dental/shared/kit';
import { Typography } from '@dental/shared/ui';
import { Form, Input, ModalForm, useModalForm } from '@dental/shared/ui/forms';
import { markRecallContacted, updateRecall } from '../api/recall';

/**
 * The small dialogs that work a recall: a call noted and a snooze (the Recall screen), a due date set by
 * hand and the recall turned off for the patient (their details).
 */

const NOTE_MAX = 500;

interface ContactValues {
  note?: string;
}
interface SnoozeValues {
  snoozed_until: string;
}

export interface RecallActionFormProps {
  /** The recall the dialog is for; null: closed. */
  recall: RecallRow | null;
  onClose: () => void;
  onSaved: (saved: RecallRow) => void;
}

const whom = (recall: RecallRow | null) => (recall ? `${recall.patient_name}, ${recall.type_name}` : '');

/** A day to choose: said with `missing` when none is, a date, and after `today` when that is given. */
const dayRules = (missing: string, today?: string) => [
  { required: true, message: missing },
  {
    validator: async (_rule: unknown, value: string | undefined) => {
      if (!value) return;
      if (!dateString.safeParse(value).success) throw new Error('Give a date');
      if (today !== undefined && value <= today) throw new Error('Choose a day after today');
    },
  },
];

/** 'Mark contacted': the patient was called; what was said, if anything, is kept with it. */
export function RecallContactForm({ recall, onClose, onSaved }: RecallActionFormProps) {
  const [form] = Form.useForm<ContactValues>();
  const frame = useModalForm<ContactValues, RecallRow>({
    form,
    open: recall !== null,
    fields: ['note'],
    initialValues: () => ({ note: '' }),
    refillOn: [recall],
    save: (values) => markRecallContacted(recall as RecallRow, values.note?.trim() ?? ''),
    onSaved,
  });
  return (
    <ModalForm
      frame={frame}
      name="recall-contact"
      title="Mark contacted"
      okText="Mark contacted"
      onCancel={onClose}
      intro={<Typography.Paragraph type="secondary">{whom(recall)}</Typography.Paragraph>}
    >
      <Form.Item name="note" label="Note (optional)">
        <Input.TextArea rows={3} maxLength={NOTE_MAX} showCount placeholder="What was said" />
      </Form.Item>
    </ModalForm>
  );
}

/** The day after `day` (`YYYY-MM-DD`). */
export function dayAfter(day: string): string {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
}

/** 'Snooze': out of the list until a later day (after today), changed as the row showed it (If-Match). */
export function RecallSnoozeForm({ recall, onClose, onSaved }: RecallActionFormProps) {
  const [form] = Form.useForm<SnoozeValues>();
  const today = todayDay();
  const frame = useModalForm<SnoozeValues, RecallRow>({
    form,
    open: recall !== null,
    fields: ['snoozed_until'],
    initialValues: () => ({ snoozed_until: recall?.snoozed_until ?? '' }),
    refillOn: [recall],
    save: (values) => updateRecall(recall as RecallRow, { snoozed_until: values.snoozed_until }),
    onSaved,
  });
  return (
    <ModalForm
      frame={frame}
      name="recall-snooze"
      title="Snooze recall"
      okText="Snooze"
      onCancel={onClose}
      intro={
        <Typography.Paragraph type="secondary">
          {whom(recall)}: due {formatDay(recall?.due_date)}. Snoozed, it leaves the list until the day chosen.
        </Typography.Paragraph>
      }
    >
      <Form.Item
        name="snoozed_until"
        label="Snooze until"
        rules={dayRules('Choose the day it comes back', today)}
      >
        <Input type="date" min={dayAfter(today)} />
      </Form.Item>
    </ModalForm>
  );
}

interface DueDateValues {
  due_date: string;
}
interface TurnOffValues {
  note?: string;
}

/** 'Set due date': by hand, until the next visit of its treatment starts a new cycle (If-Match). */
export function RecallDueDateForm({ recall, onClose, onSaved }: RecallActionFormProps) {
  const [form] = Form.useForm<DueDateValues>();
  const frame = useModalForm<DueDateValues, RecallRow>({
    form,
    open: recall !== null,
    fields: ['due_date'],
    initialValues: () => ({ due_date: recall?.due_date ?? '' }),
    refillOn: [recall],
    save: (values) => updateRecall(recall as RecallRow, { due_date: values.due_date }),
    onSaved,
  });
  return (
    <ModalForm
      frame={frame}
      name="recall-due-date"
      title="Set due date"
      okText="Set due date"
      onCancel={onClose}
      intro={
        <Typography.Paragraph type="secondary">
          {whom(recall)}. Set by hand, it holds until the next completed visit of its treatment.
        </Typography.Paragraph>
      }
    >
      <Form.Item name="due_date" label="Due date" rules={dayRules('Choose the day it falls due')}>
        <Input type="date" />
      </Form.Item>
    </ModalForm>
  );
}

/** 'Turn off': no recall of this type for the patient (they go elsewhere, or asked not to be), and why. */
export function RecallTurnOffForm({ recall, onClose, onSaved }: RecallActionFormProps) {
  const [form] = Form.useForm<TurnOffValues>();
  const frame = useModalForm<TurnOffValues, RecallRow>({
    form,
    open: recall !== null,
    fields: ['note'],
    initialValues: () => ({ note: recall?.note ?? '' }),
    refillOn: [recall],
    save: (values) => updateRecall(recall as RecallRow, { active: false, note: values.note?.trim() ?? '' }),
    onSaved,
  });
  return (
    <ModalForm
      frame={frame}
      name="recall-turn-off"
      title="Turn recall off"
      okText="Turn off"
      onCancel={onClose}
      intro={
        <Typography.Paragraph type="secondary">
          {whom(recall)}: off for this patient, it leaves the recall list and sends no reminders.
        </Typography.Paragraph>
      }
    >
      <Form.Item name="note" label="Note (optional)">
        <Input.TextArea rows={3} maxLength={NOTE_MAX} showCount placeholder="Why, for whoever looks next" />
      </Form.Item>
    </ModalForm>
  );
}
