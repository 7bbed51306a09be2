import { QueryClient } from '@tanstack/react-query';
import { createFakeApi, type FakeApi } from '../testing';
import { freeTimesQueries } from './freeTimes';

describe("a dentist's free times, read by the booking form and the calendar", () => {
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

  it('asks for the day, the length, and the visit and patient the form leaves out', async () => {
    api.onGet('/api/dentists/2/free-times').reply(200, { open: [], free: [] });
    await client.fetchQuery(
      freeTimesQueries.of({ dentistId: 2, date: '2099-03-04', duration: 30, exceptId: 5, patientId: 7 }),
    );
    expect(api.lastParams('/api/dentists/2/free-times')).toEqual({
      date: '2099-03-04',
      duration: 30,
      except_id: 5,
      patient_id: 7,
    });
  });

  it('asks nothing while dentist, day or length is missing', () => {
    expect(freeTimesQueries.of(null).enabled).toBe(false);
  });

  it('one key for one question, under the free-times key a booking invalidates', async () => {
    const asked = { dentistId: 2, date: '2099-03-04', duration: 5 };
    api.onGet('/api/dentists/2/free-times').reply(200, { open: [], free: [] });
    await client.fetchQuery(freeTimesQueries.of(asked));
    await client.fetchQuery(freeTimesQueries.of({ ...asked }));
    expect(client.getQueryCache().findAll({ queryKey: freeTimesQueries.key })).toHaveLength(1);
    await client.invalidateQueries({ queryKey: freeTimesQueries.key, refetchType: 'none' });
    expect(client.getQueryState(freeTimesQueries.of(asked).queryKey)?.isInvalidated).toBe(true);
  });
});
