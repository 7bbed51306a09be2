import { queryContractSuite } from '../testing';
import { recallTypeQueries } from './recallTypes';

describe('the recall types the Settings and Recall screens read', () => {
  const suite = queryContractSuite();

  it('reads GET /api/recall-types under the one key both screens share', async () => {
    suite.api.onGet('/api/recall-types').reply(200, { data: [{ id: 1, name: 'Check-up' }] });
    await suite.client.fetchQuery(recallTypeQueries.all());
    expect(recallTypeQueries.all().queryKey).toEqual(['recall-types']);
    expect(suite.client.getQueryData(recallTypeQueries.key)).toEqual({ data: [{ id: 1, name: 'Check-up' }] });
    expect(recallTypeQueries.all().meta?.follows).toEqual(['recall_type']);
  });
});
