import { chromium } from '@playwright/test';
const BASE = 'http://localhost:3411';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const settle = (page) => page.waitForFunction(() => !document.querySelector('.ant-fade-appear, .ant-zoom-appear, .ant-zoom-enter, .ant-slide-up-appear'));
for (const width of [1280, 360]) {
  const ctx = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(`${BASE}/login`);
  await page.getByLabel('Username').fill('receptionist');
  await page.locator('#login-password').fill('receptionist123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/dashboard|\/$/);
  await page.goto(`${BASE}/calendar?view=day&day=2026-12-01&by=chair`);
  await page.getByRole('group', { name: /^Chair 1,/ }).waitFor();
  await page.getByText('Ava Stone,').waitFor();
  await settle(page);
  await page.screenshot({ path: `/tmp/shots/dayby-chair-${width}.png`, fullPage: width === 1280 });
  // The form from free time in Chair 3
  await page.goto(`${BASE}/appointments?new=1&date=2026-12-01&time=11:00&dentist=1&treatment=Cavity%20Filling`);
  const dialog = page.getByRole('dialog', { name: 'New Appointment' });
  await dialog.waitFor();
  await dialog.getByText(/will be taken|first free chair/).waitFor();
  await settle(page);
  await dialog.getByLabel('Chair').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `/tmp/shots/form-chair-${width}.png` });
  await ctx.close();
}
await browser.close();
console.log('done');
