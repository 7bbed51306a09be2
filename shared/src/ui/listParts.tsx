import { useMutation } from '@tanstack/react-query';
import {
  App,
  Button,
  Flex,
  Select,
  type SelectProps,
  Space,
  type TableColumnsType,
  Tooltip,
  Typography,
} from 'antd';
import { type CSSProperties, type ReactNode, useState } from 'react';
import type { ApiError } from '../api/client';
import { ErrorBanner } from './ErrorBanner';
import { DeleteOutlined, EditOutlined } from './icons';

/** A row action's refusal as the list frame shows it: a dismissible banner. */
export interface ActionError {
  message: string | null;
  clear: () => void;
}

/**
 * The action-error banner's state. `refused` is a row action's `onError`: the server's words go in
 * the banner, and a row changed or gone meanwhile (412, 404) reads the list again through `refresh`.
 */
export function useActionError(refresh: () => void) {
  const [message, setMessage] = useState<string | null>(null);
  return {
    message,
    clear: () => setMessage(null),
    refused: (error: ApiError) => {
      setMessage(error.message);
      if (error.status === 412 || error.status === 404) refresh();
    },
  };
}

/**
 * Asks before a delete: the screen's question, a red Delete, and the delete run on OK (a refusal is
 * said by the delete's own `onError`, so the dialog closes either way).
 */
export function useConfirmDelete() {
  const { modal } = App.useApp();
  return (question: { title: string; content: string }, remove: () => Promise<unknown>) =>
    modal.confirm({
      ...question,
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: () => remove().catch(() => undefined),
    });
}

export interface RowDeleteOptions<Row> {
  /** The API's delete of the row as the list showed it (its version: If-Match). */
  remove: (id: number, version: number) => Promise<unknown>;
  /** The screen's question before it: 'Delete patient?'. */
  question: (row: Row) => { title: string; content: string };
  /** Where a refusal is said: the list's action-error banner (`useActionError().refused`). */
  refused: (error: ApiError) => void;
  /** Reads the list again once the row is deleted. */
  refresh: () => void;
  /** What else follows a delete, before it is announced. */
  onDeleted?: () => void;
}

/**
 * A list's Delete of a named row: asked first, then sent for the row as shown (one changed or
 * deleted at another desk meanwhile is refused), announced as '<name> was deleted' and the list
 * read again. Answers what a row's Delete button calls.
 */
export function useRowDelete<Row extends { id: number; name: string; version: number }>(
  options: RowDeleteOptions<Row>,
) {
  const { message } = App.useApp();
  const confirmDelete = useConfirmDelete();
  const { remove, question, refused, refresh, onDeleted } = options;
  const deletion = useMutation({
    mutationFn: (row: Row) => remove(row.id, row.version),
    onSuccess: (_answer, row) => {
      onDeleted?.();
      message.success(`${row.name} was deleted`);
      refresh();
    },
    onError: refused,
  });
  return (row: Row) => confirmDelete(question(row), () => deletion.mutateAsync(row));
}

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

/** A choice of a filter select: a value read as itself, or a value with its label. */
export type FilterChoice<Value extends string | number> = Value | { value: Value; label: string };

export interface FilterSelectProps<Value extends string | number> {
  /** The select's name for screen readers: 'Status'. */
  label: string;
  /** The filter in the URL; null: not filtered. */
  value: Value | null;
  /** The first choice, which clears the filter: 'All statuses'. */
  allLabel: string;
  choices: readonly FilterChoice<Value>[];
  onChange: (value: Value | null) => void;
  style?: CSSProperties;
  loading?: boolean;
  popupMatchSelectWidth?: boolean;
  /** Typing narrows a long list of choices: `{ optionFilterProp: 'label' }`. */
  showSearch?: SelectProps['showSearch'];
  /**
   * How a value in the URL that is not (yet) among the choices reads, so that it still shows as
   * chosen ('Dentist 12' while the dentists load, or one no longer listed).
   */
  unlistedLabel?: (value: Value) => string;
  /**
   * Where the choice that clears the filter stands among the others; first unless said. Recall's
   * unfiltered 'Due in 30 days' stands second, in time order among the periods.
   */
  allAt?: number;
}

/** A filter bar's select: 'All …' first (no filter), then the filter's values. */
export function FilterSelect<Value extends string | number>({
  label,
  value,
  allLabel,
  choices,
  onChange,
  unlistedLabel,
  allAt = 0,
  ...rest
}: FilterSelectProps<Value>) {
  const listed: { value: Value | 'all'; label: string }[] = choices.map((choice) =>
    typeof choice === 'object' ? choice : { value: choice, label: String(choice) },
  );
  if (value !== null && unlistedLabel && !listed.some((choice) => choice.value === value)) {
    listed.push({ value, label: unlistedLabel(value) });
  }
  listed.splice(allAt, 0, { value: 'all', label: allLabel });
  return (
    <Select<Value | 'all'>
      aria-label={label}
      value={value ?? 'all'}
      onChange={(chosen) => onChange(chosen === 'all' ? null : (chosen as Value))}
      options={listed}
      {...rest}
    />
  );
}

/** The part of a list's state (useListState) a filter of it reads and writes. */
export interface FilteredList<State> {
  state: State;
  // A method, so a screen's list (whose setFilters takes only its own filters) fits.
  setFilters(changes: Partial<{ [K in keyof State]: State[K] | null }>): void;
}

type FilterValueOf<T> = Extract<NonNullable<T>, string | number>;

export type ListFilterProps<State, Name extends keyof State & string> = {
  list: FilteredList<State>;
  /** The filter's key in the list's state (and URL). */
  name: Name;
} & Omit<FilterSelectProps<FilterValueOf<State[Name]>>, 'value' | 'onChange'>;

/** A filter bar's select bound to one filter of the list: it shows the URL's value and sets it. */
export function ListFilter<State, Name extends keyof State & string>({
  list,
  name,
  ...select
}: ListFilterProps<State, Name>) {
  return (
    <FilterSelect<FilterValueOf<State[Name]>>
      {...select}
      value={(list.state[name] ?? null) as FilterValueOf<State[Name]> | null}
      onChange={(value) =>
        list.setFilters({ [name]: value } as Partial<{ [K in keyof State]: State[K] | null }>)
      }
    />
  );
}

/** The clinic's dentists as a Dentist filter offers them (a module's `useDentistChoices()`). */
export interface DentistChoicesRead {
  isPending: boolean;
  data?: { data: readonly { id: number; name: string }[] };
}

export type DentistFilterProps<State, Name extends keyof State & string> = Pick<
  ListFilterProps<State, Name>,
  'list' | 'name' | 'style'
> & { dentists: DentistChoicesRead };

/** A list's Dentist filter: the clinic's dentists; one in the URL not (yet) among them reads 'Dentist 12'. */
export function DentistFilter<State, Name extends keyof State & string>({
  dentists,
  ...filter
}: DentistFilterProps<State, Name>) {
  const choices = (dentists.data?.data ?? []).map((dentist) => ({ value: dentist.id, label: dentist.name }));
  return (
    <ListFilter<State, Name>
      {...filter}
      label="Dentist"
      allLabel="All dentists"
      loading={dentists.isPending}
      // The filter's values are dentist ids, as the list's state types them.
      choices={choices as FilterChoice<FilterValueOf<State[Name]>>[]}
      unlistedLabel={(dentist) => `Dentist ${dentist}`}
      popupMatchSelectWidth={false}
    />
  );
}

/** How wide a filter's select is: fixed, or growing with the bar from `[least, most]` px. */
export type FilterWidth = number | readonly [least: number, most: number];

const styleOfWidth = (width: FilterWidth): CSSProperties =>
  typeof width === 'number' ? { width } : { flex: `1 1 ${width[0]}px`, maxWidth: width[1] };

type ChoiceFilterEntry<State, Name extends keyof State & string> = { name: Name; width?: FilterWidth } & Omit<
  FilterSelectProps<FilterValueOf<State[Name]>>,
  'value' | 'onChange' | 'style'
>;

type DentistFilterEntry<Name> = { name: Name; width?: FilterWidth; dentists: DentistChoicesRead };

/** One select of a filter bar: a filter of the list with its words and choices, or its Dentist filter. */
export type ListFilterEntry<State> = {
  [Name in keyof State & string]: ChoiceFilterEntry<State, Name> | DentistFilterEntry<Name>;
}[keyof State & string];

const isDentistEntry = <Name,>(entry: { name: Name }): entry is DentistFilterEntry<Name> =>
  'dentists' in entry;

export interface ListFiltersProps<State> {
  list: FilteredList<State> & ClearableList;
  /** The selects, in the bar's order. */
  filters: readonly ListFilterEntry<State>[];
  /** The bar ends with Clear filters (`ClearFilters`). */
  clearable?: boolean;
}

/**
 * A filter bar's selects, described rather than written out: each screen's bar is the same
 * select bound to the URL, and only the filter, its words, its choices and its width differ.
 */
export function ListFilters<State>({ list, filters, clearable = false }: ListFiltersProps<State>) {
  const selects = filters.map(({ width, ...entry }) => {
    const style = width === undefined ? undefined : styleOfWidth(width);
    if (isDentistEntry(entry)) return <DentistFilter key={entry.name} list={list} {...entry} style={style} />;
    // The entry's choices are of its own filter's values, which the union over names loses here.
    const choice = entry as Omit<ChoiceFilterEntry<State, keyof State & string>, 'width'>;
    return <ListFilter key={entry.name} list={list} {...choice} style={style} />;
  });
  return (
    <>
      {selects}
      {clearable && <ClearFilters list={list} />}
    </>
  );
}

/** What Clear filters needs of the list's state (useListState). */
export interface ClearableList {
  isFiltered: boolean;
  reset: () => void;
}

/** Clears the search and every filter at once; shown only while they narrow the list. */
export function ClearFilters({ list }: { list: ClearableList }) {
  return list.isFiltered ? <Button onClick={list.reset}>Clear filters</Button> : null;
}

/** A read of a filter's choices (the dentists, the recall types), as TanStack Query answers it. */
export interface FilterChoicesRead {
  error: unknown;
  isError: boolean;
  refetch: () => unknown;
}

/**
 * A filter bar's choices that failed to load: without them a filter offers nothing to choose, so
 * the first failure is said in a red banner whose Retry reads each failed one again.
 */
export function FilterChoicesError({ reads }: { reads: readonly FilterChoicesRead[] }) {
  const failure = reads.find((read) => read.error)?.error as ApiError | undefined;
  return (
    <ErrorBanner
      message={failure?.message ?? null}
      onRetry={() => {
        for (const read of reads) if (read.isError) void read.refetch();
      }}
    />
  );
}
