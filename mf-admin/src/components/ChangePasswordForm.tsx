import { PASSWORD_CHANGED_MESSAGE, passwordChangeSchema, useAuthStore } from '@dental/shared';
import { App, Button, ErrorBanner } from '@dental/shared/ui';
import { Form, Input, schemaRules, useModalForm } from '@dental/shared/ui/forms';

const rulesFor = schemaRules(passwordChangeSchema);

interface PasswordValues {
  current_password: string;
  new_password: string;
  confirm_password: string;
}

/** Your own password (Settings, Security): the current one required; your other sessions end. */
export function ChangePasswordForm() {
  const [form] = Form.useForm<PasswordValues>();
  const { message } = App.useApp();
  const changePassword = useAuthStore((state) => state.changePassword);
  // The modal forms' save, without the modal: it sits in the Settings page.
  const password = useModalForm({
    form,
    open: true,
    fields: ['current_password', 'new_password'],
    save: (values) => changePassword(values.current_password, values.new_password),
    onSaved: () => {
      form.resetFields();
      message.success(PASSWORD_CHANGED_MESSAGE);
    },
  });

  return (
    // No <form> of its own: it sits inside the settings form, and forms do not nest.
    <Form form={form} component={false} layout="vertical" name="password" requiredMark>
      <ErrorBanner message={password.error} onClose={password.dismissError} />
      <Form.Item name="current_password" label="Current password" rules={rulesFor('current_password')}>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item
        name="new_password"
        label="New password"
        rules={rulesFor('new_password')}
        extra="At least 8 characters, not a common password. Your other sessions will be signed out."
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirm_password"
        label="Confirm new password"
        dependencies={['new_password']}
        rules={[
          { required: true, message: 'This field is required' },
          ({ getFieldValue }) => ({
            validator: async (_rule, value: string | undefined) => {
              if (value && value !== getFieldValue('new_password'))
                throw new Error('The passwords do not match');
            },
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button loading={password.saving} onClick={() => void password.submit()}>
        Change Password
      </Button>
    </Form>
  );
}
