import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { z } from 'zod';
import { ApiError } from '../api/client';
import { emailString, optionalText, phoneString, requiredText } from '../domain';
import { Form, type FormInstance, Input } from './forms';
import { Button } from './index';
import { schemaRules, showServerErrors } from './schemaRules';

const schema = z.object({
  name: requiredText(10),
  email: emailString,
  phone: phoneString,
  notes: optionalText(5),
});
const rulesFor = schemaRules(schema);
const FIELDS = Object.keys(schema.shape);

let formRef: FormInstance | null = null;
function TestForm({ onFinish }: { onFinish: (values: unknown) => void }) {
  const [form] = Form.useForm();
  formRef = form;
  return (
    <Form form={form} onFinish={onFinish}>
      <Form.Item name="name" label="Name" rules={rulesFor('name')}>
        <Input />
      </Form.Item>
      <Form.Item name="email" label="Email" rules={rulesFor('email')}>
        <Input />
      </Form.Item>
      <Form.Item name="phone" label="Phone" rules={rulesFor('phone')}>
        <Input />
      </Form.Item>
      <Form.Item name="notes" label="Notes" rules={rulesFor('notes')}>
        <Input />
      </Form.Item>
      <Button htmlType="submit">Save</Button>
    </Form>
  );
}

describe('schemaRules: antd form rules from the shared zod schemas', () => {
  it('marks required fields once, and says what the schema says of a bad value', async () => {
    const user = userEvent.setup();
    const onFinish = jest.fn();
    render(<TestForm onFinish={onFinish} />);
    await user.type(screen.getByLabelText('Email'), 'nope');
    await user.type(screen.getByLabelText('Phone'), '12');
    await user.type(screen.getByLabelText('Notes'), 'far too long');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(screen.getAllByText('This field is required')).toHaveLength(1);
    expect(screen.getByText('Enter a valid e-mail address')).toBeInTheDocument();
    expect(screen.getByText('A phone number has 7 to 15 digits')).toBeInTheDocument();
    expect(screen.getByText('At most 5 characters')).toBeInTheDocument();
    expect(onFinish).not.toHaveBeenCalled();
  });

  it('lets an optional field stay empty', async () => {
    const user = userEvent.setup();
    const onFinish = jest.fn();
    render(<TestForm onFinish={onFinish} />);
    await user.type(screen.getByLabelText('Name'), 'Mia');
    await user.type(screen.getByLabelText('Email'), 'mia@example.com');
    await user.type(screen.getByLabelText('Phone'), '555 0107 22');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('button', { name: 'Save' });
    expect(await waitForCall(onFinish)).toMatchObject({ name: 'Mia', email: 'mia@example.com' });
  });

  it("puts the server's field errors beside their fields and keeps the rest for the banner", async () => {
    render(<TestForm onFinish={jest.fn()} />);
    const form = formRef as FormInstance;
    const placedAll = showServerErrors(
      form,
      new ApiError('Validation failed', 400, [{ field: 'phone', message: 'This phone is taken' }]),
      FIELDS,
    );
    expect(placedAll).toBeNull();
    expect(await screen.findByText('This phone is taken')).toBeInTheDocument();

    const leftOver = showServerErrors(
      form,
      new ApiError('Dr. Lee already has an appointment at 10:00', 409),
      FIELDS,
    );
    expect(leftOver).toBe('Dr. Lee already has an appointment at 10:00');
  });
});

async function waitForCall(fn: jest.Mock): Promise<unknown> {
  const { waitFor } = await import('@testing-library/react');
  await waitFor(() => expect(fn).toHaveBeenCalled());
  return fn.mock.calls[0]?.[0];
}
