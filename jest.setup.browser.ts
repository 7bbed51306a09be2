import '@testing-library/jest-dom';

// Constants the build injects (rspack.config.base.ts).
Object.assign(globalThis, {
  __PACKAGE_NAME__: 'test-package',
  __PACKAGE_VERSION__: '0.0.0-test',
  __BUILD_TIME__: '2026-01-01T00:00:00.000Z',
});

// antd reads these browser APIs, which jsdom lacks.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});
