import { Notice } from './Notice';

/** A page whose first read failed (not a refusal): what went wrong, and a way to read it again. */
export function LoadFailed({
  title,
  message,
  onRetry,
}: {
  title: string;
  message: string;
  onRetry: () => void;
}) {
  return (
    <main className="booking-page booking-centered">
      <h1>{title}</h1>
      <Notice tone="error">
        {message}{' '}
        <button type="button" className="booking-link" onClick={onRetry}>
          Try again
        </button>
      </Notice>
    </main>
  );
}
