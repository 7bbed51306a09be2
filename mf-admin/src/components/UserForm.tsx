import {
  ROLE_LABELS,
  ROLES,
  type Role,
  userCreateSchema,
  userUpdateSchema,
  type WireUser,
} from '@dental/shared';
import { Button, EyeInvisibleOutlined, EyeOutlined, Flex } from '@dental/shared/ui';
import {
  Form,
  Input,
  ModalForm,
  type ModalFormOpenProps,
  Select,
  Switch,
  schemaRules,
  TextField,
  useModalForm,
} from '@dental/shared/ui/forms';
import { type ComponentRef, useRef, useState } from 'react';
import { createUser, getUser, updateUser, useDentistChoices, userKeys } from '../api/users';
import { UserSignInActions } from './UserSignInActions';

const createRules = schemaRules(userCreateSchema.in);
const updateRules = schemaRules(userUpdateSchema.in);
const FIELDS = ['name', 'username', 'email', 'password', 'role', 'dentist_id', 'isActive'];

interface UserFormValues {
  name: string;
  username: string;
  email: string;
  password?: string;
  role: Role;
  dentist_id?: number | null;
  isActive: boolean;
}

export interface UserFormProps extends ModalFormOpenProps<WireUser> {
  /** The user to edit; none for 'Add New User'. */
  user: WireUser | null;
  /** Opened from a row's 'Set password': the cursor starts in Password. */
  focusPassword?: boolean;
}

function valuesOf(user: WireUser | null): Partial<UserFormValues> {
  if (!user) return { role: 'receptionist', isActive: true, dentist_id: null };
  return {
    name: user.name,
    username: user.username,
    email: user.email,
    password: '',
    role: user.role,
    dentist_id: user.dentist_id,
    isActive: user.is_active,
  };
}

/** The dialog's title and Save, adding or editing. */
const WORDS = { edit: 'Edit User', add: 'Add New User', addOk: 'Add User' };

/**
 * 'Add New User' and 'Edit User' (docs/product.md, Screens: Users; Validation rules): every field required, except the
 * password on edit ('leave blank to keep current'). No stored password is ever shown: Show Password
 * shows only what is being typed.
 */
export function UserForm({ open, user: opened, onClose, onSaved, focusPassword = false }: UserFormProps) {
  const [form] = Form.useForm<UserFormValues>();
  const [showPassword, setShowPassword] = useState(false);
  const passwordInput = useRef<ComponentRef<typeof Input>>(null);
  const dentists = useDentistChoices();
  const role = Form.useWatch('role', form);
  const frame = useModalForm({
    form,
    open,
    fields: FIELDS,
    follows: { resource: 'user', record: opened, load: () => getUser(opened?.id ?? 0) },
    initialValues: valuesOf,
    onFill: () => setShowPassword(false),
    save: (values, { shown, version }) => {
      const body = {
        name: values.name,
        username: values.username,
        email: values.email,
        role: values.role,
        isActive: values.isActive,
        dentist_id: values.role === 'dentist' ? (values.dentist_id ?? null) : null,
      };
      return shown
        ? updateUser(shown.id, { ...body, password: values.password ?? '' }, version())
        : createUser({ ...body, password: values.password ?? '' });
    },
    invalidates: [userKeys.all],
    onSaved,
  });
  /** The account as the form shows it: as opened, or as 'Load theirs' brought it. */
  const user = frame.shown;
  const rulesFor = user ? updateRules : createRules;

  return (
    <ModalForm
      frame={frame}
      name="user"
      words={WORDS}
      onCancel={onClose}
      focusOnOpen={focusPassword ? passwordInput : null}
    >
      <TextField name="name" label="Full Name" rulesFor={rulesFor} />
      <TextField name="username" label="Username" rulesFor={rulesFor} />
      <TextField name="email" label="Email" rulesFor={rulesFor} type="email" />
      <Form.Item
        label="Password"
        required={!user}
        extra={user ? 'Leave blank to keep current' : 'At least 8 characters, not a common password'}
      >
        <Flex gap={8}>
          <Form.Item name="password" rules={rulesFor('password')} noStyle>
            <Input
              ref={passwordInput}
              aria-label="Password"
              type={showPassword ? 'text' : 'password'}
              autoComplete="new-password"
              placeholder={user ? 'Leave blank to keep current' : undefined}
            />
          </Form.Item>
          <Button
            icon={showPassword ? <EyeInvisibleOutlined /> : <EyeOutlined />}
            aria-pressed={showPassword}
            onClick={() => setShowPassword((shown) => !shown)}
          >
            {showPassword ? 'Hide Password' : 'Show Password'}
          </Button>
        </Flex>
      </Form.Item>
      <Form.Item name="role" label="Role" rules={rulesFor('role')}>
        <Select options={ROLES.map((each) => ({ value: each, label: ROLE_LABELS[each] }))} />
      </Form.Item>
      {role === 'dentist' && (
        <Form.Item
          name="dentist_id"
          label="Dentist record"
          rules={[{ required: true, message: 'Choose the dentist this account belongs to' }]}
          extra="The account sees and changes this dentist's availability."
        >
          <Select
            placeholder="Choose a dentist"
            showSearch={{ optionFilterProp: 'label' }}
            loading={dentists.isPending}
            options={(dentists.data?.data ?? []).map((dentist) => ({
              value: dentist.id,
              label: dentist.name,
            }))}
          />
        </Form.Item>
      )}
      <Form.Item name="isActive" label="Active" valuePropName="checked">
        <Switch />
      </Form.Item>
      {user && <UserSignInActions key={user.id} user={user} />}
    </ModalForm>
  );
}
