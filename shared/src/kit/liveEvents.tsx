import { createContext, type ReactNode, useContext, useEffect, useRef, useSyncExternalStore } from 'react';
import type { ClinicEvent } from '../domain/liveDesk';

/** Where the clinic's one stream of changes stands: the shell opens it, every screen follows it. */
export type LiveStatus = 'connecting' | 'open' | 'reconnecting';

/**
 * The shell's one subscription to the clinic's changes, handed to every module through the kit:
 * modules never open a stream of their own. The shell also turns each change into cache
 * invalidations; a screen subscribes only for what a cache cannot do (a form whose record changed).
 */
export interface LiveEvents {
  /** Calls the listener with each change another desk (or this one) made; returns the unsubscribe. */
  subscribe(listener: (event: ClinicEvent) => void): () => void;
  status(): LiveStatus;
  /** Calls the listener when the status changes; returns the unsubscribe. */
  onStatus(listener: () => void): () => void;
}

/** No stream (tests, a screen outside the shell): nothing ever changes. */
const QUIET: LiveEvents = {
  subscribe: () => () => {},
  status: () => 'open',
  onStatus: () => () => {},
};

const LiveEventsContext = createContext<LiveEvents>(QUIET);

export function LiveEventsProvider({ events, children }: { events: LiveEvents; children: ReactNode }) {
  return <LiveEventsContext.Provider value={events}>{children}</LiveEventsContext.Provider>;
}

export const useLiveEvents = (): LiveEvents => useContext(LiveEventsContext);

/** Calls `listener` with every change of the clinic while the component is mounted. */
export function useClinicEvents(listener: (event: ClinicEvent) => void): void {
  const events = useLiveEvents();
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => events.subscribe((event) => latest.current(event)), [events]);
}

/** The stream's status, following it. */
export function useLiveStatus(): LiveStatus {
  const events = useLiveEvents();
  return useSyncExternalStore(
    (onChange) => events.onStatus(onChange),
    () => events.status(),
    () => 'open',
  );
}
