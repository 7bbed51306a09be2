/** A request the page sent: its method, path, query and JSON body. */
export interface SentRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

/** What the fake server answers: a status and a JSON body, a connection that fails, or a wait. */
export type Answer =
  | { status: number; body?: unknown }
  | { offline: true }
  | { pending: Promise<{ status: number; body?: unknown }> };

type Route = { method: string; path: string; answers: Array<Answer | ((request: SentRequest) => Answer)> };

/** JSON in and out, as the wire would carry it (jsdom has no structuredClone). */
const overTheWire = (value: unknown): unknown =>
  value === undefined ? undefined : JSON.parse(JSON.stringify(value));

const responseOf = ({ status, body }: { status: number; body?: unknown }) =>
  ({
    ok: status >= 200 && status < 300,
    status,
    json: () =>
      body === undefined ? Promise.reject(new SyntaxError('No body')) : Promise.resolve(overTheWire(body)),
  }) as Response;

/**
 * The public booking API as the patients' pages see it, in place of `fetch`: each route answers in
 * turn with the answers it was given (the last one again and again), and a request no route knows
 * fails the test when the server is restored.
 */
export function fakeServer() {
  const routes: Route[] = [];
  const sent: SentRequest[] = [];
  const unknown: string[] = [];
  const realFetch = global.fetch;

  const fetchMock = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const request: SentRequest = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    sent.push(request);
    const route = routes.find((each) => each.method === request.method && each.path === request.path);
    if (!route) {
      unknown.push(`${request.method} ${request.path}`);
      return responseOf({ status: 404, body: { message: 'No such route in the fake server' } });
    }
    const next = route.answers.length > 1 ? route.answers.shift() : route.answers[0];
    const answer = typeof next === 'function' ? next(request) : next;
    if (!answer) throw new Error(`No answer left for ${request.method} ${request.path}`);
    if ('offline' in answer) throw new TypeError('Failed to fetch');
    if ('pending' in answer) return responseOf(await answer.pending);
    return responseOf(answer);
  });
  global.fetch = fetchMock as typeof fetch;

  const on =
    (method: 'GET' | 'POST') =>
    (path: string, ...answers: Array<Answer | ((request: SentRequest) => Answer)>) => {
      const existing = routes.findIndex((route) => route.method === method && route.path === path);
      if (existing >= 0) routes.splice(existing, 1);
      routes.push({ method, path, answers });
    };

  return {
    onGet: on('GET'),
    onPost: on('POST'),
    /** The requests sent to a path, oldest first. */
    sent: (method: 'GET' | 'POST', path: string) =>
      sent.filter((request) => request.method === method && request.path === path),
    /** Puts the real `fetch` back; a request no route answered fails the test. */
    restore() {
      global.fetch = realFetch;
      if (unknown.length > 0)
        throw new Error(`The page asked what no test route answers: ${unknown.join(', ')}`);
    },
  };
}

export type FakeServer = ReturnType<typeof fakeServer>;

/** An answer that arrives when the test says so. */
export function deferredAnswer() {
  let resolve: (answer: { status: number; body?: unknown }) => void = () => {};
  const pending = new Promise<{ status: number; body?: unknown }>((done) => {
    resolve = done;
  });
  return { answer: { pending } as Answer, resolve };
}
