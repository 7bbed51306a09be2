import type { ReactNode } from 'react';

/** A message the patient must not miss: a refusal is announced at once, news politely. */
export function Notice({ tone, children }: { tone: 'error' | 'info'; children: ReactNode }) {
  return (
    <div className={`booking-notice booking-notice-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
