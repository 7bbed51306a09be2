// @ts-check
/** One jest run for every package: browser packages in jsdom, the server in node. */

/** @type {import('jest').Config['transform']} */
const swcTransform = {
  '^.+\\.(t|j)sx?$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', tsx: true },
        transform: { react: { runtime: 'automatic' } },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
    },
  ],
};

/** @param {string} name */
const browserProject = (name) => ({
  displayName: name,
  rootDir: `<rootDir>/${name}`,
  testEnvironment: 'jsdom',
  transform: swcTransform,
  setupFilesAfterEnv: ['<rootDir>/../jest.setup.browser.ts'],
  testMatch: ['<rootDir>/src/**/*.test.{ts,tsx}'],
  // nuqs ships ES modules only; jest runs CommonJS.
  transformIgnorePatterns: ['/node_modules/(?!(nuqs)/)'],
  moduleNameMapper: {
    '\\.css$': '<rootDir>/../jest.style-stub.js',
    // @ant-design/icons' CommonJS build requires this ES-module-only file; its CommonJS twin is the same code.
    '^@ant-design/colors/es/(.*)$': '@ant-design/colors/lib/$1',
  },
});

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    browserProject('shared'),
    browserProject('shell'),
    browserProject('mf-appointments'),
    browserProject('mf-patients'),
    browserProject('mf-dentists'),
    browserProject('mf-scheduling'),
    browserProject('mf-admin'),
    browserProject('mf-booking'),
    {
      displayName: 'server',
      rootDir: '<rootDir>/server',
      testEnvironment: 'node',
      transform: swcTransform,
      testMatch: ['<rootDir>/src/**/*.test.ts'],
      // The demo clinics are migrated and seeded once a run; each test file's app gets a copy.
      globalSetup: '<rootDir>/src/test/globalSetup.ts',
      globalTeardown: '<rootDir>/src/test/globalTeardown.ts',
      // These dependencies ship ES modules only; Node 20 loads them natively, jest needs them compiled.
      transformIgnorePatterns: ['/node_modules/(?!(content-disposition|cookie)/)'],
    },
  ],
  // One worker a core, where jest's default leaves one core to itself: a server test waits on PGlite's
  // own thread or the PostgreSQL server, a component test on timers, so a second worker fills the
  // gaps. On two cores the whole run went from 199 s to 123 s.
  maxWorkers: '100%',
  // Jest reads the time-out only here, not per project. The slowest test (an API restart with its
  // outbox) takes about 4 s on a quiet machine; a file's first API start with its sign-ins passed 30 s
  // beside two other suites (load 14 on two cores). Sixty leaves room for such an hour, and no more.
  testTimeout: 60000,
};
