import {
  ROLE_LABELS,
  ROLES,
  type Role,
  USER_SORTS,
  USER_STATUS_FILTERS,
  useAuthStore,
  type WireUser,
} from '@dental/shared';
import { parseAsStringLiteral, useListState, useQueryClient } from '@dental/shared/kit';
import {
  ActiveTag,
  CheckCircleOutlined,
  CloseCircleOutlined,
  KeyOutlined,
  Tag,
  Typography,
} from '@dental/shared/ui';
import { useRecordEditor } from '@dental/shared/ui/forms';
import {
  deleteRowAction,
  editRowAction,
  ListFilters,
  ListPage,
  listQueryOf,
  rowActionsColumn,
  type TableColumnsType,
  useActionError,
  useRowAction,
  useRowDelete,
} from '@dental/shared/ui/lists';
import { deleteUser, setUserStatus, userKeys, useUsers } from '../api/users';
import { UserForm } from '../components/UserForm';

const FILTERS = { role: parseAsStringLiteral(ROLES), status: parseAsStringLiteral(USER_STATUS_FILTERS) };
const ROLE_CHOICES = ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));
const STATUS_CHOICES = [
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
] as const;
/** The filter bar's selects, in order. */
const FILTER_BAR = [
  { name: 'role', label: 'Role', allLabel: 'All roles', choices: ROLE_CHOICES, width: 170 },
  { name: 'status', label: 'Status', allLabel: 'All statuses', choices: STATUS_CHOICES, width: 160 },
] as const;
const ROLE_COLORS: Record<Role, string> = { admin: 'purple', receptionist: 'blue', dentist: 'cyan' };

const lastLoginFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Users (docs/product.md, Screens, admin only): the clinic's staff accounts, searched, filtered and paged by the server. */
export default function UsersPage() {
  const queryClient = useQueryClient();
  const selfId = useAuthStore((state) => state.user?.id);
  const list = useListState({ sorts: USER_SORTS, filters: FILTERS });
  const { state } = list;
  const editor = useRecordEditor<WireUser, { focusPassword: boolean }>();

  const users = useUsers({
    ...listQueryOf(state),
    role: state.role ?? undefined,
    status: state.status ?? undefined,
  });

  const refresh = () => void queryClient.invalidateQueries({ queryKey: userKeys.all });
  const actionError = useActionError(refresh);
  const status = useRowAction({
    // The account as the row showed it: changed or deleted at another desk meanwhile, it is refused.
    run: (user: WireUser) => setUserStatus(user.id, !user.is_active, user.version),
    done: (saved) => `${saved.name} was ${saved.is_active ? 'activated' : 'deactivated'}`,
    actionError,
    refresh,
  });
  const askDelete = useRowDelete<WireUser>({
    remove: deleteUser,
    question: (user) => ({
      title: `Delete ${user.name}?`,
      content: 'Are you sure you want to delete this user?',
    }),
    refused: actionError.refused,
    refresh,
    onDeleted: actionError.clear,
  });

  const columns: TableColumnsType<WireUser> = [
    {
      title: 'User',
      key: 'name',
      sorter: true,
      render: (_, user) => (
        <div>
          <Typography.Text strong>{user.name}</Typography.Text>
          {user.id === selfId && <Tag style={{ marginLeft: 8 }}>You</Tag>}
          <br />
          <Typography.Text type="secondary">{user.email}</Typography.Text>
          <br />
          <Typography.Text type="secondary">@{user.username}</Typography.Text>
        </div>
      ),
    },
    {
      title: 'Role',
      key: 'role',
      sorter: true,
      render: (_, user) => <Tag color={ROLE_COLORS[user.role]}>{ROLE_LABELS[user.role]}</Tag>,
    },
    {
      title: 'Status',
      key: 'status',
      render: (_, user) => (
        <ActiveTag active={user.is_active}>{user.is_active ? 'Active' : 'Inactive'}</ActiveTag>
      ),
    },
    {
      title: 'Last Login',
      key: 'last_login',
      sorter: true,
      render: (_, user) => (user.last_login ? lastLoginFormat.format(new Date(user.last_login)) : 'Never'),
    },
    // On a phone the actions stay in view beside the name; role, status and last login scroll.
    rowActionsColumn<WireUser>(
      (user) => [
        editRowAction(user.name, () => editor.edit(user)),
        {
          label: `Set password of ${user.name}`,
          icon: <KeyOutlined />,
          title: 'Set password (no password is stored in clear, so none can be shown)',
          onClick: () => editor.edit(user, { focusPassword: true }),
        },
        {
          label: `${user.is_active ? 'Deactivate' : 'Activate'} ${user.name}`,
          icon: user.is_active ? <CloseCircleOutlined /> : <CheckCircleOutlined />,
          title: user.is_active ? 'Deactivate' : 'Activate',
          loading: status.isPending && status.variables?.id === user.id,
          onClick: () => status.mutate(user),
        },
        deleteRowAction(user.name, () => askDelete(user)),
      ],
      { fixed: 'right' },
    ),
  ];

  return (
    <ListPage
      title="Users"
      subtitle="The clinic's staff accounts and what each may do."
      primaryAction={{ label: 'Add New User', onClick: () => editor.add() }}
      read={users}
      list={list}
      actionError={actionError}
      search="Search users"
      filters={<ListFilters list={list} filters={FILTER_BAR} />}
      table={{ columns, empty: { noMatch: 'No users match your search', none: 'No users yet' } }}
    >
      <UserForm
        open={editor.open}
        user={editor.record}
        focusPassword={editor.extra?.focusPassword}
        onClose={editor.close}
        onSaved={editor.saved}
      />
    </ListPage>
  );
}
