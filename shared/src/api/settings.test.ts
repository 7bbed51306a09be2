import { queryContractSuite } from '../testing';
import { settingsQueries } from './settings';

describe('the practice settings the Settings screen, the booking form and the shell read', () => {
  const suite = queryContractSuite();

  it('reads GET /api/settings under one key for every reader', async () => {
    suite.api.onGet('/api/settings').reply(200, { idleTimeoutMinutes: 30 });
    await expect(suite.client.fetchQuery(settingsQueries.practice())).resolves.toEqual({
      idleTimeoutMinutes: 30,
    });
    expect(settingsQueries.practice().queryKey).toEqual(['settings']);
    expect(suite.client.getQueryData(settingsQueries.key)).toEqual({ idleTimeoutMinutes: 30 });
  });

  it('a save invalidates every reader through the key', async () => {
    suite.api.onGet('/api/settings').reply(200, {});
    await suite.client.fetchQuery(settingsQueries.practice());
    await suite.client.invalidateQueries({ queryKey: settingsQueries.key, refetchType: 'none' });
    expect(suite.client.getQueryState(settingsQueries.practice().queryKey)?.isInvalidated).toBe(true);
  });

  it("follows other desks' settings changes", () => {
    expect(settingsQueries.practice().meta?.follows).toEqual(['settings']);
  });

  it("a failed read says the catalogue's words", async () => {
    suite.api.onGet('/api/settings').networkError();
    await expect(suite.client.fetchQuery(settingsQueries.practice())).rejects.toThrow();
  });
});
