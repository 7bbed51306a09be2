import {
  type ClinicEvent,
  clinicEventSchema,
  EVENT_TYPES,
  EVENTS_RETRY_MS,
  streamEndSchema,
} from '@dental/shared';
import type { LiveStatus } from '@dental/shared/kit';
import type { EventSourceMessage, FetchEventSourceInit } from '@microsoft/fetch-event-source';

/** `fetchEventSource`'s shape: the stream is opened through it (tests hand in a fake). */
export type EventSourceOpener = (url: string, init: FetchEventSourceInit) => Promise<void>;

export interface LiveStreamOptions {
  url: string;
  open: EventSourceOpener;
  /** The access token to send now (the auth store's). */
  token: () => string | null;
  /** A fresh access token after a 401, shared with the API client's refresh; null: signed out. */
  renewToken: () => Promise<string | null>;
  /** Each change, once (a replayed or repeated event id is dropped). */
  onChange: (event: ClinicEvent) => void;
  /** The server could not replay what was missed: every screen reads again. */
  onResync: () => void;
  /** The session's access ended: the stream is closed for good. */
  onEnd: (message: string) => void;
  /** Where the stream stands, each time that changes. */
  onStatus: (status: LiveStatus) => void;
  /** How long a drop waits before the next try, before the server's `retry:` says otherwise. */
  retryMs?: number;
}

export interface LiveStream {
  status(): LiveStatus;
  /** Closes the stream for good (sign-out). */
  close(): void;
}

/** Event ids remembered to drop repeats: far more than one reconnect ever replays twice. */
const REMEMBERED_IDS = 500;
/** Repeated failures wait longer, up to this. */
const MAX_RETRY_MS = 30_000;

class Unauthorized extends Error {}
/** Stops the library's own retries once this stream is closed. */
class Closed extends Error {}

/**
 * The shell's one stream of the clinic's changes (`GET /api/events`, Server-Sent Events) through
 * `fetchEventSource`, which, unlike EventSource, sends the bearer token. It reconnects after a drop
 * with `Last-Event-ID` (the server replays what was missed or says `resync`), renews the token after
 * a 401 as the API client does, and stops on `end` or `close()`.
 */
export function createLiveStream(options: LiveStreamOptions): LiveStream {
  const { url, open, token, renewToken, onChange, onResync, onEnd, onStatus } = options;
  let retryMs = options.retryMs ?? EVENTS_RETRY_MS;
  let status: LiveStatus = 'connecting';
  let closed = false;
  let lastEventId: string | null = null;
  /** Whether a stream was ever open: a later open is a reconnect. */
  let everOpen = false;
  let failures = 0;
  /** 401s since the stream was last open: a token refused again at once is not retried in a tight loop. */
  let refusals = 0;
  let controller: AbortController | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const handled = new Set<number>();

  const setStatus = (next: LiveStatus) => {
    if (status === next) return;
    status = next;
    onStatus(next);
  };

  const remember = (id: number): boolean => {
    if (handled.has(id)) return false;
    handled.add(id);
    if (handled.size > REMEMBERED_IDS) {
      const oldest = handled.values().next().value;
      if (oldest !== undefined) handled.delete(oldest);
    }
    return true;
  };

  /** The server's `retry:` after one failure, doubled for each failure more, up to MAX_RETRY_MS. */
  const nextWait = () => Math.min(retryMs * 2 ** Math.min(Math.max(failures - 1, 0), 4), MAX_RETRY_MS);

  const onMessage = (message: EventSourceMessage) => {
    if (message.retry !== undefined && message.retry > 0) retryMs = message.retry;
    if (message.id) lastEventId = message.id;
    if (message.event === EVENT_TYPES.change) {
      const parsed = clinicEventSchema.safeParse(safeJson(message.data));
      if (!parsed.success || !remember(parsed.data.event)) return;
      onChange(parsed.data);
    } else if (message.event === EVENT_TYPES.resync) {
      onResync();
    } else if (message.event === EVENT_TYPES.end) {
      const parsed = streamEndSchema.safeParse(safeJson(message.data));
      stop();
      onEnd(parsed.success ? parsed.data.message : '');
    }
    // Anything else (the blank message after a comment or a `retry:` line) says nothing.
  };

  const stop = () => {
    closed = true;
    clearTimeout(timer);
    controller?.abort();
    controller = null;
  };

  const reopenLater = (wait: number) => {
    if (closed) return;
    setStatus(everOpen ? 'reconnecting' : 'connecting');
    clearTimeout(timer);
    timer = setTimeout(connect, wait);
  };

  /** One run of `fetchEventSource`: it retries drops itself; a 401 ends the run to renew the token. */
  function connect() {
    if (closed) return;
    const bearer = token();
    if (!bearer) {
      stop();
      return;
    }
    const run = new AbortController();
    controller = run;
    const headers: Record<string, string> = { Authorization: `Bearer ${bearer}` };
    // The library keeps `last-event-id` up to date on its own retries; a new run starts from ours.
    if (lastEventId) headers['last-event-id'] = lastEventId;

    void open(url, {
      headers,
      signal: run.signal,
      // A tab in the background keeps following: its bell and lists are right when it comes back.
      openWhenHidden: true,
      onopen: async (response) => {
        if (response.status === 401) throw new Unauthorized();
        const type = response.headers.get('content-type') ?? '';
        if (!response.ok || !type.startsWith('text/event-stream')) {
          throw new Error(`The event stream answered ${response.status}`);
        }
        const reconnect = everOpen;
        everOpen = true;
        failures = 0;
        refusals = 0;
        setStatus('open');
        // Back after a drop with nothing to resume from: the server cannot replay, so read again.
        if (reconnect && !lastEventId) onResync();
      },
      onmessage: onMessage,
      // The server closed the stream (a restart): that is a drop too.
      onclose: () => {
        throw new Error('The event stream closed');
      },
      onerror: (error: unknown) => {
        if (closed || run.signal.aborted) throw new Closed();
        if (error instanceof Unauthorized) {
          refusals += 1;
          throw error;
        }
        failures += 1;
        setStatus(everOpen ? 'reconnecting' : 'connecting');
        return nextWait();
      },
    }).catch(async (error: unknown) => {
      if (closed || run.signal.aborted || controller !== run) return;
      controller = null;
      if (!(error instanceof Unauthorized)) {
        reopenLater(nextWait());
        return;
      }
      setStatus(everOpen ? 'reconnecting' : 'connecting');
      // The store may hold a newer token already (refreshed meanwhile); else renew it as calls do.
      const current = token();
      const fresh = current && current !== bearer ? current : await renewToken();
      if (closed) return;
      if (!fresh) {
        stop();
        return;
      }
      reopenLater(refusals > 1 ? nextWait() : 0);
    });
  }

  connect();

  return { status: () => status, close: stop };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
