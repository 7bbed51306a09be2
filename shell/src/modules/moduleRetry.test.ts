import { MODULE_LOAD_RETRIES, moduleRetryPlugin } from './moduleRetry';

/** A manifest's answer as the plugin reads it: ok, and its body JSON. */
const manifestAnswer = (ok = true) => ({
  ok,
  status: ok ? 200 : 404,
  clone() {
    return this;
  },
  json: () => Promise.resolve({ name: 'mf_dentists' }),
});

describe('the retry plugin the shell gives the federation runtime', () => {
  const realFetch = global.fetch;
  beforeEach(() => {
    jest.useFakeTimers();
    // The plugin logs each try; the assertions say what matters.
    jest.spyOn(console, 'log').mockImplementation(() => {});
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
    global.fetch = realFetch;
  });

  it('asks again for a manifest that failed, and answers the try that worked', async () => {
    const fetchMock = jest
      .fn()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(manifestAnswer(false))
      .mockResolvedValue(manifestAnswer());
    global.fetch = fetchMock;
    const plugin = moduleRetryPlugin();
    const answer = plugin.fetch?.('/modules/dentists/mf-manifest.json', {});
    await jest.advanceTimersByTimeAsync(5_000);
    await expect(answer).resolves.toMatchObject({ ok: true });
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it(`gives up on a manifest after ${MODULE_LOAD_RETRIES} more tries: the area then shows the failure`, async () => {
    const fetchMock = jest.fn().mockResolvedValue(manifestAnswer(false));
    global.fetch = fetchMock;
    const answer = moduleRetryPlugin().fetch?.('/modules/dentists/missing/mf-manifest.json', {});
    const settled = expect(answer).rejects.toThrow('abandoned');
    await jest.advanceTimersByTimeAsync(10_000);
    await settled;
    expect(fetchMock).toHaveBeenCalledTimes(1 + MODULE_LOAD_RETRIES);
  });

  it('loads an entry script again that failed, afresh each time', async () => {
    const entry = { get: jest.fn(), init: jest.fn() };
    const getRemoteEntry = jest
      .fn()
      .mockRejectedValueOnce(new Error('ScriptNetworkError'))
      .mockResolvedValue(entry);
    const globalLoading: Record<string, unknown> = { 'mf_dentists:/entry': Promise.resolve() };
    const hook = moduleRetryPlugin().loadEntryError as unknown as (args: object) => Promise<unknown>;
    const recovered = hook({
      getRemoteEntry,
      origin: {},
      remoteInfo: { name: 'mf_dentists', entry: '/entry' },
      remoteEntryExports: undefined,
      globalLoading,
      uniqueKey: 'mf_dentists:/entry',
    });
    await jest.advanceTimersByTimeAsync(5_000);
    await expect(recovered).resolves.toBe(entry);
    expect(getRemoteEntry).toHaveBeenCalledTimes(2);
    // A failed load is forgotten before each try, so the runtime fetches the script again.
    expect(globalLoading).not.toHaveProperty('mf_dentists:/entry');
  });
});
