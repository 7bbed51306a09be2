import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client';
import { RETRY_ATTEMPTS } from '../domain';

/**
 * A read is retried (the retry setting, 3 times: docs/product.md, Constants and limits) only when another try could answer differently:
 * the network, a time-out or the server's own failure. A refusal (4xx) is the answer.
 */
export function shouldRetryRead(failureCount: number, error: unknown): boolean {
  if (failureCount >= RETRY_ATTEMPTS) return false;
  const status = error instanceof ApiError ? error.status : undefined;
  return status === undefined || status >= 500 || status === 408 || status === 429;
}

/** The shell's one client of server state; every module reads and writes through it. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetryRead,
        // Staff switch screens all day: what was read a moment ago is shown at once and refreshed.
        staleTime: 15_000,
        refetchOnWindowFocus: true,
      },
      // A write is never repeated behind the user's back.
      mutations: { retry: false },
    },
  });
}
