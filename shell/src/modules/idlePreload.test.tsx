import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { firstScreens, useIdlePreload } from './idlePreload';
import { useModulesStore } from './modulesStore';

const TARGETS = [
  { moduleId: 'appointments', path: '/appointments' },
  { moduleId: 'appointments', path: '/waitlist' },
  { moduleId: 'patients', path: '/patients' },
  { moduleId: 'patients', path: '/recall' },
  { moduleId: 'scheduling', path: '/availability' },
] as const;

/** The browser's idle callbacks, run when the test says the browser is idle. */
let idleCallbacks: Array<() => void> = [];
const runIdle = () => {
  const waiting = idleCallbacks;
  idleCallbacks = [];
  for (const callback of waiting) callback();
};

let client = new QueryClient();
const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={client}>{children}</QueryClientProvider>
);
const renderPreload = () => renderHook(() => useIdlePreload(TARGETS), { wrapper });

describe('useIdlePreload: modules loaded while the browser is idle after sign-in', () => {
  const preload = jest.fn(async () => {});

  beforeEach(() => {
    idleCallbacks = [];
    client = new QueryClient();
    preload.mockClear();
    useModulesStore.setState({ preload });
    window.requestIdleCallback = jest.fn((callback: IdleRequestCallback) => {
      idleCallbacks.push(() => callback({ didTimeout: false, timeRemaining: () => 50 }));
      return idleCallbacks.length;
    });
    window.cancelIdleCallback = jest.fn(() => {
      idleCallbacks = [];
    });
  });

  afterEach(() => {
    Object.defineProperty(navigator, 'connection', { value: undefined, configurable: true });
  });

  it('takes each module once, at the first of its screens the user can open', () => {
    expect(firstScreens(TARGETS)).toEqual([
      { moduleId: 'appointments', path: '/appointments' },
      { moduleId: 'patients', path: '/patients' },
      { moduleId: 'scheduling', path: '/availability' },
    ]);
  });

  it('loads one module per idle moment, the next only once the one before has loaded', async () => {
    renderPreload();
    expect(preload).not.toHaveBeenCalled();
    runIdle();
    expect(preload).toHaveBeenCalledTimes(1);
    expect(preload).toHaveBeenLastCalledWith('appointments', '/appointments');
    await waitFor(() => expect(idleCallbacks).toHaveLength(1));
    runIdle();
    expect(preload).toHaveBeenLastCalledWith('patients', '/patients');
    await waitFor(() => expect(idleCallbacks).toHaveLength(1));
    runIdle();
    expect(preload).toHaveBeenLastCalledWith('scheduling', '/availability');
    await waitFor(() => expect(preload).toHaveBeenCalledTimes(3));
    expect(idleCallbacks).toHaveLength(0);
  });

  it("waits while the page's own data is on its way", async () => {
    let answer: (value: string) => void = () => {};
    void client.fetchQuery({
      queryKey: ['dashboard'],
      queryFn: () => new Promise<string>((r) => (answer = r)),
    });
    renderPreload();
    runIdle();
    runIdle();
    expect(preload).not.toHaveBeenCalled();
    answer('the figures');
    await waitFor(() => expect(client.isFetching()).toBe(0));
    runIdle();
    expect(preload).toHaveBeenCalledWith('appointments', '/appointments');
  });

  it('a failed preload does not stop the others', async () => {
    preload.mockRejectedValueOnce(new Error('Loading script failed'));
    renderPreload();
    runIdle();
    await waitFor(() => expect(idleCallbacks).toHaveLength(1));
    runIdle();
    expect(preload).toHaveBeenLastCalledWith('patients', '/patients');
  });

  it('loads nothing when the user asked the browser to save data', () => {
    Object.defineProperty(navigator, 'connection', { value: { saveData: true }, configurable: true });
    renderPreload();
    expect(window.requestIdleCallback).not.toHaveBeenCalled();
  });

  it('stops at sign-out: the idle moment asked for is given back', () => {
    const { unmount } = renderPreload();
    unmount();
    expect(window.cancelIdleCallback).toHaveBeenCalled();
    runIdle();
    expect(preload).not.toHaveBeenCalled();
  });
});
