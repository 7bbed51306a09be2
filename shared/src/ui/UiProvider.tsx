import { App, ConfigProvider } from 'antd';
import type { ReactNode } from 'react';

/** One theme and one antd App context for the shell and every module. */
export function UiProvider({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider
      theme={{
        token: {
          colorPrimary: '#0e7490',
          borderRadius: 8,
          fontFamily: 'system-ui, -apple-system, Segoe UI, sans-serif',
        },
      }}
    >
      <App>{children}</App>
    </ConfigProvider>
  );
}
