import { type Appointment, dateString, timeString } from '@dental/shared';
import { formatDay } from '@dental/shared/kit';
import { Form, Input, Modal, Typography } from '@dental/shared/ui';
import { useEffect } from 'react';

export interface MoveAppointmentFormProps {
  appointment: Appointment | null;
  saving: boolean;
  onClose: () => void;
  onMove: (appointment: Appointment, to: { date: string; time: string }) => void;
}

const checkWith = (schema: typeof dateString | typeof timeString) => ({
  validator: async (_rule: unknown, value: string | undefined) => {
    const result = schema.safeParse(value ?? '');
    if (!result.success) throw new Error(result.error.issues[0]?.message ?? 'This value is not valid');
  },
});

/** Moving an appointment to another day or time without a mouse (the grid's other way is dragging). */
export function MoveAppointmentForm({ appointment, saving, onClose, onMove }: MoveAppointmentFormProps) {
  const [form] = Form.useForm<{ date: string; time: string }>();

  useEffect(() => {
    if (appointment) form.setFieldsValue({ date: appointment.date, time: appointment.time });
  }, [appointment, form]);

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (values && appointment) onMove(appointment, values);
  };

  return (
    <Modal
      open={appointment !== null}
      title="Move Appointment"
      okText="Move"
      onOk={() => void submit()}
      confirmLoading={saving}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      {appointment && (
        <Typography.Paragraph>
          {appointment.patient}, {appointment.treatment} with {appointment.dentist_name}, now on{' '}
          {formatDay(appointment.date)} at {appointment.time}.
        </Typography.Paragraph>
      )}
      <Form form={form} layout="vertical" name="move" requiredMark onFinish={() => void submit()}>
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
          <Input type="time" step={60} />
        </Form.Item>
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Modal>
  );
}
