import { Alert, Button, Flex } from 'antd';
import { type ReactNode, type RefObject, useEffect, useRef, useState } from 'react';
import { staleCurrentOf } from '../api/client';
import { GONE_MEANWHILE_MESSAGE, type LiveResource, STALE_WRITE_MESSAGE } from '../domain/liveDesk';
import { useClinicEvents } from '../kit/liveEvents';

/** A row as the API answers it: its version moves on with every change (liveDesk.ts). */
export interface Versioned {
  version: number;
}

/** What another desk did to the record while this form had it open. */
type Conflict<Row> =
  /** An event said it changed; `latest` is the newer version as read then. */
  | { kind: 'changed'; latest: Row }
  /** A Save was refused as stale (412); `current` is the version the server holds. */
  | { kind: 'stale'; current: Row }
  /** It was deleted. */
  | { kind: 'gone' };

export interface EditConflictOptions<Row extends Versioned> {
  /** Which clinic events are about this record; null for a form that follows no record. */
  resource: LiveResource | null;
  /** The form is open. */
  open: boolean;
  /** The record the form opens with; null when the form adds a new one (nothing to follow). */
  record: Row | null;
  /**
   * The record's id in the events; default `record.id`. Null for the clinic's one row (settings):
   * every event of the resource is about it.
   */
  id?: number | null;
  /** Reads the record as the server holds it now (Load theirs, and to learn an event's version). */
  load: () => Promise<Row>;
  /** The form's Save, run again by 'Save mine over it' once the newer version is the one named. */
  resave: () => void;
  /**
   * The form's Save button: focus goes there once the alert's choice is made and the alert (with
   * the button pressed) is gone, so a keyboard or screen reader user stays in the form.
   */
  saveButton: RefObject<HTMLElement | null>;
}

export interface EditConflict<Row> {
  /**
   * The version the form shows, to fill the form from: the record as it was when the form opened,
   * or the one 'Load theirs' brought. It keeps its identity while the form stays open, whatever the
   * record prop becomes (a list read again in the background), so a form that fills itself when
   * this changes never loses what was typed.
   */
  shown: Row | null;
  /** The version the next Save names in `If-Match` (undefined when adding a record). */
  version: () => number | undefined;
  /**
   * The row that version is of: `shown`, or the newer one the user chose to save over ('Keep mine',
   * 'Save mine over it'). A Save that sends fields the form does not edit takes them from here.
   */
  base: () => Row | null;
  /** A form that stays open after saving (Settings) hands over what the Save answered: now it is shown. */
  saved: (row: Row) => void;
  /** Give it a failed Save's error: true when it was a stale write (412), which the alert now shows. */
  handleSaveError: (error: unknown) => boolean;
  /** The record was deleted meanwhile: Save is not offered (Close is). */
  saveDisabled: boolean;
  /** The alert and its choices, to show beside Save; null when nothing happened. */
  alert: ReactNode;
  /** A Modal's `footer`: the alert above the dialog's buttons. */
  footer: (buttons: ReactNode) => ReactNode;
}

interface Held<Row> {
  /** What the form was opened on: null closed, 'new' adding, else the record's id. */
  key: string | null;
  shown: Row | null;
  conflict: Conflict<Row> | null;
}

const statusOf = (error: unknown): unknown => (error as { status?: unknown } | null)?.status;

/**
 * No edit is silently lost: while an edit form is open, a change another desk makes to its record
 * shows an alert beside Save ('Load theirs' or 'Keep mine'), a Save refused as stale (412) shows it
 * with the server's version ('Load theirs' or 'Save mine over it'), and a record deleted meanwhile
 * disables Save. What the user typed is replaced only when they choose 'Load theirs'.
 */
export function useEditConflict<Row extends Versioned>(options: EditConflictOptions<Row>): EditConflict<Row> {
  const { resource, open, record } = options;
  const rowId = (row: Row | null): number | null =>
    options.id !== undefined ? options.id : ((row as { id?: number } | null)?.id ?? null);
  const key = !open ? null : record ? `row:${rowId(record)}` : 'new';
  const [held, setHeld] = useState<Held<Row>>({ key: null, shown: null, conflict: null });
  const version = useRef<number | undefined>(undefined);
  const baseRow = useRef<Row | null>(null);
  const heldKey = useRef<string | null>(null);
  const [loading, setLoading] = useState(false);
  const latest = useRef(options);
  latest.current = options;

  let current = held;
  if (held.key !== key) {
    // Opened (or closed, or opened on another record): the form starts from the record as it is now.
    current = { key, shown: record, conflict: null };
    version.current = record?.version;
    baseRow.current = record;
    heldKey.current = key;
    setHeld(current);
  }
  const { shown, conflict } = current;
  /** A choice of the alert was made: once the alert is gone, focus goes to the form's Save. */
  const focusSaveAfterChoice = useRef(false);
  const focusSaveOnceChosen = () => {
    focusSaveAfterChoice.current = true;
  };
  useEffect(() => {
    if (conflict || !focusSaveAfterChoice.current) return;
    focusSaveAfterChoice.current = false;
    const save = latest.current.saveButton.current;
    if (save?.isConnected && !save.matches(':disabled')) save.focus();
  }, [conflict]);

  const setConflict = (next: (was: Conflict<Row> | null) => Conflict<Row> | null) =>
    setHeld((was) => (was.key === heldKey.current ? { ...was, conflict: next(was.conflict) } : was));
  /** Saves go against this row from now on. */
  const baseOn = (row: Row) => {
    version.current = row.version;
    baseRow.current = row;
  };
  const show = (row: Row) => {
    baseOn(row);
    setHeld((was) => ({ ...was, shown: row, conflict: null }));
  };

  /** Reads the record now: a newer version than the one named raises the alert; none, gone. */
  const check = async (asStale: boolean) => {
    const openedOn = heldKey.current;
    try {
      const now = await latest.current.load();
      if (heldKey.current !== openedOn) return;
      // An event about a version the form already names (its own echo, a late one) says nothing new.
      if (!asStale && now.version <= (version.current ?? -1)) return;
      setConflict((was) =>
        was?.kind === 'gone'
          ? was
          : was?.kind === 'stale' || asStale
            ? { kind: 'stale', current: now }
            : { kind: 'changed', latest: now },
      );
    } catch (error) {
      if (heldKey.current === openedOn && statusOf(error) === 404) setConflict(() => ({ kind: 'gone' }));
    }
  };

  useClinicEvents((event) => {
    if (!open || !shown || event.resource !== resource) return;
    // Not filtered by who: one account is often signed in at several desks, and another of its
    // desks is another desk. This form's own Save is known by its version (check) and closes it.
    // An event without an id changed many rows (an import), perhaps this one; the clinic's one row
    // (settings) is whatever id its events carry.
    const id = rowId(shown);
    const exact = event.id !== null && id !== null && event.id === id;
    if (!exact && event.id !== null && id !== null) return;
    if (event.action === 'deleted' && exact) setConflict(() => ({ kind: 'gone' }));
    // Reading it tells whether it is newer than what the form shows (or gone).
    else if (event.action !== 'created') void check(false);
  });

  const handleSaveError = (error: unknown): boolean => {
    if (!shown) return false;
    const now = staleCurrentOf<Row>(error);
    if (now) {
      setConflict((was) => (was?.kind === 'gone' ? was : { kind: 'stale', current: now }));
      return true;
    }
    if (statusOf(error) === 412) {
      void check(true);
      return true;
    }
    // Not found: the record itself, or something it names? Reading it again tells.
    if (statusOf(error) === 404) void check(false);
    return false;
  };

  const loadTheirs = async () => {
    if (!conflict || conflict.kind === 'gone') return;
    if (conflict.kind === 'stale') {
      show(conflict.current);
      return;
    }
    const openedOn = heldKey.current;
    setLoading(true);
    try {
      const now = await latest.current.load();
      if (heldKey.current === openedOn) show(now);
    } catch (error) {
      if (heldKey.current === openedOn && statusOf(error) === 404) setConflict(() => ({ kind: 'gone' }));
    } finally {
      setLoading(false);
    }
  };

  let alert: ReactNode = null;
  if (conflict?.kind === 'gone') {
    alert = (
      <Alert
        type="error"
        role="alert"
        showIcon
        title={GONE_MEANWHILE_MESSAGE}
        description="It can no longer be saved: close the form."
        style={{ textAlign: 'start', marginBottom: 12 }}
      />
    );
  } else if (conflict) {
    const stale = conflict.kind === 'stale';
    alert = (
      <Alert
        type="warning"
        role="alert"
        showIcon
        title={STALE_WRITE_MESSAGE}
        description={
          <>
            <div>
              {stale
                ? 'Your changes were not saved. Load theirs (your changes here are dropped), or save yours over theirs.'
                : 'Load theirs (your changes here are dropped), or keep yours: saving then replaces theirs.'}
            </div>
            {/* Below the words, not beside them: on a phone the words keep the alert's width. */}
            <Flex wrap gap={8} style={{ marginTop: 8 }}>
              <Button
                size="small"
                onClick={() => {
                  focusSaveOnceChosen();
                  void loadTheirs();
                }}
                loading={loading}
              >
                Load theirs
              </Button>
              {stale ? (
                <Button
                  size="small"
                  type="primary"
                  onClick={() => {
                    focusSaveOnceChosen();
                    baseOn(conflict.current);
                    setConflict(() => null);
                    latest.current.resave();
                  }}
                >
                  Save mine over it
                </Button>
              ) : (
                <Button
                  size="small"
                  onClick={() => {
                    focusSaveOnceChosen();
                    baseOn(conflict.latest);
                    setConflict(() => null);
                  }}
                >
                  Keep mine
                </Button>
              )}
            </Flex>
          </>
        }
        style={{ textAlign: 'start', marginBottom: 12 }}
      />
    );
  }

  return {
    shown,
    version: () => version.current,
    base: () => baseRow.current,
    saved: show,
    handleSaveError,
    saveDisabled: conflict?.kind === 'gone',
    alert,
    footer: (buttons) => (
      <>
        {alert}
        {buttons}
      </>
    ),
  };
}
