import { pageOf, queryContractSuite } from '../testing';
import { dentistQueries } from './dentistChoices';

describe('the dentist choices every module reads', () => {
  const suite = queryContractSuite();

  it('asks for the first hundred dentists by name, once for every module', async () => {
    suite.api.onGet('/api/dentists').reply(200, pageOf([{ id: 1, name: 'Dr. Sarah Johnson' }]));
    await suite.client.fetchQuery(dentistQueries.choices());
    await suite.client.fetchQuery(dentistQueries.choices());
    expect(suite.api.sent('get', '/api/dentists')).toHaveLength(1);
    expect(suite.api.lastParams('/api/dentists')).toEqual({ limit: 100, sort: 'name' });
  });

  it('keeps the key the modules shared before the factory, under the dentists key', () => {
    const { queryKey } = dentistQueries.choices();
    expect(queryKey).toEqual(['dentists', 'list', { limit: 100, sort: 'name' }]);
    expect(queryKey.slice(0, dentistQueries.key.length)).toEqual([...dentistQueries.key]);
  });

  it("a dentist's write invalidates the choices through the dentists key", async () => {
    suite.api.onGet('/api/dentists').reply(200, pageOf([]));
    await suite.client.fetchQuery(dentistQueries.choices());
    await suite.client.invalidateQueries({ queryKey: dentistQueries.key, refetchType: 'none' });
    expect(suite.client.getQueryState(dentistQueries.choices().queryKey)?.isInvalidated).toBe(true);
  });

  it("follows other desks' dentist changes, and stays fresh for a minute", () => {
    const read = dentistQueries.choices();
    expect(read.meta?.follows).toEqual(['dentist']);
    expect(read.staleTime).toBe(60_000);
  });
});
