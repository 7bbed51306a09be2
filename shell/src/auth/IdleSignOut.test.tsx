import { useAuthStore } from '@dental/shared';
import { createFakeApi, type FakeApi, renderScreen } from '@dental/shared/testing';
import { act, fireEvent, waitFor } from '@testing-library/react';
import { IdleSignOut } from './IdleSignOut';

let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
  api.onGet('/api/settings').reply(200, { idleTimeoutMinutes: 5 });
  api.onPost('/auth/logout').reply(200, { message: 'Signed out' });
  api.onPost('/auth/refresh').reply(401, { message: 'Session expired' });
});
afterEach(() => {
  api.restore();
  jest.useRealTimers();
});

describe('IdleSignOut (Settings, Security: the idle sign-out time)', () => {
  it("signs out a session left idle for the clinic's time, and the sign-in page will say why", async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
    renderScreen(<IdleSignOut />);
    await waitFor(() => expect(api.sent('get', '/api/settings')).toHaveLength(1));
    // Activity keeps the session: four minutes, a key, four more minutes.
    act(() => jest.advanceTimersByTime(4 * 60_000));
    fireEvent.keyDown(window, { key: 'a' });
    act(() => jest.advanceTimersByTime(4 * 60_000));
    expect(useAuthStore.getState().status).toBe('authenticated');

    act(() => jest.advanceTimersByTime(61_000));
    await waitFor(() => expect(useAuthStore.getState().status).toBe('anonymous'));
    expect(useAuthStore.getState().notice).toBe('You were signed out after 5 minutes without activity.');
    expect(api.sent('post', '/auth/logout')).toHaveLength(1);
  });
});
