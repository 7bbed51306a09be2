import { QueryClient } from '@tanstack/react-query';
import { createFakeApi, type FakeApi } from '../testing';
import { waitlistQueries } from './waitlist';

describe("a freed time's waitlist matches, read from the appointments list and the calendar", () => {
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

  const freed = { dentist_id: 2, date: '2099-03-04', time: '09:00', duration: 30 };

  it('asks for the freed time, under the waitlist key a waitlist write invalidates', async () => {
    api.onGet('/api/waitlist/matches').reply(200, { data: [] });
    await client.fetchQuery(waitlistQueries.matches(freed));
    expect(api.lastParams('/api/waitlist/matches')).toEqual(freed);
    await client.invalidateQueries({ queryKey: waitlistQueries.key, refetchType: 'none' });
    expect(client.getQueryState(waitlistQueries.matches(freed).queryKey)?.isInvalidated).toBe(true);
  });

  it('asks nothing without a freed time', () => {
    expect(waitlistQueries.matches(null).enabled).toBe(false);
  });
});
