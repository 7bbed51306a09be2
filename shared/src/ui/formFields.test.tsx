import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { z } from 'zod';
import { emailString, phoneString, requiredText } from '../domain';
import { StylelessUi } from '../testing/StylelessUi';
import { FieldRow, NameEmailPhoneFields, optionsOf, StatusField } from './formFields';
import { Form, Input } from './forms';
import { Button } from './index';
import { schemaRules } from './schemaRules';

const schema = z.object({
  name: requiredText(20),
  email: emailString,
  phone: phoneString,
  status: z.enum(['active', 'inactive']),
});
const rulesFor = schemaRules(schema);

function PersonForm({ onFinish }: { onFinish: (values: unknown) => void }) {
  return (
    <StylelessUi>
      <Form onFinish={onFinish} initialValues={{ status: 'active' }}>
        <NameEmailPhoneFields rulesFor={rulesFor} namePlaceholder="Dr. Jane Doe" />
        <StatusField statuses={['active', 'inactive']} rules={rulesFor('status')} extra="What it means" />
        <Button htmlType="submit">Save</Button>
      </Form>
    </StylelessUi>
  );
}

describe('formFields: the fields forms share', () => {
  it('optionsOf: values that read as themselves', () => {
    expect(optionsOf(['active', 'inactive'])).toEqual([
      { value: 'active', label: 'active' },
      { value: 'inactive', label: 'inactive' },
    ]);
  });

  it("NameEmailPhoneFields: a person's name, e-mail and phone, each checked with the server's rule", async () => {
    const user = userEvent.setup();
    const onFinish = jest.fn();
    render(<PersonForm onFinish={onFinish} />);
    expect(screen.getByLabelText('Full Name')).toHaveAttribute('placeholder', 'Dr. Jane Doe');
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Phone')).toHaveAttribute('type', 'tel');
    await user.type(screen.getByLabelText('Phone'), '12');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A phone number has 7 to 15 digits')).toBeInTheDocument();
    expect((await screen.findAllByText('This field is required')).length).toBeGreaterThan(0);
    expect(onFinish).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText('Full Name'), 'Mia Martin');
    await user.type(screen.getByLabelText('Email'), 'mia@example.com');
    await user.clear(screen.getByLabelText('Phone'));
    await user.type(screen.getByLabelText('Phone'), '555 0107 22');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(onFinish).toHaveBeenCalledWith({
        name: 'Mia Martin',
        email: 'mia@example.com',
        phone: '555 0107 22',
        status: 'active',
      }),
    );
  });

  it('StatusField: the Status select, its statuses and what the status means', async () => {
    const user = userEvent.setup();
    render(<PersonForm onFinish={jest.fn()} />);
    expect(screen.getByText('What it means')).toBeInTheDocument();
    await user.click(screen.getByLabelText('Status'));
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['active', 'inactive']);
  });

  it('FieldRow: fields side by side, each in its column', () => {
    const { container } = render(
      <StylelessUi>
        <Form>
          <FieldRow spans={[14, 10]}>
            <Form.Item name="a" label="A">
              <Input />
            </Form.Item>
            <Form.Item name="b" label="B">
              <Input />
            </Form.Item>
          </FieldRow>
        </Form>
      </StylelessUi>,
    );
    const columns = container.querySelectorAll('.ant-col-xs-24');
    expect(columns).toHaveLength(2);
    expect(columns[0]).toHaveClass('ant-col-xs-24', 'ant-col-sm-14');
    expect(columns[1]).toHaveClass('ant-col-xs-24', 'ant-col-sm-10');
    expect(within(columns[1] as HTMLElement).getByLabelText('B')).toBeInTheDocument();
  });
});
