import { useEffect, useState } from 'react';

/** Whole seconds from now until `expiresAt`, never below zero. */
export const secondsLeft = (expiresAt: string, now = Date.now()) =>
  Math.max(0, Math.ceil((Date.parse(expiresAt) - now) / 1000));

/**
 * How long the picked time stays held. The clock ticks each second for the eye; what is read out
 * changes only each minute, so a screen reader is not talked over.
 */
export function HoldCountdown({
  expiresAt,
  time,
  onExpired,
}: {
  expiresAt: string;
  time: string;
  onExpired: () => void;
}) {
  const [left, setLeft] = useState(() => secondsLeft(expiresAt));
  useEffect(() => {
    // A later expiry (a code sent holds the time longer) shows at once, not at the next tick.
    setLeft(secondsLeft(expiresAt));
    const timer = window.setInterval(() => setLeft(secondsLeft(expiresAt)), 1000);
    return () => window.clearInterval(timer);
  }, [expiresAt]);
  useEffect(() => {
    if (left === 0) onExpired();
  }, [left, onExpired]);
  const minutes = Math.floor(left / 60);
  const seconds = String(left % 60).padStart(2, '0');
  const spoken = left > 60 ? `${Math.ceil(left / 60)} minutes` : 'less than a minute';
  return (
    <p className="booking-hold">
      <span aria-hidden="true">
        We are holding {time} for you: {minutes}:{seconds} left
      </span>
      <span className="booking-visually-hidden" aria-live="polite">
        We are holding {time} for you for {spoken}
      </span>
    </p>
  );
}
