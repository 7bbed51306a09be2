import { Button, Select, type SelectProps } from 'antd';
import type { CSSProperties } from 'react';

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
