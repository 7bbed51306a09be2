// biome-ignore lint/style/noRestrictedImports: the testing kit wraps antd's own provider, which the UI kit does not hand to modules.
import { ConfigProvider } from 'antd';
import type { ReactNode } from 'react';

/**
 * antd without its run-time styles, for component tests in jsdom. antd writes thousands of CSS rules
 * into the document as components first render; jsdom answers every `getComputedStyle` (Testing
 * Library's role queries ask it for each element and each ancestor, user-event for each pointer
 * move) by matching every one of those rules, which was three quarters of a list screen's test time.
 * Nothing a test asserts depends on antd's looks. The product's own `UiProvider` inside inherits this
 * (a nested theme merges its parent's), so the screen under test keeps its real theme and context.
 */
export function StylelessUi({ children }: { children: ReactNode }) {
  return <ConfigProvider theme={{ zeroRuntime: true }}>{children}</ConfigProvider>;
}
