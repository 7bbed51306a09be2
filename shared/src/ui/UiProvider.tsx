import { App, ConfigProvider } from 'antd';
import { type ReactNode, useSyncExternalStore } from 'react';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

function subscribeToMotionPreference(onChange: () => void): () => void {
  const query = window.matchMedia(REDUCED_MOTION);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** Whether the user asked their system for less motion. */
function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribeToMotionPreference,
    () => window.matchMedia(REDUCED_MOTION).matches,
    () => false,
  );
}

/**
 * One theme and one antd App context for the shell and every module. A user who asks their system
 * for less motion gets no animated menus, dialogs or drop-downs.
 */
export function UiProvider({ children }: { children: ReactNode }) {
  const reducedMotion = usePrefersReducedMotion();
  return (
    <ConfigProvider
      theme={{
        token: {
          colorPrimary: '#0e7490',
          borderRadius: 8,
          fontFamily: 'system-ui, -apple-system, Segoe UI, sans-serif',
          motion: !reducedMotion,
        },
      }}
    >
      <App>{children}</App>
    </ConfigProvider>
  );
}
