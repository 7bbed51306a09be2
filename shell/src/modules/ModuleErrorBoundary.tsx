import type { ReactNode } from 'react';
import { ErrorBoundary, getErrorMessage } from 'react-error-boundary';

interface Props {
  /** Renders the failure; `reset` clears it so the area can try again. */
  fallback: (error: Error, reset: () => void) => ReactNode;
  children: ReactNode;
}

/** A screen may throw anything; the failure shows an Error's message. */
const asError = (thrown: unknown): Error =>
  thrown instanceof Error ? thrown : new Error(getErrorMessage(thrown) ?? String(thrown));

/** Keeps a module's failure inside its own area: the sidebar and other modules keep working. */
export function ModuleErrorBoundary({ fallback, children }: Props) {
  return (
    <ErrorBoundary
      fallbackRender={({ error, resetErrorBoundary }) => fallback(asError(error), () => resetErrorBoundary())}
      onError={(error, info) => console.error('Module area failed', error, info.componentStack)}
    >
      {children}
    </ErrorBoundary>
  );
}
