import { QueryClient } from '@tanstack/react-query';
import { createFakeApi, type FakeApi } from '../testing';
import { patientDetailKey, patientQueries, patientQuery } from './patients';

describe("one patient's read, shared by the Patients screen and the booking form", () => {
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

  it('reads GET /api/patients/:id under the patients key', async () => {
    api.onGet('/api/patients/7').reply(200, { id: 7, name: 'Mia Martin' });
    await expect(client.fetchQuery(patientQueries.detail(7))).resolves.toEqual({ id: 7, name: 'Mia Martin' });
    expect(patientQueries.detail(7).queryKey).toEqual(['patients', 'detail', 7]);
  });

  it('asks nothing without a patient', () => {
    expect(patientQueries.detail(null).enabled).toBe(false);
    expect(patientQueries.detail(7).enabled).toBe(true);
  });

  it("a patient's write invalidates the read through the patients key", async () => {
    api.onGet('/api/patients/7').reply(200, { id: 7 });
    await client.fetchQuery(patientQueries.detail(7));
    await client.invalidateQueries({ queryKey: patientQueries.key, refetchType: 'none' });
    expect(client.getQueryState(patientQueries.detailKey(7))?.isInvalidated).toBe(true);
  });

  it('keeps the names modules built before the factory use', () => {
    expect(patientDetailKey(7)).toEqual(patientQueries.detailKey(7));
    expect(patientQuery(7).queryKey).toEqual(patientQueries.detail(7).queryKey);
  });
});
