import { queryContractSuite } from '../testing';
import { patientDetailKey, patientQueries, patientQuery } from './patients';

describe("one patient's read, shared by the Patients screen and the booking form", () => {
  const suite = queryContractSuite();

  it('reads GET /api/patients/:id under the patients key', async () => {
    suite.api.onGet('/api/patients/7').reply(200, { id: 7, name: 'Mia Martin' });
    await expect(suite.client.fetchQuery(patientQueries.detail(7))).resolves.toEqual({
      id: 7,
      name: 'Mia Martin',
    });
    expect(patientQueries.detail(7).queryKey).toEqual(['patients', 'detail', 7]);
  });

  it('asks nothing without a patient', () => {
    expect(patientQueries.detail(null).enabled).toBe(false);
    expect(patientQueries.detail(7).enabled).toBe(true);
  });

  it("a patient's write invalidates the read through the patients key", async () => {
    suite.api.onGet('/api/patients/7').reply(200, { id: 7 });
    await suite.client.fetchQuery(patientQueries.detail(7));
    await suite.client.invalidateQueries({ queryKey: patientQueries.key, refetchType: 'none' });
    expect(suite.client.getQueryState(patientQueries.detailKey(7))?.isInvalidated).toBe(true);
  });

  it('keeps the names modules built before the factory use', () => {
    expect(patientDetailKey(7)).toEqual(patientQueries.detailKey(7));
    expect(patientQuery(7).queryKey).toEqual(patientQueries.detail(7).queryKey);
  });
});
