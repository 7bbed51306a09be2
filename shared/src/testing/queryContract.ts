import { QueryClient } from '@tanstack/react-query';
import { createFakeApi, type FakeApi } from './fakeApi';

/**
 * A suite of query contracts (shared/src/api): each test gets a fake API and a fresh query client
 * that retries nothing, both dropped after it. Read them from the answer inside a test, not before.
 */
export function queryContractSuite(): { api: FakeApi; client: QueryClient } {
  const suite = {} as { api: FakeApi; client: QueryClient };
  beforeEach(() => {
    suite.api = createFakeApi();
    suite.client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  });
  afterEach(() => {
    suite.api.restore();
    suite.client.clear();
  });
  return suite;
}
