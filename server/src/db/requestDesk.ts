import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The desk (browser tab) the request being served came from, for the audit record of what it
 * writes: the record's announcement then names it, and every other desk hears of the change, though
 * one signed in to the same account. Held per request, so the writes of every resource carry it
 * without each handing it down; work of the server's own (reminders, imports) has none.
 */
const deskOfRequest = new AsyncLocalStorage<string | null>();

/** Runs the rest of a request's handling as made at `desk`. */
export function serveAtDesk(desk: string | null, next: () => void): void {
  deskOfRequest.run(desk, next);
}

/** The desk the current request came from; null outside a request, or for one that named no desk. */
export function currentDesk(): string | null {
  return deskOfRequest.getStore() ?? null;
}
