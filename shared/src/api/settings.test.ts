import { QueryClient } from '@tanstack/react-query';
import { createFakeApi, type FakeApi } from '../testing';
import { settingsQueries } from './settings';

describe('the practice settings the Settings screen, the booking form and the shell read', () => {
  let api: FakeApi;
  let client: QueryClient;
  beforeEach(() => {
    api = createFakeApi();
    client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  });
  afterEach(() => {
    api.restore();
    client.clear();
  });

  it('reads GET /api/settings under one key for every reader', async () => {
    api.onGet('/api/settings').reply(200, { idleTimeoutMinutes: 30 });
    await expect(client.fetchQuery(settingsQueries.practice())).resolves.toEqual({ idleTimeoutMinutes: 30 });
    expect(settingsQueries.practice().queryKey).toEqual(['settings']);
    expect(client.getQueryData(settingsQueries.key)).toEqual({ idleTimeoutMinutes: 30 });
  });

  it('a save invalidates every reader through the key', async () => {
    api.onGet('/api/settings').reply(200, {});
    await client.fetchQuery(settingsQueries.practice());
    await client.invalidateQueries({ queryKey: settingsQueries.key, refetchType: 'none' });
    expect(client.getQueryState(settingsQueries.practice().queryKey)?.isInvalidated).toBe(true);
  });

  it("follows other desks' settings changes", () => {
    expect(settingsQueries.practice().meta?.follows).toEqual(['settings']);
  });

  it("a failed read says the catalogue's words", async () => {
    api.onGet('/api/settings').networkError();
    await expect(client.fetchQuery(settingsQueries.practice())).rejects.toThrow();
  });
});
