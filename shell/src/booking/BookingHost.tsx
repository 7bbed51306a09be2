import { useCallback, useEffect, useState } from 'react';
import { ModuleErrorBoundary } from '../modules/ModuleErrorBoundary';
import { loadPublicPages, type PublicPages } from './bookingModule';

type Loading = { state: 'loading' } | { state: 'ready'; Pages: PublicPages } | { state: 'failed' };

function LoadFailure({ onRetry }: { onRetry: () => void }) {
  return (
    <main className="booking-host-message" role="alert">
      <h1>The booking page could not be loaded</h1>
      <p>Check your connection and try again, or call the clinic to book.</p>
      <button type="button" onClick={onRetry}>
        Try again
      </button>
    </main>
  );
}

/**
 * The patients' page (`/book/…`): loads only the booking module, which draws the clinic's booking
 * page or a visit's manage page; none of the staff app's code comes with it.
 */
export function BookingHost({ pathname }: { pathname: string }) {
  const [loading, setLoading] = useState<Loading>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    loadPublicPages(attempt > 0)
      .then((Pages) => current && setLoading({ state: 'ready', Pages }))
      .catch(() => current && setLoading({ state: 'failed' }));
    return () => {
      current = false;
    };
  }, [attempt]);

  const retry = useCallback(() => {
    setLoading({ state: 'loading' });
    setAttempt((count) => count + 1);
  }, []);

  if (loading.state === 'failed') return <LoadFailure onRetry={retry} />;
  if (loading.state === 'loading') {
    return (
      <main className="booking-host-message" aria-busy="true">
        <p>Loading…</p>
      </main>
    );
  }
  const { Pages } = loading;
  return (
    // A page of the module that throws while drawing shows the same advice, not a blank page.
    <ModuleErrorBoundary key={attempt} fallback={() => <LoadFailure onRetry={retry} />}>
      <Pages pathname={pathname} />
    </ModuleErrorBoundary>
  );
}
