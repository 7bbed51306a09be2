import { Alert, Button } from 'antd';
import { useEffect, useRef, useState } from 'react';

export interface ErrorBannerProps {
  message: string | null | undefined;
  /** Called when the user closes the banner with its × (docs/product.md, Error messages); without it the banner hides itself. */
  onClose?: () => void;
  /** Shows a Retry button. */
  onRetry?: () => void;
  /**
   * Scrolls the banner into view when a message appears: in a dialog taller than the screen the
   * user is down at Save when the refusal comes, and the banner is at the top.
   */
  reveal?: boolean;
}

/**
 * A call's failure as the product shows it: a red banner that the × always dismisses (docs/product.md, Error messages),
 * optionally with Retry. A dismissed message comes back only when a new failure says something else,
 * or the same thing again after a success.
 */
export function ErrorBanner({ message, onClose, onRetry, reveal = false }: ErrorBannerProps) {
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [shown, setShown] = useState(message);
  const banner = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // jsdom has no scrolling: the call is optional there.
    if (reveal && message) banner.current?.scrollIntoView?.({ block: 'nearest' });
  }, [reveal, message]);
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
    <div ref={banner}>
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
    </div>
  );
}
