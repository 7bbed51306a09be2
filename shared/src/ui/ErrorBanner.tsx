import { Alert, Button } from 'antd';

export interface ErrorBannerProps {
  message: string | null | undefined;
  /** Shows the × that dismisses the banner (spec §8). */
  onClose?: () => void;
  /** Shows a Retry button. */
  onRetry?: () => void;
}

/** A call's failure as the product shows it: a red banner, dismissible, optionally with Retry. */
export function ErrorBanner({ message, onClose, onRetry }: ErrorBannerProps) {
  if (!message) return null;
  return (
    <Alert
      type="error"
      role="alert"
      showIcon
      title={message}
      closable={onClose ? { onClose, 'aria-label': 'Dismiss' } : false}
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
