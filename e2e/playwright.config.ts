import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * Browser journeys against the built app, served by the same server code `npm start` runs, each
 * server on a fresh embedded database. Journeys run in E2E_WORKERS workers (2 unless told), each
 * worker against an app server of its own (fixtures.ts picks it), so one worker's journeys never
 * meet another's data. One more server is configured with one module's entry broken on purpose, to
 * see that the rest of the app keeps working. The app servers send their e-mail to a local mail
 * server (e2e/mail-sink.ts) that the journeys read. A module rebuilt on disk is served by every
 * server: that journey runs last, alone.
 */
// E2E_PORT moves every server (it and the next ports), so two checkouts can run their journeys side by side.
const port = Number(process.env.E2E_PORT ?? 3210);
const workers = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));
/** One app server a worker: the first on E2E_PORT, the others from E2E_PORT + 4 on. */
export const APP_URLS = Array.from(
  { length: workers },
  (_, index) => `http://localhost:${index === 0 ? port : port + 3 + index}`,
);
export const APP_URL = APP_URLS[0];
export const BROKEN_MODULE_APP_URL = `http://localhost:${port + 1}`;
/** The local mail server the app servers send reminders to (SMTP on port + 3), read over HTTP. */
export const MAIL_SINK_URL = `http://127.0.0.1:${port + 2}`;
const mailSinkSmtpPort = port + 3;

const root = path.resolve(__dirname, '..');
const freshDataDir = (name: string) => mkdtempSync(path.join(tmpdir(), `dental-e2e-${name}-`));
const serverCommand = 'node --import tsx server/src/main.ts';
// Every journey signs in from the same address, dozens of times a minute on a fast run: the per-address
// sign-in limit (20 a minute, tested by the API suite) would refuse some of them, depending on speed.
/**
 * Many sign-ins from one address, and password hashes at the lowest cost a server takes (scrypt at
 * the default 2^17 costs a third of a second a sign-in; the server suites check that cost).
 */
const JOURNEY_LIMITS = { LOGIN_RATE_LIMIT: '1000', PASSWORD_HASH_COST: '14' };
/** The platform's key the release journeys publish with (each app server keeps its releases apart). */
export const PLATFORM_TOKEN = 'journeys-platform-key-0123456789abcdef';
/** Where each app server keeps published module releases, in APP_URLS' order. */
// The config is read again in every worker: the run's folders are named once, by the runner, whose
// environment the workers inherit.
process.env.E2E_RELEASES_RUN ??= `${process.pid}-${Date.now()}`;
export const RELEASES_DIRS = APP_URLS.map((_, index) => {
  const folder = path.join(tmpdir(), `dental-e2e-releases-${process.env.E2E_RELEASES_RUN}-${index}`);
  mkdirSync(folder, { recursive: true });
  return folder;
});

export default defineConfig({
  testDir: './tests',
  timeout: 45_000,
  expect: { timeout: 10_000 },
  // A file's journeys run in order in one worker; accessibility.spec.ts spreads its checks over all.
  fullyParallel: false,
  workers,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: APP_URL,
    trace: 'off',
    // Staff who ask for less motion get none (menus, dialogs, drop-downs appear at once). The journeys
    // use that setting: an element sliding in under a click on a busy machine is not what they test.
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    { name: 'journeys', testIgnore: /module-release\.spec\.ts/ },
    // Rebuilds a module's files on disk, which every server serves: after all the others, alone.
    { name: 'module release', testMatch: /module-release\.spec\.ts/, dependencies: ['journeys'] },
  ],
  webServer: [
    {
      command: 'node --import tsx e2e/mail-sink.ts',
      cwd: root,
      url: `${MAIL_SINK_URL}/messages`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { MAIL_SINK_SMTP_PORT: String(mailSinkSmtpPort), MAIL_SINK_HTTP_PORT: String(port + 2) },
    },
    ...APP_URLS.map((url, index) => ({
      command: serverCommand,
      cwd: root,
      url: `${url}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: new URL(url).port,
        HOST: 'localhost',
        DATA_DIR: freshDataDir(`app${index + 1}`),
        LOG_LEVEL: 'warn',
        ...JOURNEY_LIMITS,
        SMTP_URL: `smtp://127.0.0.1:${mailSinkSmtpPort}`,
        MAIL_FROM: 'Bright Smile Dental <desk@brightsmile.example>',
        // The journeys wait for what is sent: the sender looks every second instead of every minute.
        REMINDERS_POLL_S: '1',
        PLATFORM_TOKEN,
        MODULE_RELEASES_DIR: RELEASES_DIRS[index] as string,
      },
    })),
    {
      command: serverCommand,
      cwd: root,
      url: `${BROKEN_MODULE_APP_URL}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(port + 1),
        HOST: 'localhost',
        DATA_DIR: freshDataDir('broken'),
        LOG_LEVEL: 'warn',
        ...JOURNEY_LIMITS,
        MODULE_ENTRY_DENTISTS: '/modules/dentists/missing/mf-manifest.json',
      },
    },
  ],
});
