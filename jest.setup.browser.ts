import '@testing-library/jest-dom';
import { TextDecoder, TextEncoder } from 'node:util';
import { configure } from '@testing-library/react';
import { mediaQueryList } from './shared/src/testing/screenWidth';

// React Router 7 reads TextEncoder when it loads; jest's jsdom environment does not provide it.
if (typeof globalThis.TextEncoder === 'undefined') {
  Object.assign(globalThis, { TextEncoder, TextDecoder });
}

// Constants the build injects (rspack.config.base.ts).
Object.assign(globalThis, {
  __PACKAGE_NAME__: 'test-package',
  __PACKAGE_VERSION__: '0.0.0-test',
  __BUILD_TIME__: '2026-01-01T00:00:00.000Z',
});

// antd reads these browser APIs, which jsdom lacks.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => mediaQueryList(query, false),
});

// antd's Menu, Drawer and overflow lists watch their size with ResizeObserver, which jsdom lacks.
if (typeof globalThis.ResizeObserver === 'undefined') {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.assign(globalThis, { ResizeObserver: ResizeObserverStub });
}

// antd measures the scroll bar with getComputedStyle(element, '::-webkit-scrollbar'); jsdom implements
// only the one-argument form and logs an error for the other.
const computedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => computedStyle(element);

// antd's forms schedule their watchers through a MessageChannel, which jsdom lacks; a macrotask is
// all they need of it.
if (typeof globalThis.MessageChannel === 'undefined') {
  class MacroTaskChannel {
    port1: { onmessage: ((event: { data: unknown }) => void) | null } = { onmessage: null };
    port2 = {
      postMessage: (data: unknown) => {
        setTimeout(() => this.port1.onmessage?.({ data }), 0);
      },
    };
  }
  Object.assign(globalThis, { MessageChannel: MacroTaskChannel });
}

// A component test waits for what it needs, near Testing Library's own second: with antd's styles
// kept out of jsdom (StylelessUi in the testing kit) a screen answers in milliseconds, so a wait that
// runs out means a slow or broken screen, not a busy machine.
configure({ asyncUtilTimeout: 2000 });
