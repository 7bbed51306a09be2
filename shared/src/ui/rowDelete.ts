import { useMutation } from '@tanstack/react-query';
import { App } from 'antd';
import { useState } from 'react';
import type { ApiError } from '../api/client';

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

export interface RowActionOptions<Variables, Answer> {
  /** The API's call for the row as the list showed it (its version: If-Match). */
  run: (variables: Variables) => Promise<Answer>;
  /** What is announced once it is done; nothing unless told. */
  done?: (answer: Answer, variables: Variables) => string;
  /** The list's action-error banner (`useActionError`): cleared once done, the refusal said in it. */
  actionError: Pick<ReturnType<typeof useActionError>, 'clear' | 'refused'>;
  /** Reads the list again once done. */
  refresh: () => void;
}

/**
 * A row's action that useRowDelete does not fit (a status, a switch, a reminder, a delete asked in the
 * screen's own words): done, announced and the list read again, or refused in the list's banner.
 * Answers the mutation, for `mutate` and the row it is pending for.
 */
export function useRowAction<Variables, Answer>(options: RowActionOptions<Variables, Answer>) {
  const { message } = App.useApp();
  const { run, done, actionError, refresh } = options;
  return useMutation<Answer, ApiError, Variables>({
    mutationFn: (variables) => run(variables),
    onSuccess: (answer, variables) => {
      actionError.clear();
      if (done) message.success(done(answer, variables));
      refresh();
    },
    onError: actionError.refused,
  });
}

/**
 * Asks before a delete: the screen's question, a red Delete, and the delete run on OK (a refusal is
 * said by the delete's own `onError`, so the dialog closes either way).
 */
export function useConfirmDelete() {
  const { modal } = App.useApp();
  return (question: { title: string; content: string; okText?: string }, remove: () => Promise<unknown>) =>
    modal.confirm({
      ...question,
      okText: question.okText ?? 'Delete',
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
  /** A delete the screen calls otherwise ('Retire', '<name> was retired'); Delete unless told. */
  wording?: { okText: string; done: string };
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
  const { remove, question, refused, refresh, onDeleted, wording } = options;
  const deletion = useMutation({
    mutationFn: (row: Row) => remove(row.id, row.version),
    onSuccess: (_answer, row) => {
      onDeleted?.();
      message.success(`${row.name} was ${wording?.done ?? 'deleted'}`);
      refresh();
    },
    onError: refused,
  });
  return (row: Row) =>
    confirmDelete({ ...question(row), okText: wording?.okText }, () => deletion.mutateAsync(row));
}
