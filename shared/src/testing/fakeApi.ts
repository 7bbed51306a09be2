import { AxiosHeaders } from 'axios';
import MockAdapter from 'axios-mock-adapter';
import { apiClient } from '../api/client';
import { STALE_WRITE_MESSAGE } from '../domain/liveDesk';

export interface SentRequest {
  method: string;
  url: string;
  params: Record<string, unknown>;
  body: unknown;
  /** The version the write was made against (`If-Match`), as sent; undefined when none was. */
  ifMatch: string | undefined;
}

/**
 * The server as the shared client meets it in component tests: answers are set per call
 * (`api.onGet('/api/patients').reply(200, page)`), and every request sent is kept to assert on.
 * A call nobody set up fails the test loudly instead of hanging.
 */
export function createFakeApi() {
  const mock = new MockAdapter(apiClient, { onNoMatch: 'throwException' });
  const sent = (method?: string, url?: string | RegExp): SentRequest[] =>
    (['get', 'post', 'put', 'patch', 'delete'] as const)
      .flatMap((verb) => mock.history[verb].map((config) => ({ verb, config })))
      .filter(({ verb }) => !method || verb === method.toLowerCase())
      .filter(({ config }) =>
        url === undefined ? true : typeof url === 'string' ? config.url === url : url.test(config.url ?? ''),
      )
      .map(({ verb, config }) => ({
        method: verb.toUpperCase(),
        url: config.url ?? '',
        params: (config.params ?? {}) as Record<string, unknown>,
        body: typeof config.data === 'string' && config.data ? JSON.parse(config.data) : config.data,
        ifMatch:
          AxiosHeaders.from(config.headers as AxiosHeaders)
            .get('If-Match')
            ?.toString() ?? undefined,
      }));
  return Object.assign(mock, {
    /** Requests sent so far, optionally of one method and URL. */
    sent,
    /** The query parameters of the last request to this URL. */
    lastParams: (url: string | RegExp) => sent('get', url).at(-1)?.params,
  });
}
export type FakeApi = ReturnType<typeof createFakeApi>;

/** A list answer as the server sends it. */
export function pageOf<T>(data: T[], total = data.length, page = 1, limit = 20) {
  return { data, total, page, limit };
}

/** A write refused as stale, as the server sends it (412): the row as it is now. */
export function staleWrite<Row>(current: Row) {
  return { message: STALE_WRITE_MESSAGE, current };
}

/** A refusal as the server sends it: a message and the fields it names. */
export function refusal(message: string, errors: Array<{ field: string; message: string }> = []) {
  return errors.length ? { message, errors } : { message };
}
