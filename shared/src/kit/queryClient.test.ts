import { ApiError } from '../api/client';
import { RETRY_ATTEMPTS } from '../domain';
import { createQueryClient, shouldRetryRead } from './queryClient';

describe('the shared client of server state (docs/product.md, Constants and limits: retry attempts)', () => {
  it('tries a read again up to 3 times when the network or the server failed', () => {
    expect(RETRY_ATTEMPTS).toBe(3);
    const network = new ApiError('Failed to fetch patients');
    const server = new ApiError('Database unavailable', 503);
    expect([0, 1, 2].map((count) => shouldRetryRead(count, network))).toEqual([true, true, true]);
    expect(shouldRetryRead(3, network)).toBe(false);
    expect(shouldRetryRead(0, server)).toBe(true);
  });

  it('does not repeat a read the server refused: the refusal is the answer', () => {
    for (const status of [400, 401, 403, 404, 409]) {
      expect(shouldRetryRead(0, new ApiError('No', status))).toBe(false);
    }
  });

  it('never repeats a write', () => {
    const client = createQueryClient();
    expect(client.getDefaultOptions().mutations?.retry).toBe(false);
    expect(client.getDefaultOptions().queries?.retry).toBe(shouldRetryRead);
  });
});
