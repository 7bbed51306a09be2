import type { APIRequestContext, Browser } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { expect, type Page, test } from './fixtures';
import { choose, expectScreen, signInByApi, signOut } from './helpers';

/**
 * Trusted with patient records: a second factor at sign-in, required by the clinic if it wishes,
 * sessions a user sees and ends, and an audit that shows who opened a record. Each journey signs in
 * members of staff of its own, so no other journey meets their factors.
 */

const stamp = () => Date.now().toString(36);
const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** The code an authenticator app shows for this key, `periods` of 30 s from now. */
const codeOf = (key: string, periods = 0) =>
  new TOTP({ secret: Secret.fromBase32(key.replace(/\s/g, '')), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + periods * 30_000,
  });

async function adminToken(request: APIRequestContext): Promise<string> {
  const response = await request.post('/auth/login', { data: { username: 'admin', password: 'admin123' } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** A new receptionist of the demo clinic, added by its admin through the API. */
async function newReceptionist(request: APIRequestContext, first: string) {
  const tag = stamp();
  const account = { username: `${first.toLowerCase()}.${tag}`, password: 'a-long-secret-of-theirs' };
  const response = await request.post('/api/users', {
    headers: { authorization: `Bearer ${await adminToken(request)}` },
    data: {
      name: `${first} Twostep${tag}`,
      username: account.username,
      email: `${account.username}@brightsmile.example`,
      password: account.password,
      role: 'receptionist',
    },
  });
  expect(response.status()).toBe(201);
  return account;
}

async function enterPassword(page: Page, account: { username: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('Username or Email').fill(account.username);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function browserOf(browser: Browser, baseURL: string | undefined, userAgent?: string) {
  const context = await browser.newContext({
    baseURL,
    reducedMotion: 'reduce',
    ...(userAgent ? { userAgent } : {}),
  });
  return { context, page: await context.newPage() };
}

test('a receptionist turns on an authenticator, then signs in with a code and with a recovery code', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const account = await newReceptionist(request, 'Tara');
  await enterPassword(page, account);
  await expectScreen(page, 'Dashboard');

  await page.goto('/settings?tab=security');
  await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
  const dialog = page.getByRole('dialog', { name: 'Turn on two-step sign-in' });
  await dialog.getByLabel('Current password').fill(account.password);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  // The key as the app takes it when typed in, computed here as a phone would.
  const key = (await dialog.getByTestId('totp-key').textContent()) ?? '';
  expect(key.replace(/\s/g, '')).toMatch(/^[A-Z2-7]{32}$/);
  await dialog.getByLabel('Code from the app').fill(codeOf(key));
  await dialog.getByRole('button', { name: 'Turn on' }).click();
  const codes = dialog.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recoveryCode = (await codes.first().textContent()) ?? '';
  await dialog.getByRole('button', { name: 'I have saved my recovery codes' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/10 of your recovery codes are left/)).toBeVisible();

  // The password alone no longer signs in: a code from the app does (the next one: each is taken once).
  await signOut(page);
  await enterPassword(page, account);
  await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
  await page.getByLabel('Code', { exact: true }).fill(codeOf(key, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expectScreen(page, 'Dashboard');

  // Without the phone: a recovery code, once.
  await signOut(page);
  await enterPassword(page, account);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(recoveryCode);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expectScreen(page, 'Dashboard');
  await page.goto('/settings?tab=security');
  await expect(page.getByText(/9 of your recovery codes are left/)).toBeVisible();
  await expect(page.getByText(/with password and recovery code/)).toBeVisible();

  await signOut(page);
  await enterPassword(page, account);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(recoveryCode);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'That recovery code is not right, or it was already used.',
  );
});

test('an admin requires two-step sign-in for all staff, and a receptionist is led through it first', async ({
  page,
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(90_000);
  const account = await newReceptionist(request, 'Uri');
  const token = await signInByApi(page, 'admin');
  try {
    await page.goto('/settings?tab=security');
    await expectScreen(page, 'Settings');
    await choose(page, page.getByRole('combobox', { name: 'Require two-step sign-in for' }), 'All staff');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(page.getByText('Settings saved successfully!')).toBeVisible();

    const desk = await browserOf(browser, baseURL);
    await enterPassword(desk.page, account);
    await expect(desk.page.getByRole('heading', { name: 'Set up two-step sign-in' })).toBeVisible();
    // Nothing else opens before the factor is set up.
    await desk.page.goto('/patients');
    await expect(desk.page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

    await enterPassword(desk.page, account);
    const key = (await desk.page.getByTestId('totp-key').textContent()) ?? '';
    await desk.page.getByLabel('Code from the app').fill(codeOf(key));
    await desk.page.getByRole('button', { name: 'Turn on and continue' }).click();
    await expect(desk.page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(
      10,
    );
    await desk.page.getByRole('button', { name: 'I have saved my recovery codes' }).click();
    // On to the screen that sent them to sign in.
    await expectScreen(desk.page, 'Patients');

    // Required: it cannot be turned off, and the next sign-in asks for a code.
    await desk.page.goto('/settings?tab=security');
    await expect(desk.page.getByText(/Your clinic requires a second factor/)).toBeVisible();
    await expect(desk.page.getByRole('button', { name: 'Turn off' })).toHaveCount(0);
    await signOut(desk.page);
    await enterPassword(desk.page, account);
    await expect(desk.page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
    await desk.context.close();
  } finally {
    // Other journeys of this server sign in with passwords alone.
    const reset = await request.put('/api/settings', {
      headers: { authorization: `Bearer ${token}` },
      data: { mfaRequired: 'none' },
    });
    expect(reset.status()).toBe(200);
  }
});

test("a user signs another of their browsers out, and that browser's screen goes to the sign-in page", async ({
  page,
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(60_000);
  const account = await newReceptionist(request, 'Vera');
  const other = await browserOf(browser, baseURL, FIREFOX_ON_WINDOWS);
  await enterPassword(other.page, account);
  await expectScreen(other.page, 'Dashboard');
  await other.page.goto('/patients');
  await expectScreen(other.page, 'Patients');

  await enterPassword(page, account);
  await expectScreen(page, 'Dashboard');
  await page.goto('/settings?tab=security');
  const sessions = page.getByRole('region', { name: 'Signed-in sessions' });
  await expect(sessions.getByText('This device')).toBeVisible();
  await expect(sessions.getByText('Firefox 133 on Windows 10')).toBeVisible();
  await page.getByRole('button', { name: 'Sign out Firefox 133 on Windows 10' }).click();
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(sessions.getByText('Firefox 133 on Windows 10')).toHaveCount(0);

  // The other browser is told by its event stream and leaves for the sign-in page, saying why.
  await expect(other.page.getByRole('heading', { name: 'Sign in' })).toBeVisible({ timeout: 15_000 });
  await expect(other.page.getByRole('status')).toHaveText(/signed out|session has ended/i);
  await other.context.close();
});

test("the Audit screen shows a receptionist opening a patient's record, filtered by that patient", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const name = `Paula Opened${stamp()}`;
  const desk = await browserOf(browser, baseURL);
  const token = await signInByApi(desk.page, 'receptionist');
  const created = await desk.page.request.post('/api/patients', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      name,
      email: `${name.replace(/\s/g, '.').toLowerCase()}@example.com`,
      phone: '555-0199',
      dateOfBirth: '1980-04-02',
    },
  });
  expect(created.status()).toBe(201);
  const patientId = ((await created.json()) as { id: number }).id;
  await desk.page.goto(`/patients?search=${encodeURIComponent(name)}`);
  await desk.page.getByRole('button', { name: `View ${name}` }).click();
  await expect(desk.page.getByRole('dialog', { name })).toBeVisible();
  // Not an admin: the record's access history is not theirs to see.
  await expect(desk.page.getByText('Who opened this record')).toHaveCount(0);
  await desk.context.close();

  await signInByApi(page, 'admin');
  await page.goto(`/audit?patient=${patientId}&action=view`);
  await expectScreen(page, 'Audit');
  const records = page.getByRole('region', { name: 'Audit records' });
  await expect(records.getByRole('row').filter({ hasText: 'Riley Chen' }).first()).toContainText('View');
  await expect(records.getByRole('row').filter({ hasText: 'Alex Morgan' })).toHaveCount(0);

  // The patient's details show the admin who opened it, the receptionist among them.
  await page.goto(`/patients?patient=${patientId}`);
  const details = page.getByRole('dialog', { name });
  await expect(details.getByText('Who opened this record')).toBeVisible();
  await expect(details.getByText('Riley Chen').first()).toBeVisible();
});
