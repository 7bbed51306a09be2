import { App, ConfigProvider } from 'antd';
import { type ReactNode, useEffect, useSyncExternalStore } from 'react';
import { keepTabInDialogs } from './modalFocus';

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
 * Colours every text meets WCAG AA with (4.5:1 on white and on antd's pale fills): antd's defaults
 * give secondary text, status tags, links and error badges 2.4-3.9:1. The status seeds are the
 * darker shades of antd's own palettes, so tags keep their hue and their generated pale backgrounds.
 */
const ACCESSIBLE_COLORS = {
  colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
  colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
  colorTextDescription: 'rgba(0, 0, 0, 0.65)',
  colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
  colorInfo: '#0e7490',
  colorLink: '#0e7490',
  colorSuccess: '#237804',
  colorWarning: '#ad6800',
  colorError: '#cf1322',
  green: '#237804',
  red: '#cf1322',
  gold: '#ad6800',
  orange: '#ad4e00',
  blue: '#0958d9',
  cyan: '#006d75',
  purple: '#531dab',
  magenta: '#c41d7f',
  volcano: '#ad2102',
  geekblue: '#1d39c4',
  lime: '#3f6600',
};

/**
 * One theme and one antd App context for the shell and every module. A user who asks their system
 * for less motion gets no animated menus, dialogs or drop-downs; Tab goes round inside an open dialog.
 */
export function UiProvider({ children }: { children: ReactNode }) {
  const reducedMotion = usePrefersReducedMotion();
  useEffect(() => keepTabInDialogs(document), []);
  return (
    <ConfigProvider
      theme={{
        token: {
          colorPrimary: '#0e7490',
          // antd's derived hover (#28869c) puts white text at 4.2:1; a deeper teal keeps it above 4.5:1
          // under the pointer, as at rest (#0e7490: 5.4:1).
          colorPrimaryHover: '#155e75',
          ...ACCESSIBLE_COLORS,
          borderRadius: 8,
          fontFamily: 'system-ui, -apple-system, Segoe UI, sans-serif',
          motion: !reducedMotion,
        },
        components: {
          // The primary colour on the default selected fill (#bacecf) is 3.3:1; on this pale teal 4.8:1.
          Menu: { itemSelectedBg: '#e6f4f6', itemSelectedColor: '#0e7490' },
          // An empty table's words ('No appointments found') are read, not disabled: 4.5:1, not 1.6:1.
          Table: { colorTextDisabled: 'rgba(0, 0, 0, 0.62)' },
        },
      }}
    >
      <App>{children}</App>
    </ConfigProvider>
  );
}
