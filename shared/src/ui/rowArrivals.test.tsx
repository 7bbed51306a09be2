import { act, renderHook } from '@testing-library/react';
import { ARRIVAL_HIGHLIGHT_MS, ARRIVED_ROW_CLASS, useRowArrivals } from './rowArrivals';

interface Row {
  id: number;
}
const rows = (...ids: number[]): Row[] => ids.map((id) => ({ id }));

function renderArrivals(initial: { rows: Row[] | undefined; view: unknown }) {
  return renderHook(({ rows: current, view }) => useRowArrivals(current, view, (row: Row) => row.id), {
    initialProps: initial,
  });
}

afterEach(() => jest.useRealTimers());

describe('useRowArrivals (lists do not jump)', () => {
  it('marks a row that appears when the same view is read again, for two seconds', () => {
    jest.useFakeTimers();
    const view = renderArrivals({ rows: rows(1, 2), view: { page: 1 } });
    expect(view.result.current({ id: 1 })).toBe('');

    view.rerender({ rows: rows(3, 1, 2), view: { page: 1 } });
    expect(view.result.current({ id: 3 })).toBe(ARRIVED_ROW_CLASS);
    expect(view.result.current({ id: 1 })).toBe('');

    // Another read within the two seconds that brings nothing new keeps the mark until its time.
    view.rerender({ rows: rows(3, 1, 2), view: { page: 1 } });
    act(() => jest.advanceTimersByTime(ARRIVAL_HIGHLIGHT_MS - 1));
    expect(view.result.current({ id: 3 })).toBe(ARRIVED_ROW_CLASS);
    act(() => jest.advanceTimersByTime(1));
    expect(view.result.current({ id: 3 })).toBe('');
  });

  it('marks nothing on the first rows, on another page or filter, or while a placeholder is shown', () => {
    const view = renderArrivals({ rows: undefined, view: { page: 1 } });
    view.rerender({ rows: rows(1, 2), view: { page: 1 } });
    expect(view.result.current({ id: 1 })).toBe('');

    // The next page: the old rows stand in (undefined here) until the new ones come.
    view.rerender({ rows: undefined, view: { page: 2 } });
    view.rerender({ rows: rows(3, 4), view: { page: 2 } });
    expect(view.result.current({ id: 3 })).toBe('');
    view.rerender({ rows: undefined, view: { page: 1, search: 'mia' } });
    view.rerender({ rows: rows(5), view: { page: 1, search: 'mia' } });
    expect(view.result.current({ id: 5 })).toBe('');
    // That view read again with a row another desk added: marked.
    view.rerender({ rows: rows(6, 5), view: { page: 1, search: 'mia' } });
    expect(view.result.current({ id: 6 })).toBe(ARRIVED_ROW_CLASS);
  });
});
