import { screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { ApiError } from '../api/client';
import { renderScreen } from '../testing';
import { FilterChoicesError } from './FilterChoicesError';
import { ClearFilters, ListFilters } from './listFilters';

interface ThingFilters {
  kind: 'bolt' | 'nut' | null;
  maker: number | null;
  size: 'small' | 'medium' | 'large' | null;
}
const UNFILTERED: ThingFilters = { kind: null, maker: null, size: null };

/** A list's filter state as a screen's useListState keeps it, here in memory. */
function ThingFilterBar({ start = UNFILTERED }: { start?: ThingFilters }) {
  const [state, setState] = useState(start);
  const list = {
    state,
    setFilters: (changes: Partial<ThingFilters>) => setState((before) => ({ ...before, ...changes })),
    isFiltered: Object.values(state).some((value) => value !== null),
    reset: () => setState(UNFILTERED),
  };
  const makers = { isPending: false, data: { data: [{ id: 3, name: 'Dr. Acme' }] } };
  return (
    <ListFilters
      list={list}
      filters={[
        { name: 'kind', label: 'Kind', allLabel: 'All kinds', choices: ['bolt', 'nut'], width: 160 },
        { name: 'maker', dentists: makers, width: [150, 220] },
        { name: 'size', label: 'Size', allLabel: 'Medium', allAt: 1, choices: ['small', 'large'] },
      ]}
      clearable
    />
  );
}

const optionsShown = () =>
  Array.from(
    document.querySelectorAll(
      '.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option',
    ),
  ).map((option) => option.getAttribute('title'));

describe('the filter bar', () => {
  it('ListFilters: one select a filter, named by its label, the clearing choice where it is said to stand', async () => {
    const { user } = renderScreen(<ThingFilterBar start={{ kind: 'nut', maker: 9, size: null }} />);
    expect(screen.getAllByRole('combobox').map((select) => select.getAttribute('aria-label'))).toEqual([
      'Kind',
      'Dentist',
      'Size',
    ]);
    // The URL's values show as chosen; a dentist not among the choices reads by its id.
    expect(screen.getByTitle('nut')).toBeInTheDocument();
    expect(screen.getByTitle('Dentist 9')).toBeInTheDocument();
    expect(screen.getByTitle('Medium')).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Size' }));
    await waitFor(() => expect(optionsShown()).toEqual(['small', 'Medium', 'large']));
  });

  it('Clear filters shows only while a filter narrows the list, and clears them all', async () => {
    const { user, rerender } = renderScreen(<ThingFilterBar />);
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();
    rerender(<ThingFilterBar key="filtered" start={{ kind: 'bolt', maker: 3, size: 'large' }} />);
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();
    expect(screen.getByTitle('All kinds')).toBeInTheDocument();
    expect(screen.getByTitle('All dentists')).toBeInTheDocument();
  });

  it('ClearFilters on its own: Clear filters while the list is narrowed, which resets it', async () => {
    const reset = jest.fn();
    const { user, rerender } = renderScreen(<ClearFilters list={{ isFiltered: false, reset }} />);
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();
    rerender(<ClearFilters list={{ isFiltered: true, reset }} />);
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(reset).toHaveBeenCalledTimes(1);
  });

  it("FilterChoicesError says the first failed read's words, and Retry reads each failed one again", async () => {
    const kinds = { error: null, isError: false, refetch: jest.fn() };
    const makers = {
      error: new ApiError('Dentists could not be loaded', 500),
      isError: true,
      refetch: jest.fn(),
    };
    const { user } = renderScreen(<FilterChoicesError reads={[kinds, makers]} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Dentists could not be loaded');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(makers.refetch).toHaveBeenCalledTimes(1);
    expect(kinds.refetch).not.toHaveBeenCalled();
  });

  it('FilterChoicesError says nothing while every read has its choices', () => {
    renderScreen(<FilterChoicesError reads={[{ error: null, isError: false, refetch: jest.fn() }]} />);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
