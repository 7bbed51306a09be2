import {
  Button,
  Card,
  Col,
  Empty,
  Flex,
  Pagination,
  Row,
  Spin,
  Table,
  type TableColumnsType,
  Typography,
} from 'antd';
import type { ReactNode } from 'react';
import type { ApiError } from '../api/client';
import { emptyListText, sortFromTable, sortOrderOf, tablePagination } from '../kit/listState';
import { ErrorBanner } from './ErrorBanner';
import { PlusOutlined } from './icons';
import { ListSearch } from './ListSearch';
import { PageHeading } from './PageHeading';
import { useLiveTable, useRowArrivals } from './rowArrivals';
import type { ActionError } from './rowDelete';

/** A list read as the kit's list screens make it: one server page of rows (TanStack Query). */
export interface ListPageRead<Row> {
  data?: { data: Row[]; total: number; total_capped?: boolean } | undefined;
  error: unknown;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  isPlaceholderData: boolean;
  refetch: () => unknown;
}

/** What the frame needs of the screen's `useListState()`: the view in the URL and how to change it. */
export interface ListPageView {
  state: { page: number; pageSize: number; search: string; sort: string };
  isFiltered: boolean;
  setPage: (page: number, pageSize?: number) => void;
  setSearch: (search: string) => void;
  setFilters(changes: { sort?: string | null }): void;
}

/** A list screen's read of one server page, from its list state: page, size, search and sort. */
export function listQueryOf<Sort extends string>(state: {
  page: number;
  pageSize: number;
  search: string;
  sort: Sort;
}) {
  return { page: state.page, limit: state.pageSize, search: state.search || undefined, sort: state.sort };
}

/** What an empty list says once the server has answered: narrowed by a filter, or nothing at all. */
export interface EmptyWords {
  noMatch: string;
  none: string;
}

/** The rows as a table, inside the filter's card. */
export interface ListTableOptions<Row> {
  /**
   * The columns; one with `sorter: true` sorts on the server by its `key`, and the frame shows
   * which sort the URL holds.
   */
  columns: TableColumnsType<Row>;
  empty: EmptyWords;
  size?: 'small' | 'middle' | 'large';
}

/** The rows as cards, three a row on a wide screen, below the filter's card. */
export interface CardGridOptions<Row> {
  /** One row's card; `sample` when it is one of the sample rows shown for a failed read. */
  render: (row: Row, sample: boolean) => ReactNode;
  empty: EmptyWords;
  /** What the spinner is called while the first read is on its way: 'Loading dentists'. */
  loadingLabel: string;
  /**
   * Rows to show, marked and without actions, when the read failed with nothing to show (docs/product.md, Error messages),
   * with the banner's words and a note above them; without, a failed read shows no cards at all.
   */
  sample?: { rows: Row[]; banner: string; note: ReactNode };
}

export interface ListPageProps<Row extends { id: number }> {
  title: string;
  /** One line under the heading: what the screen holds. */
  subtitle: ReactNode;
  /** The screen's primary action (a + button at the heading's right); none on a screen that adds nothing. */
  primaryAction?: { label: string; onClick: () => void };
  /** Other actions, before the primary one. */
  moreActions?: ReactNode;
  /** The list's read: a failure is said in the red banner with Retry. */
  read: ListPageRead<Row>;
  list: ListPageView;
  /** Whether a filter narrows the list (the empty text says so); the list state's own by default. */
  isFiltered?: boolean;
  /** More banners, under the load error: a linked record or a filter's choices that failed to load. */
  banners?: ReactNode;
  /** A row action's refusal, dismissible (`useActionError`). */
  actionError: ActionError;
  /** A warning under the banners, above the list. */
  notice?: ReactNode;
  /** The search box's name, first in the filter bar: 'Search patients' (shown as 'Search patients...'). */
  search?: string;
  /** The filter bar's selects and buttons. */
  filters: ReactNode;
  filterAlign?: 'end';
  /** Under the filter bar, in its card: a panel it opens, the range the list covers. */
  filterDetails?: ReactNode;
  table?: ListTableOptions<Row>;
  cards?: CardGridOptions<Row>;
  /** The screen's dialogs and drawers. */
  children?: ReactNode;
}

/**
 * A list screen's frame (docs/architecture.md, Modules): the heading with its subtitle and primary action, the
 * load-error banner with Retry and the dismissible action-error banner, the card with the filter bar,
 * and the rows as a live table (in that card) or a grid of cards (below it), each saying nothing
 * while it loads or after a failed read and 'No … yet' or 'No … match' only once the server answered.
 * A screen hands it a description: its columns or card, its filters and its actions.
 */
export function ListPage<Row extends { id: number }>(props: ListPageProps<Row>) {
  const { read, list, table, cards, actionError } = props;
  const failed = read.isError && !read.data;
  const readError = read.error ? (read.error as ApiError).message : null;
  const loadError = failed && cards?.sample ? cards.sample.banner : readError;
  const isFiltered = props.isFiltered ?? list.isFiltered;
  const primary = props.primaryAction && (
    <Button type="primary" icon={<PlusOutlined />} onClick={props.primaryAction.onClick}>
      {props.primaryAction.label}
    </Button>
  );

  return (
    <div>
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBottom: 16 }}>
        <div>
          <PageHeading>{props.title}</PageHeading>
          <Typography.Text type="secondary">{props.subtitle}</Typography.Text>
        </div>
        {props.moreActions ? (
          <Flex wrap gap={8}>
            {props.moreActions}
            {primary}
          </Flex>
        ) : (
          primary
        )}
      </Flex>

      <ErrorBanner message={loadError} onRetry={() => void read.refetch()} />
      {props.banners}
      <ErrorBanner message={actionError.message} onClose={actionError.clear} />
      {props.notice}

      <Card style={table ? undefined : { marginBottom: 16 }}>
        <Flex wrap gap={12} align={props.filterAlign} style={table ? { marginBottom: 16 } : undefined}>
          {props.search && (
            <ListSearch
              label={props.search}
              placeholder={`${props.search}...`}
              value={list.state.search}
              onSearch={list.setSearch}
            />
          )}
          {props.filters}
        </Flex>
        {props.filterDetails}
        {table && <ListTable read={read} list={list} isFiltered={isFiltered} {...table} />}
      </Card>

      {cards && <CardGrid read={read} list={list} isFiltered={isFiltered} {...cards} />}

      {props.children}
    </div>
  );
}

interface ListBodyProps<Row> {
  read: ListPageRead<Row>;
  list: ListPageView;
  isFiltered: boolean;
}

/**
 * A server-paged, server-sorted table that follows other desks without jumping (`useLiveTable`):
 * its page and sort in the URL, its empty text said only once the server has answered.
 */
function ListTable<Row extends { id: number }>(props: ListBodyProps<Row> & ListTableOptions<Row>) {
  const { read, list, columns, empty, size } = props;
  const { state } = list;
  const live = useLiveTable(read, state);
  const sorted = columns.map((column) =>
    column.sorter === true && typeof column.key === 'string'
      ? { ...column, sortOrder: sortOrderOf(state.sort, column.key) }
      : column,
  );
  return (
    <Table<Row>
      rowKey="id"
      size={size}
      columns={sorted}
      dataSource={read.data?.data ?? []}
      loading={live.loading}
      rowClassName={live.rowClassName}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: emptyListText(read, props.isFiltered, empty) }}
      pagination={tablePagination(state, read.data?.total ?? 0, list.setPage, read.data?.total_capped)}
      onChange={(_pagination, _filters, sorter, extra) => {
        if (extra.action === 'sort') list.setFilters({ sort: sortFromTable(sorter) });
      }}
    />
  );
}

/**
 * A server-paged grid of cards: a spinner on the first read, the empty text once the server has
 * answered, the sample (or nothing) after a failed read, and a card another desk brings in marked.
 */
function CardGrid<Row extends { id: number }>(props: ListBodyProps<Row> & CardGridOptions<Row>) {
  const { read, list, render, empty, sample } = props;
  const failed = read.isError && !read.data;
  const total = read.data?.total ?? 0;
  // Another desk's changes update the cards in place; a card they bring in is marked for a moment.
  const arrival = useRowArrivals(
    read.isPlaceholderData || failed ? undefined : read.data?.data,
    list.state,
    idOf,
  );
  const shown = failed ? (sample?.rows ?? null) : (read.data?.data ?? []);

  let body: ReactNode;
  if (read.isPending) {
    body = (
      <Flex justify="center" style={{ padding: 48 }}>
        <Spin aria-label={props.loadingLabel} />
      </Flex>
    );
  } else if (shown === null) {
    // The banner says why; 'No … yet' would be untrue.
    body = null;
  } else if (shown.length === 0) {
    body = (
      <Card>
        <Empty description={props.isFiltered ? empty.noMatch : empty.none} />
      </Card>
    );
  } else {
    body = (
      <Row gutter={[16, 16]} aria-busy={read.isFetching}>
        {shown.map((row) => (
          <Col key={row.id} xs={24} md={12} xl={8} className={arrival(row)}>
            {render(row, failed)}
          </Col>
        ))}
      </Row>
    );
  }

  return (
    <>
      {failed && sample && <Typography.Paragraph type="secondary">{sample.note}</Typography.Paragraph>}
      {body}
      {!failed && total > 0 && (
        <Flex justify="end" style={{ marginTop: 16 }}>
          <Pagination {...tablePagination(list.state, total, list.setPage, read.data?.total_capped)} />
        </Flex>
      )}
    </>
  );
}

const idOf = (row: { id: number }) => row.id;
