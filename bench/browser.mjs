import { chromium } from 'playwright-core';

/** Waits until the app at `base` answers its health check (two minutes at most). */
export async function waitForServer(base) {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('server did not start');
}

/** Debian's Chromium, kept off the network it would otherwise keep trying to reach. */
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * Turns Save-Data on for `page` (navigator.connection.saveData), before it loads anything: the app then
 * skips its idle preload of modules, so a page's figures are what the page itself needs.
 */
export async function saveData(page) {
  const session = await page.context().newCDPSession(page);
  await session.send('Emulation.setDataSaverOverride', { dataSaverEnabled: true });
}
