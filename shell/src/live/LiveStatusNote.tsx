import { useLiveStatus } from '@dental/shared/kit';

/**
 * The top bar's discreet word on the stream of other desks' changes: "Reconnecting…" while it is
 * down, nothing once it is open again (the screens then catch up on what was missed). The region
 * stays in the page so that screen readers hear the word when it comes.
 */
export function LiveStatusNote() {
  const status = useLiveStatus();
  return (
    <span role="status" className="app-live-status">
      {status === 'reconnecting' ? (
        <>
          <span className="app-live-status__dot" aria-hidden />
          Reconnecting…
        </>
      ) : null}
    </span>
  );
}
