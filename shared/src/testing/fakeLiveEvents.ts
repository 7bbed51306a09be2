import { act } from '@testing-library/react';
import type { ClinicEvent } from '../domain/liveDesk';
import type { LiveEvents } from '../kit/liveEvents';

/**
 * The clinic's stream of changes as a test drives it: hand it to `renderScreen({ events })`, then
 * `emit` what another desk did.
 */
export function createFakeLiveEvents() {
  const listeners = new Set<(event: ClinicEvent) => void>();
  let next = 1;
  const events: LiveEvents = {
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    status: () => 'open',
    onStatus: () => () => {},
  };
  return Object.assign(events, {
    /**
     * Tells every screen that this changed (`event` numbered for it when not given; made at another
     * desk, one with no name, unless `desk` says which).
     */
    emit(change: Omit<ClinicEvent, 'event' | 'desk'> & { event?: number; desk?: string | null }): void {
      const event: ClinicEvent = { ...change, desk: change.desk ?? null, event: change.event ?? next };
      next = event.event + 1;
      act(() => {
        for (const listener of [...listeners]) listener(event);
      });
    },
    /** How many screens follow the stream now. */
    listenerCount: () => listeners.size,
  });
}
export type FakeLiveEvents = ReturnType<typeof createFakeLiveEvents>;
