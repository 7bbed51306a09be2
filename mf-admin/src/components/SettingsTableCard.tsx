import type { ApiError } from '@dental/shared';
import { Button, Card, ErrorBanner, Flex, PlusOutlined, ScrollRegion, Typography } from '@dental/shared/ui';
import type { FormInstance, ModalFormOpenProps, RecordEditor } from '@dental/shared/ui/forms';
import {
  editRowAction,
  type RowAction,
  rowActionsColumn,
  Table,
  type TableColumnsType,
  type useActionError,
} from '@dental/shared/ui/lists';
import type { ReactNode } from 'react';

/** A list read as the cards show it (TanStack Query, rows under `data`). */
interface CardRead<Row> {
  data?: { data: Row[] };
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

export interface SettingsTableCardProps<Row extends { id: number; name: string }> {
  /** The card's title, and the name of its scrollable table. */
  title: string;
  /** What the table holds, said above it. */
  description: string;
  /** An admin's add button ('Add chair'), each row's actions and the form; others read. */
  canEdit: boolean;
  addLabel: string;
  read: CardRead<Row>;
  columns: TableColumnsType<Row>;
  emptyText: string;
  /** The card's one add-and-edit form's state (`useRecordEditor`). */
  editor: RecordEditor<Row, never>;
  /** A row action's refusal, in a banner until dismissed (`useActionError`). */
  actionError: ReturnType<typeof useActionError>;
  /** A row's actions, given its Edit to place among them; only Edit unless told. */
  rowActions?: (row: Row, edit: RowAction) => RowAction[];
  /** The add and edit form, open for `editor.record` (null: adding). */
  form: (opened: ModalFormOpenProps<Row>) => ReactNode;
}

/**
 * A Settings card of rows saved one by one as they change (recall types, chairs): the table, an
 * admin's add button, each row's actions with Edit, the add and edit form, the read's failure with
 * Retry, and a row action's refusal.
 */
export function SettingsTableCard<Row extends { id: number; name: string }>(
  props: SettingsTableCardProps<Row>,
) {
  const { read, canEdit, editor, actionError } = props;
  const actionsOf = (row: Row) => {
    const edit = { ...editRowAction(row.name, () => editor.edit(row)), title: 'Edit' };
    return props.rowActions ? props.rowActions(row, edit) : [edit];
  };
  const columns = canEdit
    ? [...props.columns, rowActionsColumn<Row>(actionsOf, { small: true })]
    : props.columns;
  return (
    <Card
      title={props.title}
      size="small"
      extra={
        canEdit && (
          <Button size="small" icon={<PlusOutlined />} onClick={editor.add}>
            {props.addLabel}
          </Button>
        )
      }
    >
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">
          {props.description}
          {!canEdit && ' Only an administrator can change them.'}
        </Typography.Text>
        <ErrorBanner
          message={read.isError ? (read.error as ApiError).message : null}
          onRetry={() => void read.refetch()}
        />
        <ErrorBanner message={actionError.message} onClose={actionError.clear} />
        <ScrollRegion label={props.title}>
          <Table<Row>
            rowKey="id"
            size="small"
            columns={columns}
            dataSource={read.data?.data ?? []}
            loading={read.isPending}
            pagination={false}
            locale={{ emptyText: read.isPending || read.isError ? ' ' : props.emptyText }}
          />
        </ScrollRegion>
      </Flex>
      {canEdit &&
        props.form({
          open: editor.open,
          onClose: editor.close,
          onSaved: (saved) => {
            actionError.clear();
            editor.saved(saved);
          },
        })}
    </Card>
  );
}

/**
 * A form's save refused because the name is taken (409 without field errors): said beside the name,
 * not in the form's banner. For `useModalForm`'s `onSaveError`.
 */
export function nameTakenBesideName<Values>(form: FormInstance<Values>) {
  return (error: ApiError, banner: string | null) => {
    if (error.status === 409 && error.fieldErrors.length === 0) {
      // Every form given here has a `name` field; antd types a field's path by the form's values,
      // which this helper does not know.
      form.setFields([{ name: 'name' as never, errors: [error.message] }]);
      return null;
    }
    return banner;
  };
}
