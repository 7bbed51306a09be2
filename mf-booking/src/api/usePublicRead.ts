import { useCallback, useEffect, useState } from 'react';
import { PublicApiError } from './publicRequest';

export type Read<T> =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'ready'; data: T }
  | { state: 'failed'; error: PublicApiError };

/**
 * A read of the public API, done again whenever `key` changes (`null`: nothing to read yet). An
 * answer that arrives after the key moved on is dropped, so a slow day never overwrites the next.
 */
export function usePublicRead<T>(key: string | null, load: () => Promise<T>) {
  const [read, setRead] = useState<Read<T>>({ state: 'idle' });
  const [round, setRound] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names what `load` reads; `round` asks again.
  useEffect(() => {
    if (key === null) {
      setRead({ state: 'idle' });
      return;
    }
    let current = true;
    setRead({ state: 'loading' });
    load().then(
      (data) => current && setRead({ state: 'ready', data }),
      (error: unknown) =>
        current &&
        setRead({
          state: 'failed',
          error: error instanceof PublicApiError ? error : new PublicApiError(0, String(error), null),
        }),
    );
    return () => {
      current = false;
    };
  }, [key, round]);
  const reload = useCallback(() => setRound((count) => count + 1), []);
  /** Puts an answer the page already has (a refusal's nearest free times) in place of the read's. */
  const replace = useCallback((data: T) => setRead({ state: 'ready', data }), []);
  return { read, reload, replace };
}
