import { apiClient, EVENTS_URL, renewAccessToken, useAuthStore } from '@dental/shared';
import { LiveEventsProvider, type QueryClient } from '@dental/shared/kit';
import { fetchEventSource } from '@microsoft/fetch-event-source';
import { type ReactNode, useEffect, useState } from 'react';
import { useModulesStore } from '../modules/modulesStore';
import { invalidateEverything, invalidateForChange } from './invalidations';
import { LiveAnnouncer } from './LiveAnnouncer';
import { createLiveHub } from './liveHub';
import { createLiveStream, type EventSourceOpener } from './liveStream';

export interface LiveDeskProps {
  client: QueryClient;
  children: ReactNode;
  /** How the stream is opened: `fetchEventSource`, or a fake in tests. */
  open?: EventSourceOpener;
}

/**
 * The signed-in app's one stream of the clinic's changes: it turns each change into the module kit's
 * invalidations, hands the changes and the stream's status to every screen (LiveEventsProvider),
 * and reads them out to screen readers. It is open only while someone is signed in.
 */
export function LiveDesk({ client, children, open = fetchEventSource }: LiveDeskProps) {
  const userId = useAuthStore((state) => (state.status === 'authenticated' ? state.user?.id : undefined));
  const [hub] = useState(createLiveHub);

  useEffect(() => {
    if (userId === undefined) return;
    const stream = createLiveStream({
      url: `${apiClient.defaults.baseURL ?? ''}${EVENTS_URL}`,
      open,
      token: () => useAuthStore.getState().token,
      renewToken: renewAccessToken,
      onStatus: hub.setStatus,
      onChange: (event) => {
        invalidateForChange(client, event, userId);
        // The modules switched on or off are the shell's own state, not a query.
        if (event.resource === 'module') void useModulesStore.getState().load();
        hub.emit(event);
      },
      onResync: () => {
        invalidateEverything(client);
        void useModulesStore.getState().load();
      },
      // The session's access ended (signed out elsewhere, deactivated): the stream stays closed, and
      // renewing the token the way a refused call does signs this tab out, saying why.
      onEnd: () => {
        void renewAccessToken();
      },
    });
    return () => {
      stream.close();
      hub.setStatus('connecting');
    };
  }, [userId, client, open, hub]);

  return (
    <LiveEventsProvider events={hub}>
      {children}
      <LiveAnnouncer />
    </LiveEventsProvider>
  );
}
