/**
 * The UI kit's lists (`@dental/shared/ui/lists`): antd's table and the list frame, its search and
 * filters, its rows' actions, arrivals and deletes, its cards, and booking a freed time for a waiting
 * patient. A list screen loads this entry; the dashboard does not (docs/architecture.md, The UI kit).
 */

export type { TableColumnsType } from 'antd';
export { Descriptions, List, Pagination, Popconfirm, Table, Tabs } from 'antd';
export { CardTitle, cardActions } from './cardParts';
export { FillFreedTime } from './FillFreedTime';
export { FilterChoicesError } from './FilterChoicesError';
export { ListPage, listQueryOf } from './ListPage';
export { ClearFilters, FilterSelect, ListFilters } from './listFilters';
export { deleteRowAction, editRowAction, type RowAction, RowActions, rowActionsColumn } from './rowActions';
export { ARRIVED_ROW_CLASS } from './rowArrivals';
export { useActionError, useConfirmDelete, useRowAction, useRowDelete } from './rowDelete';
