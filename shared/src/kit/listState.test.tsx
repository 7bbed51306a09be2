import { screen, waitFor } from '@testing-library/react';
import { parseAsStringLiteral } from 'nuqs';
import { APPOINTMENT_STATUSES } from '../domain';
import { renderScreen } from '../testing';
import { parseAsDay, parseAsId, useListState } from './listState';

const FILTERS = {
  status: parseAsStringLiteral(APPOINTMENT_STATUSES),
  dentist: parseAsId,
  from: parseAsDay,
};
const SORTS = ['date', '-date', 'patient'] as const;

function ListProbe() {
  const list = useListState({ sorts: SORTS, filters: FILTERS });
  return (
    <div>
      <output aria-label="state">{JSON.stringify(list.state)}</output>
      <output aria-label="filtered">{String(list.isFiltered)}</output>
      <button type="button" onClick={() => list.setFilters({ status: 'pending' })}>
        pending
      </button>
      <button type="button" onClick={() => list.setPage(4, 50)}>
        page 4
      </button>
      <button type="button" onClick={() => list.setSearch('mia')}>
        search
      </button>
      <button type="button" onClick={() => list.reset()}>
        reset
      </button>
    </div>
  );
}

const state = () => JSON.parse(screen.getByLabelText('state').textContent ?? '{}');

describe('useListState: a list screen kept in the URL', () => {
  it('reads page, size, search, sort and filters from the query string', () => {
    renderScreen(<ListProbe />, {
      url: '/list?page=3&pageSize=50&search=lee&sort=-date&status=confirmed&dentist=4&from=2026-11-01',
    });
    expect(state()).toEqual({
      page: 3,
      pageSize: 50,
      search: 'lee',
      sort: '-date',
      status: 'confirmed',
      dentist: 4,
      from: '2026-11-01',
    });
    expect(screen.getByLabelText('filtered')).toHaveTextContent('true');
  });

  it('reads what a hand-edited URL gets wrong as the defaults', () => {
    renderScreen(<ListProbe />, {
      url: '/list?page=-2&pageSize=5000&sort=nonsense&status=lost&dentist=abc&from=2026-02-30',
    });
    expect(state()).toEqual({
      page: 1,
      pageSize: 100,
      search: '',
      sort: 'date',
      status: null,
      dentist: null,
      from: null,
    });
  });

  it('a filter goes into the URL and back to page 1; paging keeps the filter', async () => {
    const view = renderScreen(<ListProbe />, { url: '/list?page=3' });
    await view.user.click(screen.getByRole('button', { name: 'pending' }));
    await waitFor(() => expect(view.currentParams().get('status')).toBe('pending'));
    expect(view.currentParams().get('page')).toBeNull();
    await view.user.click(screen.getByRole('button', { name: 'page 4' }));
    await waitFor(() => expect(view.currentUrl()).toBe('/list?status=pending&page=4&pageSize=50'));
    expect(state()).toMatchObject({ page: 4, pageSize: 50, status: 'pending' });
  });

  it('each change is a step in history, so Back undoes it', async () => {
    const view = renderScreen(<ListProbe />, { url: '/list' });
    await view.user.click(screen.getByRole('button', { name: 'pending' }));
    await waitFor(() => expect(view.currentParams().get('status')).toBe('pending'));
    window.history.back();
    await waitFor(() => expect(view.currentParams().get('status')).toBeNull());
    await waitFor(() => expect(state().status).toBeNull());
  });

  it('search reaches the URL once typing pauses; reset clears everything', async () => {
    const view = renderScreen(<ListProbe />, { url: '/list?status=cancelled&page=2' });
    await view.user.click(screen.getByRole('button', { name: 'search' }));
    // Both keys change with the one debounced update; each lands on its own timer, so both are awaited.
    await waitFor(() => {
      expect(view.currentParams().get('search')).toBe('mia');
      expect(view.currentParams().get('page')).toBeNull();
    });
    await view.user.click(screen.getByRole('button', { name: 'reset' }));
    await waitFor(() => expect(view.currentUrl()).toBe('/list'));
    expect(screen.getByLabelText('filtered')).toHaveTextContent('false');
  });
});
