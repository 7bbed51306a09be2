import { Alert, Button } from 'antd';
import { useState } from 'react';

export interface ErrorBannerProps {
  message: string | null | undefined;
  /** Called when the user closes the banner with its × (spec §8); without it the banner hides itself. */
  onClose?: () => void;
  /** Shows a Retry button. */
  onRetry?: () => void;
}

/**
 * A call's failure as the product shows it: a red banner that the × always dismisses (spec §8),
 * optionally with Retry. A dismissed message comes back only when a new failure says something else,
 * or the same thing again after a success.
 */
export function ErrorBanner({ message, onClose, onRetry }: ErrorBannerProps) {
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [shown, setShown] = useState(message);
  if (message !== shown) {
    // A new answer (or none) since the last render: what was dismissed no longer applies.
    setShown(message);
    setDismissed(null);
  }
  if (!message || message === dismissed) return null;
  const close = () => {
    setDismissed(message);
    onClose?.();
  };
  return (
    <Alert
      type="error"
      role="alert"
      showIcon
      title={message}
      closable={{ onClose: close, 'aria-label': 'Dismiss' }}
      action={
        onRetry ? (
          <Button size="small" danger onClick={onRetry}>
            Retry
          </Button>
        ) : undefined
      }
      style={{ marginBottom: 16 }}
    />
  );
}
