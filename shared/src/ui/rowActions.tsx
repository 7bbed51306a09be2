import { Button, Space, type TableColumnsType, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { DeleteOutlined, EditOutlined } from './icons';

/** One icon button of a row: what it does for which row, read by screen readers ('Edit Mia Martin'). */
export interface RowAction {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  /** A tooltip over the button. */
  tooltip?: string;
  /** The browser's own hint over the button. */
  title?: string;
  danger?: boolean;
  disabled?: boolean;
  loading?: boolean;
}

/** A row's Edit, read by screen readers as 'Edit Mia Martin'. */
export const editRowAction = (name: string, onClick: () => void): RowAction => ({
  label: `Edit ${name}`,
  icon: <EditOutlined />,
  onClick,
});

/** A row's Delete, in red, read by screen readers as 'Delete Mia Martin'. */
export const deleteRowAction = (name: string, onClick: () => void): RowAction => ({
  label: `Delete ${name}`,
  icon: <DeleteOutlined />,
  danger: true,
  onClick,
});

export interface RowActionsProps {
  actions: RowAction[];
  /** Small buttons close together on one line, for a table with many columns. */
  small?: boolean;
}

/** A row's actions as icon buttons, side by side. */
export function RowActions({ actions, small = false }: RowActionsProps) {
  const buttons = actions.map((action) => {
    const button = (
      <Button
        key={action.label}
        type="text"
        size={small ? 'small' : undefined}
        danger={action.danger}
        icon={action.icon}
        aria-label={action.label}
        title={action.title}
        loading={action.loading}
        disabled={action.disabled}
        onClick={action.onClick}
      />
    );
    return action.tooltip ? (
      <Tooltip key={action.label} title={action.tooltip}>
        {button}
      </Tooltip>
    ) : (
      button
    );
  });
  return small ? (
    <Space size={2}>{buttons}</Space>
  ) : (
    <Space size={0} wrap>
      {buttons}
    </Space>
  );
}

/** A table's Actions column: each row's `RowActions`. `fixed: 'right'` keeps it in view on a phone. */
export function rowActionsColumn<Row>(
  actionsOf: (row: Row) => RowAction[],
  options: { small?: boolean; fixed?: 'right' } = {},
): TableColumnsType<Row>[number] {
  return {
    title: 'Actions',
    key: 'actions',
    ...(options.fixed ? { fixed: options.fixed } : {}),
    render: (_: unknown, row: Row) => <RowActions actions={actionsOf(row)} small={options.small} />,
  };
}
