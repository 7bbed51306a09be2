import { queryContractSuite } from '../testing';
import { freeTimesQueries } from './freeTimes';

describe("a dentist's free times, read by the booking form and the calendar", () => {
  const suite = queryContractSuite();

  it('asks for the day, the length, and the visit and patient the form leaves out', async () => {
    suite.api.onGet('/api/dentists/2/free-times').reply(200, { open: [], free: [] });
    await suite.client.fetchQuery(
      freeTimesQueries.of({ dentistId: 2, date: '2099-03-04', duration: 30, exceptId: 5, patientId: 7 }),
    );
    expect(suite.api.lastParams('/api/dentists/2/free-times')).toEqual({
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
    suite.api.onGet('/api/dentists/2/free-times').reply(200, { open: [], free: [] });
    await suite.client.fetchQuery(freeTimesQueries.of(asked));
    await suite.client.fetchQuery(freeTimesQueries.of({ ...asked }));
    expect(suite.client.getQueryCache().findAll({ queryKey: freeTimesQueries.key })).toHaveLength(1);
    await suite.client.invalidateQueries({ queryKey: freeTimesQueries.key, refetchType: 'none' });
    expect(suite.client.getQueryState(freeTimesQueries.of(asked).queryKey)?.isInvalidated).toBe(true);
  });
});
