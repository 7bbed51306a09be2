import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { useAuthStore } from '../auth/authStore';
import type { SessionUser } from '../domain';
import { KitProvider } from '../kit/KitProvider';
import { type LiveEvents, LiveEventsProvider } from '../kit/liveEvents';
import { UiProvider } from '../ui/UiProvider';
import { StylelessUi } from './StylelessUi';
import { staffMember } from './staff';

export interface RenderScreenOptions {
  /** Where the browser is: path and query string, e.g. `/appointments?status=pending`. */
  url?: string;
  /** The route pattern the screen is mounted on. */
  route?: string;
  /** Who is signed in. */
  staff?: SessionUser;
  /** The clinic's changes the screen follows (`createFakeLiveEvents()`); none: nothing changes. */
  events?: LiveEvents;
}

/**
 * Renders a screen as the shell does (router, UI kit, server state, URL state) with a staff member
 * signed in. Reads are not retried, so a failure shows at once. `currentUrl()` tells where the
 * screen has taken the browser.
 */
export function renderScreen(ui: ReactElement, options: RenderScreenOptions = {}) {
  const { url = '/', route = '*', staff = staffMember('receptionist'), events } = options;
  useAuthStore.setState({ status: 'authenticated', user: staff, token: 'test-token', remember: false });
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: 0 }, mutations: { retry: false } },
  });
  // The URL-state adapter reads and writes the browser's own history, as in the app: jsdom has one.
  window.history.replaceState(null, '', url);
  const routes = (
    <Routes>
      <Route path={route} element={ui} />
    </Routes>
  );
  const view = render(
    <BrowserRouter>
      <StylelessUi>
        <UiProvider>
          <KitProvider client={client}>
            {events ? <LiveEventsProvider events={events}>{routes}</LiveEventsProvider> : routes}
          </KitProvider>
        </UiProvider>
      </StylelessUi>
    </BrowserRouter>,
  );
  return {
    ...view,
    user: userEvent.setup({ delay: null }),
    queryClient: client,
    /** The query string the screen has written, as URLSearchParams. */
    currentParams: () => new URLSearchParams(window.location.search),
    currentUrl: () => `${window.location.pathname}${window.location.search}`,
  };
}

/**
 * The open dialog (modal or drawer) whose title is this text. antd names dialogs by an id that is
 * fixed under test, so the title is matched inside each dialog instead.
 */
export async function findDialog(title: string): Promise<HTMLElement> {
  return waitFor(() => {
    const dialog = screen
      .getAllByRole('dialog')
      .find((candidate) =>
        Array.from(candidate.querySelectorAll('.ant-modal-title, .ant-drawer-title')).some(
          (heading) => heading.textContent === title,
        ),
      );
    if (!dialog) throw new Error(`No open dialog titled '${title}'`);
    return dialog;
  });
}
