import { Button, Flex, Typography } from 'antd';
import type { ReactNode } from 'react';
import { DeleteOutlined, EditOutlined } from './icons';

export interface CardTitleProps {
  /** Whom the card is of, in bold; a long name wraps. */
  name: ReactNode;
  /** The line below the name. */
  detail: ReactNode;
  /** The detail wraps too, rather than being cut short. */
  wrapDetail?: boolean;
}

/** A card's title: a name, and a line of detail below it. */
export function CardTitle({ name, detail, wrapDetail = false }: CardTitleProps) {
  return (
    <Flex vertical>
      <Typography.Text strong style={{ whiteSpace: 'normal' }}>
        {name}
      </Typography.Text>
      <Typography.Text
        type="secondary"
        style={wrapDetail ? { fontWeight: 'normal', whiteSpace: 'normal' } : { fontWeight: 'normal' }}
      >
        {detail}
      </Typography.Text>
    </Flex>
  );
}

export interface CardActionsOptions {
  /** What Edit does for which card, read by screen readers: 'Edit Mia Martin'. */
  editLabel: string;
  /** Likewise for Delete: 'Delete Mia Martin'. */
  deleteLabel: string;
  onEdit: () => void;
  onDelete: () => void;
}

/** A card's Edit and Delete buttons, for its `actions`. */
export function cardActions({ editLabel, deleteLabel, onEdit, onDelete }: CardActionsOptions): ReactNode[] {
  return [
    <Button key="edit" type="text" icon={<EditOutlined />} aria-label={editLabel} onClick={onEdit}>
      Edit
    </Button>,
    <Button
      key="delete"
      type="text"
      danger
      icon={<DeleteOutlined />}
      aria-label={deleteLabel}
      onClick={onDelete}
    >
      Delete
    </Button>,
  ];
}
