import {
  RECALL_INTERVAL_MAX_MONTHS,
  RECALL_INTERVAL_MIN_MONTHS,
  type RecallType,
  type RecallTypeBody,
  recallTypeBodySchema,
  TREATMENTS,
  type Treatment,
} from '@dental/shared';
import { useQueryClient } from '@dental/shared/kit';
import { ActiveTag, Typography } from '@dental/shared/ui';
import {
  Form,
  InputNumber,
  ModalForm,
  type ModalFormOpenProps,
  optionsOf,
  Select,
  Switch,
  schemaRules,
  TextField,
  useModalForm,
  useRecordEditor,
} from '@dental/shared/ui/forms';
import { type TableColumnsType, useActionError, useRowAction } from '@dental/shared/ui/lists';
import { createRecallType, recallTypeKeys, updateRecallType, useRecallTypes } from '../api/recallTypes';
import { nameTakenBesideName, SettingsTableCard } from './SettingsTableCard';

const rulesFor = schemaRules(recallTypeBodySchema);
const FIELDS = ['name', 'treatment', 'interval_months', 'active'] as const;

interface RecallTypeValues {
  name: string;
  treatment: Treatment;
  interval_months: number;
  active: boolean;
}

const bodyOf = (type: RecallType | RecallTypeValues): RecallTypeBody => ({
  name: type.name.trim(),
  treatment: type.treatment,
  interval_months: type.interval_months,
  active: type.active,
});

const everyText = (months: number) => (months === 1 ? 'Every month' : `Every ${months} months`);

export interface RecallTypeFormProps extends ModalFormOpenProps<RecallType> {
  /** The type to edit; none for 'Add recall type'. */
  recallType: RecallType | null;
}

/** 'Add recall type' and 'Edit recall type': its name, the treatment it books, its interval, on or off. */
export function RecallTypeForm({ open, recallType, onClose, onSaved }: RecallTypeFormProps) {
  const [form] = Form.useForm<RecallTypeValues>();
  const queryClient = useQueryClient();
  const frame = useModalForm<RecallTypeValues, RecallType>({
    form,
    open,
    fields: FIELDS,
    initialValues: () =>
      recallType ? bodyOf(recallType) : { name: '', treatment: undefined, interval_months: 6, active: true },
    refillOn: [recallType],
    save: (values) =>
      recallType
        ? updateRecallType(recallType.id, bodyOf(values), recallType.version)
        : createRecallType(bodyOf(values)),
    onSaved: (saved) => {
      void queryClient.invalidateQueries({ queryKey: recallTypeKeys.all });
      onSaved(saved);
    },
    // A name already taken (409) is said beside the name.
    onSaveError: nameTakenBesideName(form),
  });

  return (
    <ModalForm
      frame={frame}
      name="recall-type"
      title={recallType ? 'Edit recall type' : 'Add recall type'}
      okText={recallType ? 'Save Changes' : 'Add recall type'}
      onCancel={onClose}
    >
      <TextField name="name" label="Name" rulesFor={rulesFor} maxLength={80} placeholder="Hygiene recall" />
      <Form.Item
        name="treatment"
        label="Treatment"
        extra="The visit it books, and whose last completed visit the due date counts from."
        rules={rulesFor('treatment')}
      >
        <Select placeholder="Choose a treatment" options={optionsOf(TREATMENTS)} />
      </Form.Item>
      <Form.Item
        name="interval_months"
        label="Interval (months)"
        rules={[
          { required: true, message: 'Give the months as a whole number' },
          ...rulesFor('interval_months'),
        ]}
      >
        <InputNumber
          min={RECALL_INTERVAL_MIN_MONTHS}
          max={RECALL_INTERVAL_MAX_MONTHS}
          precision={0}
          style={{ width: 140 }}
        />
      </Form.Item>
      <Form.Item name="active" label="Active" valuePropName="checked">
        <Switch />
      </Form.Item>
    </ModalForm>
  );
}

/**
 * Settings' recall types: what the clinic calls its patients back for and how often. An admin adds,
 * edits and turns them on or off; everyone else reads them.
 */
export function RecallTypesPanel({ canEdit }: { canEdit: boolean }) {
  const queryClient = useQueryClient();
  const types = useRecallTypes();
  const editor = useRecordEditor<RecallType>();

  const refresh = () => void queryClient.invalidateQueries({ queryKey: recallTypeKeys.all });
  const actionError = useActionError(refresh);
  const toggle = useRowAction({
    // The type as the row showed it: changed at another desk meanwhile, it is refused (412).
    run: (type: RecallType) =>
      updateRecallType(type.id, { ...bodyOf(type), active: !type.active }, type.version),
    done: (saved) => `${saved.name} is ${saved.active ? 'on' : 'off'}`,
    actionError,
    refresh,
  });

  const columns: TableColumnsType<RecallType> = [
    {
      title: 'Name',
      key: 'name',
      // A name breaks between its words, never inside one ('Hygiene recall', not 'Hygie ne').
      onCell: () => ({ style: { wordBreak: 'keep-all', minWidth: 96 } }),
      render: (_, type) => <Typography.Text strong>{type.name}</Typography.Text>,
    },
    { title: 'Treatment', key: 'treatment', render: (_, type) => type.treatment },
    { title: 'Interval', key: 'interval', render: (_, type) => everyText(type.interval_months) },
    {
      title: 'Active',
      key: 'active',
      render: (_, type) =>
        canEdit ? (
          <Switch
            size="small"
            checked={type.active}
            aria-label={`Active: ${type.name}`}
            loading={toggle.isPending && toggle.variables?.id === type.id}
            onChange={() => toggle.mutate(type)}
          />
        ) : (
          <ActiveTag active={type.active}>{type.active ? 'On' : 'Off'}</ActiveTag>
        ),
    },
  ];

  return (
    <SettingsTableCard<RecallType>
      title="Recall types"
      description="What patients are called back for and how often: a patient is due the interval after their last completed visit of the treatment."
      canEdit={canEdit}
      addLabel="Add recall type"
      read={types}
      columns={columns}
      emptyText="No recall types yet"
      editor={editor}
      actionError={actionError}
      form={(opened) => <RecallTypeForm {...opened} recallType={editor.record} />}
    />
  );
}
