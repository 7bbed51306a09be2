import type { FastifyInstance } from 'fastify';

/** One event as a stream sent it. */
export interface StreamEvent {
  id: string | null;
  event: string;
  data: unknown;
}

export interface EventStream {
  status: number;
  /** Every event received so far, in order. */
  events: StreamEvent[];
  /** The first event from `from` on that matches, waiting for it up to `timeoutMs`. */
  next: (matches: (event: StreamEvent) => boolean, timeoutMs?: number) => Promise<StreamEvent>;
  /** Resolves when the server has closed the stream. */
  ended: Promise<void>;
  close: () => void;
}

/** The app's address, listening on a free loopback port (once). */
export async function addressOf(app: FastifyInstance): Promise<string> {
  const address = app.server.address();
  if (address && typeof address === 'object') return `http://127.0.0.1:${address.port}`;
  await app.listen({ port: 0, host: '127.0.0.1' });
  return addressOf(app);
}

/** Opens `GET /api/events` as a browser would (fetch, bearer token, Last-Event-ID) and reads it. */
export async function openEventStream(
  app: FastifyInstance,
  token: string | null,
  lastEventId?: string,
): Promise<EventStream> {
  const controller = new AbortController();
  const response = await fetch(`${await addressOf(app)}/api/events`, {
    headers: {
      accept: 'text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
    },
    signal: controller.signal,
  });
  const events: StreamEvent[] = [];
  const waiters = new Set<() => void>();
  const ended = (async () => {
    if (!response.body || response.status !== 200) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
          let id: string | null = null;
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('id: ')) id = line.slice(4);
            else if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (data.length === 0) continue;
          events.push({ id, event, data: JSON.parse(data.join('\n')) });
          for (const wake of waiters) wake();
        }
      }
    } catch {
      // Aborted by close().
    }
  })();
  return {
    status: response.status,
    events,
    ended,
    close: () => controller.abort(),
    next: (matches, timeoutMs = 3_000) =>
      new Promise<StreamEvent>((resolve, reject) => {
        const look = () => {
          const found = events.find(matches);
          if (!found) return false;
          waiters.delete(look);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(look);
          reject(new Error(`No such event within ${timeoutMs} ms; received: ${JSON.stringify(events)}`));
        }, timeoutMs);
        if (!look()) waiters.add(look);
      }),
  };
}
