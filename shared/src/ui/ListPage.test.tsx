import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError } from '../api/client';
import { StylelessUi } from '../testing/StylelessUi';
import { ListPage, type ListPageProps, type ListPageRead, type ListPageView } from './ListPage';
import { FilterSelect } from './listFilters';
import { RowActions, rowActionsColumn } from './rowActions';
import { UiProvider } from './UiProvider';

interface Thing {
  id: number;
  name: string;
}
const BOLT = { id: 1, name: 'Bolt' };
const NUT = { id: 2, name: 'Nut' };
const SPARE = { id: -1, name: 'Spare part' };

function readOf(over: Partial<ListPageRead<Thing>> = {}): ListPageRead<Thing> {
  return {
    data: undefined,
    error: null,
    isPending: false,
    isError: false,
    isFetching: false,
    isPlaceholderData: false,
    refetch: jest.fn(),
    ...over,
  };
}
const answered = (rows: Thing[], total = rows.length) => readOf({ data: { data: rows, total } });
const failedRead = () =>
  readOf({ isError: true, error: new ApiError('Database unavailable', 500), refetch: jest.fn() });
const pending = () => readOf({ isPending: true, isFetching: true });

function viewOf(over: Partial<ListPageView> = {}): ListPageView {
  return {
    state: { page: 1, pageSize: 20, search: '', sort: 'name' },
    isFiltered: false,
    setPage: jest.fn(),
    setSearch: jest.fn(),
    setFilters: jest.fn(),
    ...over,
  };
}

const EMPTY = { noMatch: 'No things match your search', none: 'No things yet' };

type Overrides = Partial<ListPageProps<Thing>>;

function renderPage(over: Overrides = {}) {
  const props: ListPageProps<Thing> = {
    title: 'Things',
    subtitle: "The workshop's things.",
    primaryAction: { label: 'Add New Thing', onClick: jest.fn() },
    read: answered([BOLT, NUT]),
    list: viewOf(),
    actionError: { message: null, clear: jest.fn() },
    search: 'Search things',
    filters: <input aria-label="Kind" />,
    table: {
      columns: [
        { title: 'Name', key: 'name', sorter: true, render: (_, thing) => thing.name },
        { title: 'Kind', key: 'kind', render: () => 'hardware' },
      ],
      empty: EMPTY,
    },
    ...over,
  };
  const page = (current: ListPageProps<Thing>) => (
    <StylelessUi>
      <UiProvider>
        <ListPage {...current} />
      </UiProvider>
    </StylelessUi>
  );
  const view = render(page(props));
  return {
    ...view,
    props,
    user: userEvent.setup({ delay: null }),
    rerenderWith: (next: Overrides) => view.rerender(page({ ...props, ...next })),
  };
}

const cards: ListPageProps<Thing>['cards'] = {
  render: (thing, sample) => (
    <div className="thing-card">{sample ? `${thing.name} (sample)` : thing.name}</div>
  ),
  empty: EMPTY,
  loadingLabel: 'Loading things',
};

describe('ListPage (the list screen frame)', () => {
  it('draws the heading, its subtitle and primary action, the filter bar and the rows', async () => {
    const view = renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Things' })).toBeInTheDocument();
    expect(screen.getByText("The workshop's things.")).toBeInTheDocument();
    const search = screen.getByRole('searchbox', { name: 'Search things' });
    expect(search).toHaveAttribute('placeholder', 'Search things...');
    expect(search.compareDocumentPosition(screen.getByRole('textbox', { name: 'Kind' }))).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
    await view.user.type(search, 'bo');
    expect(view.props.list.setSearch).toHaveBeenLastCalledWith('bo');
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['Name', 'Kind']);
    expect(screen.getByText('Bolt').closest('tr')).toHaveAttribute('data-row-key', '1');
    await view.user.click(screen.getByRole('button', { name: 'Add New Thing' }));
    expect(view.props.primaryAction?.onClick).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the sort the URL holds on its column, and a click on a header asks for another', async () => {
    const view = renderPage({
      list: viewOf({ state: { page: 1, pageSize: 20, search: '', sort: '-name' } }),
    });
    const name = screen.getAllByRole('columnheader')[0] as HTMLElement;
    expect(name).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getAllByRole('columnheader')[1]).not.toHaveAttribute('aria-sort');
    await view.user.click(within(name).getByText('Name'));
    expect(view.props.list.setFilters).toHaveBeenCalledWith({ sort: null });
  });

  it('says the list is empty only once the server answered, and whether a filter emptied it', () => {
    const view = renderPage({ read: pending() });
    expect(screen.queryByText('No things yet')).not.toBeInTheDocument();
    expect(document.querySelector('.ant-spin-spinning')).not.toBeNull();

    view.rerenderWith({ read: answered([]) });
    expect(screen.getByText('No things yet')).toBeInTheDocument();
    view.rerenderWith({ read: answered([]), list: viewOf({ isFiltered: true }) });
    expect(screen.getByText('No things match your search')).toBeInTheDocument();
  });

  it('a failed read is said in the banner with Retry, and the list claims nothing', async () => {
    const read = failedRead();
    const view = renderPage({ read });
    expect(screen.getByRole('alert')).toHaveTextContent('Database unavailable');
    expect(screen.queryByText('No things yet')).not.toBeInTheDocument();
    await view.user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(read.refetch).toHaveBeenCalledTimes(1);
  });

  it('shows the pages the server counted, a capped count with a +, and turns the page', async () => {
    const view = renderPage({ read: readOf({ data: { data: [BOLT], total: 200, total_capped: true } }) });
    expect(screen.getByText('1-20 of 200+')).toBeInTheDocument();
    await view.user.click(screen.getByTitle('3'));
    expect(view.props.list.setPage).toHaveBeenCalledWith(3, 20);
  });

  it('the action error is dismissible and tells its owner; more banners and a notice stand in order', async () => {
    const clear = jest.fn();
    const view = renderPage({
      read: failedRead(),
      banners: <div role="alert">Linked thing not found</div>,
      actionError: { message: 'Thing is in use', clear },
      notice: <div role="note">Two things overlap</div>,
    });
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      expect.stringContaining('Database unavailable'),
      'Linked thing not found',
      expect.stringContaining('Thing is in use'),
    ]);
    expect(screen.getByRole('note')).toHaveTextContent('Two things overlap');
    const refusal = screen.getAllByRole('alert')[2] as HTMLElement;
    await view.user.click(within(refusal).getByRole('button', { name: 'Dismiss' }));
    expect(clear).toHaveBeenCalledTimes(1);
  });

  it('puts more actions before the primary one', () => {
    renderPage({ moreActions: <button type="button">Fill Things</button> });
    const buttons = screen.getAllByRole('button').map((button) => button.textContent);
    expect(buttons.indexOf('Fill Things')).toBeLessThan(buttons.indexOf('Add New Thing'));
  });
});

describe('ListPage as a card grid', () => {
  it('a spinner while the first read is on its way, then a card a row, then the pages', async () => {
    const view = renderPage({ table: undefined, cards, read: pending() });
    expect(screen.getByLabelText('Loading things')).toBeInTheDocument();
    expect(screen.queryByText('No things yet')).not.toBeInTheDocument();

    view.rerenderWith({ table: undefined, cards, read: answered([BOLT, NUT], 45) });
    expect(document.querySelectorAll('.thing-card')).toHaveLength(2);
    expect(screen.getByText('1-20 of 45')).toBeInTheDocument();
    await view.user.click(screen.getByTitle('2'));
    expect(view.props.list.setPage).toHaveBeenCalledWith(2, 20);
  });

  it('an empty answer says whether a filter emptied it; the screen may say what counts as filtered', () => {
    const view = renderPage({ table: undefined, cards, read: answered([]) });
    expect(screen.getByText('No things yet')).toBeInTheDocument();
    view.rerenderWith({ table: undefined, cards, read: answered([]), isFiltered: true });
    expect(screen.getByText('No things match your search')).toBeInTheDocument();
    expect(screen.queryByText(/of 0/)).not.toBeInTheDocument();
  });

  it('a failed read shows no cards and no empty text, or the sample, marked, under its own banner', () => {
    const view = renderPage({ table: undefined, cards, read: failedRead() });
    expect(screen.getByRole('alert')).toHaveTextContent('Database unavailable');
    expect(document.querySelectorAll('.thing-card')).toHaveLength(0);
    expect(screen.queryByText('No things yet')).not.toBeInTheDocument();

    const sample = {
      rows: [SPARE],
      banner: 'Failed to load things. Showing sample data.',
      note: 'Sample things.',
    };
    view.rerenderWith({ table: undefined, cards: { ...cards, sample }, read: failedRead() });
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to load things. Showing sample data.');
    expect(screen.getByText('Sample things.')).toBeInTheDocument();
    expect(screen.getByText('Spare part (sample)')).toBeInTheDocument();
    expect(document.querySelector('.ant-pagination')).toBeNull();

    view.rerenderWith({ table: undefined, cards: { ...cards, sample }, read: answered([BOLT]) });
    expect(screen.queryByText('Sample things.')).not.toBeInTheDocument();
    expect(screen.getByText('Bolt')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('the list kit’s small pieces', () => {
  it('RowActions: icon buttons named for their row, a tooltip or a title, off or busy as told', async () => {
    const user = userEvent.setup({ delay: null });
    const edit = jest.fn();
    render(
      <RowActions
        actions={[
          { label: 'Edit Bolt', icon: 'E', onClick: edit, title: 'Edit' },
          { label: 'Delete Bolt', icon: 'D', onClick: jest.fn(), danger: true, disabled: true },
        ]}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Edit Bolt' }));
    expect(edit).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Edit Bolt' })).toHaveAttribute('title', 'Edit');
    expect(screen.getByRole('button', { name: 'Delete Bolt' })).toBeDisabled();
  });

  it('rowActionsColumn is the Actions column of each row', () => {
    renderPage({
      table: {
        columns: [
          { title: 'Name', key: 'name', render: (_, thing) => thing.name },
          rowActionsColumn<Thing>((thing) => [
            { label: `Edit ${thing.name}`, icon: 'E', onClick: jest.fn() },
          ]),
        ],
        empty: EMPTY,
      },
    });
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'Name',
      'Actions',
    ]);
    expect(
      within(screen.getByText('Nut').closest('tr') as HTMLElement).getByRole('button'),
    ).toHaveAccessibleName('Edit Nut');
  });

  it('FilterSelect offers All first, and All clears the filter', async () => {
    // The first choice's list is still closing (no pointer events) when the select opens again.
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    const onChange = jest.fn();
    render(
      <StylelessUi>
        <FilterSelect
          label="Kind"
          value="bolt"
          allLabel="All kinds"
          choices={['bolt', { value: 'nut', label: 'Nuts' }]}
          onChange={onChange}
        />
      </StylelessUi>,
    );
    expect(screen.getByTitle('bolt')).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Kind' }));
    await user.click(await screen.findByTitle('Nuts'));
    expect(onChange).toHaveBeenLastCalledWith('nut');
    await user.click(screen.getByRole('combobox', { name: 'Kind' }));
    await user.click(await screen.findByTitle('All kinds'));
    expect(onChange).toHaveBeenLastCalledWith(null);
  });
});
