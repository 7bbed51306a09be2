import type { EventSourceMessage, FetchEventSourceInit } from '@microsoft/fetch-event-source';
import type { EventSourceOpener } from './liveStream';

/** One call of the fake `fetchEventSource`: the test plays the server's part. */
export interface FakeRun {
  url: string;
  /** The headers the request went with (the library keeps `last-event-id` as messages arrive). */
  headers: Record<string, string>;
  aborted: boolean;
  /** The wait the stream asked for after the last failure. */
  lastWait: number | null | undefined;
  /** The server answers with this status (200: the stream is open). */
  answer(status?: number): Promise<void>;
  /** A message of the stream, as the library parses it. */
  send(message: Partial<EventSourceMessage>): void;
  /** The connection drops; the library would retry after `lastWait` (the test calls `answer` again). */
  drop(): void;
}

/** `fetchEventSource` with the library's control flow and no network: each call is a FakeRun. */
export function createFakeSource() {
  const runs: FakeRun[] = [];
  const open: EventSourceOpener = (url: string, init: FetchEventSourceInit) =>
    new Promise<void>((resolve, reject) => {
      const fail = (error: unknown) => {
        try {
          run.lastWait = init.onerror?.(error) as number | null | undefined;
        } catch (fatal) {
          reject(fatal);
        }
      };
      const run: FakeRun = {
        url,
        headers: { ...(init.headers as Record<string, string>) },
        aborted: false,
        lastWait: undefined,
        async answer(status = 200) {
          const response = {
            status,
            ok: status >= 200 && status < 300,
            headers: { get: (name: string) => (name === 'content-type' ? 'text/event-stream' : null) },
          } as unknown as Response;
          try {
            await init.onopen?.(response);
          } catch (error) {
            fail(error);
          }
        },
        send(message) {
          if (message.id) run.headers['last-event-id'] = message.id;
          init.onmessage?.({ id: '', event: '', data: '', retry: undefined, ...message });
        },
        drop() {
          fail(new TypeError('network error'));
        },
      };
      init.signal?.addEventListener('abort', () => {
        run.aborted = true;
        resolve();
      });
      runs.push(run);
    });
  return { open, runs, last: () => runs[runs.length - 1] as FakeRun };
}

/** A `change` message of the stream. */
export function changeMessage(event: {
  event: number;
  resource: string;
  id: number | null;
  action: string;
  by: number | null;
  /** The desk it was made at; none named when left out. */
  desk?: string | null;
}): Partial<EventSourceMessage> {
  return { event: 'change', id: String(event.event), data: JSON.stringify({ desk: null, ...event }) };
}
