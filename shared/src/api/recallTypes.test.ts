import { QueryClient } from '@tanstack/react-query';
import { createFakeApi, type FakeApi } from '../testing';
import { recallTypeQueries } from './recallTypes';

describe('the recall types the Settings and Recall screens read', () => {
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

  it('reads GET /api/recall-types under the one key both screens share', async () => {
    api.onGet('/api/recall-types').reply(200, { data: [{ id: 1, name: 'Check-up' }] });
    await client.fetchQuery(recallTypeQueries.all());
    expect(recallTypeQueries.all().queryKey).toEqual(['recall-types']);
    expect(client.getQueryData(recallTypeQueries.key)).toEqual({ data: [{ id: 1, name: 'Check-up' }] });
    expect(recallTypeQueries.all().meta?.follows).toEqual(['recall_type']);
  });
});
