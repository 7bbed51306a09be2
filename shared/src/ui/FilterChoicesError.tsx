import type { ApiError } from '../api/client';
import { ErrorBanner } from './ErrorBanner';

/** A read of a filter's choices (the dentists, the recall types), as TanStack Query answers it. */
export interface FilterChoicesRead {
  error: unknown;
  isError: boolean;
  refetch: () => unknown;
}

/**
 * A filter bar's choices that failed to load: without them a filter offers nothing to choose, so
 * the first failure is said in a red banner whose Retry reads each failed one again.
 */
export function FilterChoicesError({ reads }: { reads: readonly FilterChoicesRead[] }) {
  const failure = reads.find((read) => read.error)?.error as ApiError | undefined;
  return (
    <ErrorBanner
      message={failure?.message ?? null}
      onRetry={() => {
        for (const read of reads) if (read.isError) void read.refetch();
      }}
    />
  );
}
