import { useEffect, useRef, useState } from 'react';
import './rowArrivals.css';

/** How long a row that came in with another desk's change stays marked. */
export const ARRIVAL_HIGHLIGHT_MS = 2_000;
/** The class of such a row (a soft fade; a still tint for those who asked for less motion). */
export const ARRIVED_ROW_CLASS = 'kit-row-arrived';

/**
 * Lists don't jump: rows keep their place (tables key them by id), and a row that appears when the
 * list is read again for the same view (another desk added it) is marked for two seconds. Pass the
 * rows of the view as answered, `undefined` while a new view's rows are on their way (a placeholder),
 * and what names the view (its page, filters, sort): a new page or filter marks nothing.
 * Returns antd's `rowClassName`.
 */
export function useRowArrivals<Row>(
  rows: readonly Row[] | undefined,
  view: unknown,
  keyOf: (row: Row) => string | number,
): (row: Row) => string {
  const viewId = JSON.stringify(view ?? null);
  const seen = useRef<{ viewId: string; keys: Set<string | number> } | null>(null);
  const [arrived, setArrived] = useState<ReadonlySet<string | number>>(() => new Set());
  const keyOfRef = useRef(keyOf);
  keyOfRef.current = keyOf;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  useEffect(() => {
    if (!rows) return;
    const keys = new Set(rows.map((row) => keyOfRef.current(row)));
    const before = seen.current;
    seen.current = { viewId, keys };
    if (!before || before.viewId !== viewId) return;
    const fresh = [...keys].filter((key) => !before.keys.has(key));
    if (fresh.length === 0) return;
    setArrived(new Set(fresh));
    // A later read's rows get their own two seconds; the timer outlives reads that bring none.
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setArrived(new Set()), ARRIVAL_HIGHLIGHT_MS);
  }, [rows, viewId]);

  return (row: Row) => (arrived.has(keyOf(row)) ? ARRIVED_ROW_CLASS : '');
}

/** A list read as the kit's list screens make it (TanStack Query, rows under `data`). */
export interface ListRead<Row> {
  data?: { data: Row[] } | undefined;
  isFetching: boolean;
  isPlaceholderData: boolean;
}

/**
 * A list table that follows other desks without jumping: rows keyed by id keep their place, a row
 * that another desk's change brings in is marked for two seconds, and the loading veil covers only
 * a read with nothing of its own to show yet (the first read, another page or filter, a retry), never
 * a read again in the background, so the page, the scroll and the focus stay where they were.
 * Spread it into antd's Table: `<Table rowKey="id" {...useLiveTable(read, listState)} …>`.
 */
export function useLiveTable<Row extends { id: number }>(
  read: ListRead<Row>,
  view: unknown,
): { loading: boolean; rowClassName: (row: Row) => string } {
  const rows = read.isPlaceholderData ? undefined : read.data?.data;
  const rowClassName = useRowArrivals(rows, view, idOf);
  return { loading: read.isFetching && (read.isPlaceholderData || !read.data), rowClassName };
}

const idOf = (row: { id: number }) => row.id;
