import type { ApiError } from '@dental/shared';
import {
  Button,
  Card,
  ErrorBanner,
  Flex,
  type FormInstance,
  PlusOutlined,
  ScrollRegion,
  Table,
  type TableColumnsType,
  Typography,
} from '@dental/shared/ui';
import type { ReactNode } from 'react';

/** A list read as the cards show it (TanStack Query, rows under `data`). */
interface CardRead<Row> {
  data?: { data: Row[] };
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

export interface SettingsTableCardProps<Row extends { id: number }> {
  /** The card's title, and the name of its scrollable table. */
  title: string;
  /** What the table holds, said above it. */
  description: string;
  /** An admin's add button ('Add chair'); others read. */
  canEdit: boolean;
  addLabel: string;
  onAdd: () => void;
  read: CardRead<Row>;
  columns: TableColumnsType<Row>;
  emptyText: string;
  /** A row action's refusal, in a banner until dismissed. */
  actionError: string | null;
  onDismissError: () => void;
  /** The card's add and edit form. */
  children?: ReactNode;
}

/**
 * A Settings card of rows saved one by one as they change (recall types, chairs): the table, an
 * admin's add button, the read's failure with Retry, and a row action's refusal.
 */
export function SettingsTableCard<Row extends { id: number }>(props: SettingsTableCardProps<Row>) {
  const { read, canEdit } = props;
  return (
    <Card
      title={props.title}
      size="small"
      extra={
        canEdit && (
          <Button size="small" icon={<PlusOutlined />} onClick={props.onAdd}>
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
        <ErrorBanner message={props.actionError} onClose={props.onDismissError} />
        <ScrollRegion label={props.title}>
          <Table<Row>
            rowKey="id"
            size="small"
            columns={props.columns}
            dataSource={read.data?.data ?? []}
            loading={read.isPending}
            pagination={false}
            locale={{ emptyText: read.isPending || read.isError ? ' ' : props.emptyText }}
          />
        </ScrollRegion>
      </Flex>
      {props.children}
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
