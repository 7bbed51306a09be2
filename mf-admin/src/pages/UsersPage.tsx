import {
  type ApiError,
  ROLE_LABELS,
  ROLES,
  type Role,
  USER_SORTS,
  USER_STATUS_FILTERS,
  useAuthStore,
  type WireUser,
} from '@dental/shared';
import {
  emptyListText,
  parseAsStringLiteral,
  sortFromTable,
  sortOrderOf,
  tablePagination,
  useListState,
  useMutation,
  useQueryClient,
} from '@dental/shared/kit';
import {
  App,
  Button,
  Card,
  CheckCircleOutlined,
  CloseCircleOutlined,
  DeleteOutlined,
  EditOutlined,
  ErrorBanner,
  Flex,
  KeyOutlined,
  ListSearch,
  PageHeading,
  PlusOutlined,
  Select,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
  useLiveTable,
} from '@dental/shared/ui';
import { useState } from 'react';
import { deleteUser, setUserStatus, userKeys, useUsers } from '../api/users';
import { UserForm } from '../components/UserForm';

const FILTERS = { role: parseAsStringLiteral(ROLES), status: parseAsStringLiteral(USER_STATUS_FILTERS) };
const ROLE_COLORS: Record<Role, string> = { admin: 'purple', receptionist: 'blue', dentist: 'cyan' };

const lastLoginFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Users (spec §2, admin only): the clinic's staff accounts, searched, filtered and paged by the server. */
export default function UsersPage() {
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const selfId = useAuthStore((state) => state.user?.id);
  const list = useListState({ sorts: USER_SORTS, filters: FILTERS });
  const { state } = list;
  const [editing, setEditing] = useState<{ user: WireUser | null; focusPassword?: boolean } | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  const users = useUsers({
    page: state.page,
    limit: state.pageSize,
    search: state.search || undefined,
    role: state.role ?? undefined,
    status: state.status ?? undefined,
    sort: state.sort,
  });

  // Another desk's changes update the rows in place; a row they bring in is marked for a moment.
  const live = useLiveTable(users, state);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: userKeys.all });
  /** A row action refused: said in the banner; changed or gone meanwhile, the list is read again. */
  const refused = (error: ApiError) => {
    setActionError(error.message);
    if (error.status === 412 || error.status === 404) refresh();
  };
  const status = useMutation({
    // The account as the row showed it: changed or deleted at another desk meanwhile, it is refused.
    mutationFn: (user: WireUser) => setUserStatus(user.id, !user.is_active, user.version),
    onSuccess: (saved) => {
      setActionError(null);
      message.success(`${saved.name} was ${saved.is_active ? 'activated' : 'deactivated'}`);
      refresh();
    },
    onError: refused,
  });
  const remove = useMutation({
    mutationFn: (user: WireUser) => deleteUser(user.id, user.version),
    onSuccess: (_answer, user) => {
      setActionError(null);
      message.success(`${user.name} was deleted`);
      refresh();
    },
    onError: refused,
  });

  const confirmDelete = (user: WireUser) =>
    modal.confirm({
      title: `Delete ${user.name}?`,
      content: 'Are you sure you want to delete this user?',
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: () => remove.mutateAsync(user).catch(() => undefined),
    });

  const columns: TableColumnsType<WireUser> = [
    {
      title: 'User',
      key: 'name',
      sorter: true,
      sortOrder: sortOrderOf(state.sort, 'name'),
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
      sortOrder: sortOrderOf(state.sort, 'role'),
      render: (_, user) => <Tag color={ROLE_COLORS[user.role]}>{ROLE_LABELS[user.role]}</Tag>,
    },
    {
      title: 'Status',
      key: 'status',
      render: (_, user) => (
        <Tag color={user.is_active ? 'green' : 'default'}>{user.is_active ? 'Active' : 'Inactive'}</Tag>
      ),
    },
    {
      title: 'Last Login',
      key: 'last_login',
      sorter: true,
      sortOrder: sortOrderOf(state.sort, 'last_login'),
      render: (_, user) => (user.last_login ? lastLoginFormat.format(new Date(user.last_login)) : 'Never'),
    },
    {
      title: 'Actions',
      key: 'actions',
      // On a phone the actions stay in view beside the name; role, status and last login scroll.
      fixed: 'right',
      render: (_, user) => (
        <Space size={0} wrap>
          <Button
            type="text"
            icon={<EditOutlined />}
            aria-label={`Edit ${user.name}`}
            onClick={() => setEditing({ user })}
          />
          <Button
            type="text"
            icon={<KeyOutlined />}
            aria-label={`Set password of ${user.name}`}
            title="Set password (no password is stored in clear, so none can be shown)"
            onClick={() => setEditing({ user, focusPassword: true })}
          />
          <Button
            type="text"
            icon={user.is_active ? <CloseCircleOutlined /> : <CheckCircleOutlined />}
            aria-label={`${user.is_active ? 'Deactivate' : 'Activate'} ${user.name}`}
            title={user.is_active ? 'Deactivate' : 'Activate'}
            loading={status.isPending && status.variables?.id === user.id}
            onClick={() => status.mutate(user)}
          />
          <Button
            type="text"
            danger
            icon={<DeleteOutlined />}
            aria-label={`Delete ${user.name}`}
            onClick={() => confirmDelete(user)}
          />
        </Space>
      ),
    },
  ];

  const loadError = users.error ? (users.error as ApiError).message : null;

  return (
    <div>
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBottom: 16 }}>
        <div>
          <PageHeading>Users</PageHeading>
          <Typography.Text type="secondary">
            The clinic's staff accounts and what each may do.
          </Typography.Text>
        </div>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ user: null })}>
          Add New User
        </Button>
      </Flex>

      <ErrorBanner message={loadError} onRetry={() => void users.refetch()} />
      <ErrorBanner message={actionError} onClose={() => setActionError(null)} />

      <Card>
        <Flex wrap gap={12} style={{ marginBottom: 16 }}>
          <ListSearch
            label="Search users"
            placeholder="Search users..."
            value={state.search}
            onSearch={list.setSearch}
          />
          <Select
            aria-label="Role"
            value={state.role ?? 'all'}
            onChange={(value: string) => list.setFilters({ role: value === 'all' ? null : (value as Role) })}
            options={[
              { value: 'all', label: 'All roles' },
              ...ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] })),
            ]}
            style={{ width: 170 }}
          />
          <Select
            aria-label="Status"
            value={state.status ?? 'all'}
            onChange={(value: string) =>
              list.setFilters({
                status: value === 'all' ? null : (value as (typeof USER_STATUS_FILTERS)[number]),
              })
            }
            options={[
              { value: 'all', label: 'All statuses' },
              { value: 'active', label: 'Active' },
              { value: 'inactive', label: 'Inactive' },
            ]}
            style={{ width: 160 }}
          />
        </Flex>
        <Table
          rowKey="id"
          columns={columns}
          dataSource={users.data?.data ?? []}
          loading={live.loading}
          rowClassName={live.rowClassName}
          scroll={{ x: 'max-content' }}
          locale={{
            emptyText: emptyListText(users, list.isFiltered, {
              noMatch: 'No users match your search',
              none: 'No users yet',
            }),
          }}
          pagination={tablePagination(state, users.data?.total ?? 0, list.setPage)}
          onChange={(_pagination, _filters, sorter, extra) => {
            if (extra.action === 'sort') list.setFilters({ sort: sortFromTable(sorter) });
          }}
        />
      </Card>

      <UserForm
        open={editing !== null}
        user={editing?.user ?? null}
        focusPassword={editing?.focusPassword}
        onClose={() => setEditing(null)}
        onSaved={(saved) => {
          message.success(editing?.user ? `${saved.name} was saved` : `${saved.name} was added`);
          setEditing(null);
        }}
      />
    </div>
  );
}
