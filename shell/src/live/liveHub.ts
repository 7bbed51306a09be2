import type { ClinicEvent } from '@dental/shared';
import type { LiveEvents, LiveStatus } from '@dental/shared/kit';

export interface LiveHub extends LiveEvents {
  emit(event: ClinicEvent): void;
  setStatus(status: LiveStatus): void;
}

/**
 * What the modules' screens subscribe to (through the kit's LiveEventsProvider): it outlives the
 * streams behind it, so a screen's subscription holds across a reconnect or a new token.
 */
export function createLiveHub(): LiveHub {
  let status: LiveStatus = 'connecting';
  const listeners = new Set<(event: ClinicEvent) => void>();
  const statusListeners = new Set<() => void>();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    status: () => status,
    onStatus(listener) {
      statusListeners.add(listener);
      return () => {
        statusListeners.delete(listener);
      };
    },
    emit(event) {
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch (error) {
          // One screen's failing listener must not keep the change from the others.
          console.error(error);
        }
      }
    },
    setStatus(next) {
      if (next === status) return;
      status = next;
      for (const listener of [...statusListeners]) listener();
    },
  };
}
