import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * Browser journeys against the built app, served by the same server code `npm start` runs, each
 * server on a fresh embedded database. The second server is configured with one module's entry
 * broken on purpose, to see that the rest of the app keeps working. The main server sends its e-mail to
 * a local mail server (e2e/mail-sink.ts) that the journeys read.
 */
// E2E_PORT moves both servers (it and the next port), so two checkouts can run their journeys side by side.
const port = Number(process.env.E2E_PORT ?? 3210);
export const APP_URL = `http://localhost:${port}`;
export const BROKEN_MODULE_APP_URL = `http://localhost:${port + 1}`;
/** The local mail server the main app sends reminders to (SMTP on port + 3), read over HTTP. */
export const MAIL_SINK_URL = `http://127.0.0.1:${port + 2}`;
const mailSinkSmtpPort = port + 3;

const root = path.resolve(__dirname, '..');
const freshDataDir = (name: string) => mkdtempSync(path.join(tmpdir(), `dental-e2e-${name}-`));
const serverCommand = 'node --import tsx server/src/main.ts';
// Every journey signs in from the same address, dozens of times a minute on a fast run: the per-address
// sign-in limit (20 a minute, tested by the API suite) would refuse some of them, depending on speed.
const JOURNEY_LIMITS = { LOGIN_RATE_LIMIT: '1000' };

export default defineConfig({
  testDir: './tests',
  timeout: 45_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
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
  webServer: [
    {
      command: 'node --import tsx e2e/mail-sink.ts',
      cwd: root,
      url: `${MAIL_SINK_URL}/messages`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { MAIL_SINK_SMTP_PORT: String(mailSinkSmtpPort), MAIL_SINK_HTTP_PORT: String(port + 2) },
    },
    {
      command: serverCommand,
      cwd: root,
      url: `${APP_URL}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(port),
        HOST: 'localhost',
        DATA_DIR: freshDataDir('main'),
        LOG_LEVEL: 'warn',
        ...JOURNEY_LIMITS,
        SMTP_URL: `smtp://127.0.0.1:${mailSinkSmtpPort}`,
        MAIL_FROM: 'Bright Smile Dental <desk@brightsmile.example>',
        // The journeys wait for what is sent: the sender looks every second instead of every minute.
        REMINDERS_POLL_S: '1',
      },
    },
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
