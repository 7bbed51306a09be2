import { queryContractSuite } from '../testing';
import { waitlistQueries } from './waitlist';

describe("a freed time's waitlist matches, read from the appointments list and the calendar", () => {
  const suite = queryContractSuite();

  const freed = { dentist_id: 2, date: '2099-03-04', time: '09:00', duration: 30 };

  it('asks for the freed time, under the waitlist key a waitlist write invalidates', async () => {
    suite.api.onGet('/api/waitlist/matches').reply(200, { data: [] });
    await suite.client.fetchQuery(waitlistQueries.matches(freed));
    expect(suite.api.lastParams('/api/waitlist/matches')).toEqual(freed);
    await suite.client.invalidateQueries({ queryKey: waitlistQueries.key, refetchType: 'none' });
    expect(suite.client.getQueryState(waitlistQueries.matches(freed).queryKey)?.isInvalidated).toBe(true);
  });

  it('asks nothing without a freed time', () => {
    expect(waitlistQueries.matches(null).enabled).toBe(false);
  });
});
