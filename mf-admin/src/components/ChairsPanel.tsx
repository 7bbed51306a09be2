import { CHAIR_NAME_MAX, type Chair, type ChairBody, chairBodySchema, dentistQueries } from '@dental/shared';
import { useMutation, useQuery, useQueryClient } from '@dental/shared/kit';
import { ActiveTag, ArrowDownOutlined, ArrowUpOutlined, Flex, Tag, Typography } from '@dental/shared/ui';
import {
  Form,
  ModalForm,
  type ModalFormOpenProps,
  Select,
  Switch,
  schemaRules,
  TextField,
  useModalForm,
  useRecordEditor,
} from '@dental/shared/ui/forms';
import {
  deleteRowAction,
  type TableColumnsType,
  useActionError,
  useRowDelete,
} from '@dental/shared/ui/lists';
import { chairKeys, createChair, reorderChairs, retireChair, updateChair, useChairs } from '../api/chairs';
import { nameTakenBesideName, SettingsTableCard } from './SettingsTableCard';

const rulesFor = schemaRules(chairBodySchema);
const FIELDS = ['name', 'default_dentist_id', 'in_service', 'bookable_online'] as const;

interface ChairValues {
  name: string;
  default_dentist_id: number | null;
  in_service: boolean;
  bookable_online: boolean;
}

const bodyOf = (chair: Chair | ChairValues): ChairBody => ({
  name: chair.name.trim(),
  default_dentist_id: chair.default_dentist_id ?? null,
  in_service: chair.in_service,
  bookable_online: chair.bookable_online,
});

export interface ChairFormProps extends ModalFormOpenProps<Chair> {
  /** The chair to edit; none for 'Add chair'. */
  chair: Chair | null;
}

/** 'Add chair' and 'Edit chair': its name, its default dentist, in service, bookable online. */
export function ChairForm({ open, chair, onClose, onSaved }: ChairFormProps) {
  const [form] = Form.useForm<ChairValues>();
  const queryClient = useQueryClient();
  const dentists = useQuery(dentistQueries.choices());
  const frame = useModalForm<ChairValues, Chair>({
    form,
    open,
    fields: FIELDS,
    initialValues: () =>
      chair ? bodyOf(chair) : { name: '', default_dentist_id: null, in_service: true, bookable_online: true },
    refillOn: [chair],
    save: (values) =>
      chair ? updateChair(chair.id, bodyOf(values), chair.version) : createChair(bodyOf(values)),
    onSaved: (saved) => {
      void queryClient.invalidateQueries({ queryKey: chairKeys.all });
      onSaved(saved);
    },
    // A name already taken (409) is said beside the name.
    onSaveError: nameTakenBesideName(form),
  });
  const activeDentists = (dentists.data?.data ?? []).filter((dentist) => dentist.status === 'active');

  return (
    <ModalForm
      frame={frame}
      name="chair"
      title={chair ? 'Edit chair' : 'Add chair'}
      okText={chair ? 'Save Changes' : 'Add chair'}
      onCancel={onClose}
    >
      <TextField
        name="name"
        label="Name"
        rulesFor={rulesFor}
        maxLength={CHAIR_NAME_MAX}
        placeholder="Chair 4"
      />
      <Form.Item
        name="default_dentist_id"
        label="Default dentist"
        extra="Whose visits take this chair first when the desk does not choose one."
      >
        <Select
          allowClear
          placeholder="No default dentist"
          loading={dentists.isPending}
          options={activeDentists.map((dentist) => ({ value: dentist.id, label: dentist.name }))}
        />
      </Form.Item>
      <Form.Item
        name="in_service"
        label="In service"
        valuePropName="checked"
        extra="Out of service, the chair shows as closed and takes no visits."
      >
        <Switch />
      </Form.Item>
      <Form.Item name="bookable_online" label="Bookable online" valuePropName="checked">
        <Switch />
      </Form.Item>
    </ModalForm>
  );
}

/**
 * Settings' chairs: the clinic's operatories in the order the day shows them. An admin adds, edits,
 * reorders and retires them; everyone else reads them.
 */
export function ChairsPanel({ canEdit }: { canEdit: boolean }) {
  const queryClient = useQueryClient();
  const chairs = useChairs();
  const editor = useRecordEditor<Chair>();
  const rows = chairs.data?.data ?? [];

  const refresh = () => void queryClient.invalidateQueries({ queryKey: chairKeys.all });
  const actionError = useActionError(refresh);
  const move = useMutation({
    mutationFn: ({ chair, by }: { chair: Chair; by: -1 | 1 }) => {
      const ids = rows.map((row) => row.id);
      const from = ids.indexOf(chair.id);
      [ids[from], ids[from + by]] = [ids[from + by] as number, chair.id];
      return reorderChairs(ids);
    },
    onSuccess: (list) => {
      actionError.clear();
      queryClient.setQueryData(chairKeys.all, list);
    },
    onError: actionError.refused,
  });
  const retire = useRowDelete<Chair>({
    remove: retireChair,
    question: (chair) => ({
      title: `Retire ${chair.name}?`,
      content: 'It leaves the day and takes no new visits; the visits it held stay in its history.',
    }),
    refused: actionError.refused,
    refresh,
    onDeleted: actionError.clear,
    wording: { okText: 'Retire', done: 'retired' },
  });

  const columns: TableColumnsType<Chair> = [
    {
      title: 'Name',
      key: 'name',
      // A name breaks between its words, never inside one, and a short one stays whole ('Chair 1').
      onCell: () => ({ style: { wordBreak: 'keep-all', minWidth: 80 } }),
      render: (_, chair) => <Typography.Text strong>{chair.name}</Typography.Text>,
    },
    {
      title: 'Default dentist',
      key: 'dentist',
      render: (_, chair) =>
        chair.default_dentist_name ?? <Typography.Text type="secondary">None</Typography.Text>,
    },
    {
      title: 'Status',
      key: 'status',
      render: (_, chair) => (
        <Flex gap={4} wrap>
          <ActiveTag active={chair.in_service}>
            {chair.in_service ? 'In service' : 'Out of service'}
          </ActiveTag>
          {chair.bookable_online && <Tag color="blue">Online</Tag>}
        </Flex>
      ),
    },
  ];

  return (
    <SettingsTableCard<Chair>
      title="Chairs"
      description="The clinic's chairs, in the order the day shows them."
      canEdit={canEdit}
      addLabel="Add chair"
      read={chairs}
      columns={columns}
      emptyText="No chairs yet"
      editor={editor}
      actionError={actionError}
      rowActions={(chair, edit) => {
        const index = rows.indexOf(chair);
        return [
          {
            label: `Move ${chair.name} up`,
            title: 'Move up',
            icon: <ArrowUpOutlined />,
            disabled: index === 0 || move.isPending,
            onClick: () => move.mutate({ chair, by: -1 }),
          },
          {
            label: `Move ${chair.name} down`,
            title: 'Move down',
            icon: <ArrowDownOutlined />,
            disabled: index === rows.length - 1 || move.isPending,
            onClick: () => move.mutate({ chair, by: 1 }),
          },
          edit,
          {
            ...deleteRowAction(chair.name, () => retire(chair)),
            label: `Retire ${chair.name}`,
            title: 'Retire',
          },
        ];
      }}
      form={(opened) => <ChairForm {...opened} chair={editor.record} />}
    />
  );
}
