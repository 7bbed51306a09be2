import { useEffect, useState } from 'react';

/**
 * The current time, read again every `everyMs`: what a screen left open says of time ('5 minutes
 * ago', 'Held online, 4 min left') stays true.
 */
export function useNow(everyMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}
