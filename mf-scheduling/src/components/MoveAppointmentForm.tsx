import { type Appointment, dateString, timeRange, timeString } from '@dental/shared';
import { formatDay } from '@dental/shared/kit';
import { Typography } from '@dental/shared/ui';
import { Form, Input, ModalForm, Select, useEditConflict } from '@dental/shared/ui/forms';
import { useEffect, useRef } from 'react';
import { getAppointment, type MoveTarget } from '../api/calendar';

export interface MoveAppointmentFormProps {
  appointment: Appointment | null;
  saving: boolean;
  /** The dentists a visit may move to (the clinic's active ones). */
  dentists: ReadonlyArray<{ id: number; name: string }>;
  onClose: () => void;
  /**
   * Moves the visit as given (its fields and version, sent in If-Match); fails with the server's
   * refusal, so a stale move (412) becomes the form's alert.
   */
  onMove: (appointment: Appointment, to: MoveTarget) => Promise<unknown>;
}

const checkWith = (schema: typeof dateString | typeof timeString) => ({
  validator: async (_rule: unknown, value: string | undefined) => {
    const result = schema.safeParse(value ?? '');
    if (!result.success) throw new Error(result.error.issues[0]?.message ?? 'This value is not valid');
  },
});

/**
 * Moving an appointment to another day, time or dentist without a mouse (the grids' other way is
 * dragging). Its length stays.
 */
export function MoveAppointmentForm({
  appointment: opened,
  saving,
  dentists,
  onClose,
  onMove,
}: MoveAppointmentFormProps) {
  const [form] = Form.useForm<{ date: string; time: string; dentistId: number }>();
  const saveButton = useRef<HTMLButtonElement>(null);
  // Another desk's change to this visit while the form is open: an alert, never a silent overwrite.
  const conflict = useEditConflict({
    resource: 'appointment',
    open: opened !== null,
    record: opened,
    load: () => getAppointment(opened?.id ?? 0),
    resave: () => void submit(),
    saveButton,
  });
  /** The visit as the form shows it: as opened, or as 'Load theirs' brought it. */
  const appointment = conflict.shown;

  useEffect(() => {
    if (appointment)
      form.setFieldsValue({
        date: appointment.date,
        time: appointment.time,
        dentistId: appointment.dentist_id,
      });
  }, [appointment, form]);

  const submit = async () => {
    if (conflict.saveDisabled) return;
    const values = await form.validateFields().catch(() => null);
    const base = conflict.base();
    // The visit's other fields go as the version saved over holds them; only where and when change.
    if (values && base) await onMove(base, values).catch((error: unknown) => conflict.handleSaveError(error));
  };
  const choices = dentists.map((dentist) => ({ value: dentist.id, label: dentist.name }));
  // A visit of a dentist no longer active still names them.
  if (appointment && !choices.some((choice) => choice.value === appointment.dentist_id))
    choices.push({ value: appointment.dentist_id, label: appointment.dentist_name });

  return (
    <ModalForm
      frame={{ form, open: appointment !== null, submit, saving, conflict, saveButton }}
      name="move"
      title="Move Appointment"
      okText="Move"
      onCancel={onClose}
      forceRender
      intro={
        appointment && (
          <Typography.Paragraph>
            {appointment.patient}, {appointment.treatment} ({appointment.duration} minutes) with{' '}
            {appointment.dentist_name}, now on {formatDay(appointment.date)} at{' '}
            {timeRange(appointment.time, appointment.end_time)}.
          </Typography.Paragraph>
        )
      }
    >
      <Form.Item
        name="date"
        label="New date"
        rules={[{ required: true, message: 'This field is required' }, checkWith(dateString)]}
      >
        <Input type="date" />
      </Form.Item>
      <Form.Item
        name="time"
        label="New time"
        rules={[{ required: true, message: 'This field is required' }, checkWith(timeString)]}
      >
        <Input type="time" step={300} />
      </Form.Item>
      <Form.Item
        name="dentistId"
        label="Dentist"
        rules={[{ required: true, message: 'This field is required' }]}
      >
        <Select options={choices} showSearch={{ optionFilterProp: 'label' }} />
      </Form.Item>
    </ModalForm>
  );
}
