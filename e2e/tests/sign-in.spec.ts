import { expect, test } from './fixtures';
import { ACCOUNTS, expectScreen, expectSidebar, fillSignIn, signIn, signOut, userMenu } from './helpers';

const EXPECTED_SIDEBAR = {
  admin: [
    'Dashboard',
    'Appointments',
    'Waitlist',
    'Requests',
    'Patients',
    'Recall',
    'Dentists',
    'Availability',
    'Calendar',
    'Users',
    'Audit',
    'Settings',
    'Modules',
  ],
  receptionist: [
    'Dashboard',
    'Appointments',
    'Waitlist',
    'Requests',
    'Patients',
    'Recall',
    'Calendar',
    'Settings',
  ],
  dentist: [
    'Dashboard',
    'Appointments',
    'Waitlist',
    'Requests',
    'Patients',
    'Recall',
    'Availability',
    'Calendar',
    'Settings',
  ],
} as const;

for (const account of ['admin', 'receptionist', 'dentist'] as const) {
  test(`${account} signs in, lands on the dashboard and sees only what the role allows`, async ({ page }) => {
    await signIn(page, account);
    await expect(page).toHaveURL(/\/$/);
    await expectSidebar(page, EXPECTED_SIDEBAR[account]);
    const menu = userMenu(page);
    await expect(menu).toHaveAccessibleName(`${ACCOUNTS[account].name} ${ACCOUNTS[account].role}`);
    await menu.click();
    await expect(page.getByRole('menu').last()).toContainText(ACCOUNTS[account].name);
  });
}

test('the sign-in form refuses empty fields and shows a wrong password in a red banner', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByText('Demo Accounts')).toBeVisible();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please fill in all fields');

  await page.getByLabel('Username or Email').fill('admin');
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid username or password');
  await expect(page).toHaveURL(/\/login$/);
});

test('the password can be shown, and the button says Signing in... while the request runs', async ({
  page,
}) => {
  await page.goto('/login');
  const password = page.getByLabel('Password', { exact: true });
  await password.fill('secret');
  await expect(password).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(password).toHaveAttribute('type', 'text');

  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/auth/login', async (route) => {
    await held;
    await route.continue();
  });
  await fillSignIn(page, 'admin');
  const button = page.getByRole('button', { name: 'Signing in...' });
  await expect(button).toBeDisabled();
  release();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
});

test('Forgot password? says who resets it', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('note')).toContainText('administrator');
});

test('a signed-out visit is sent to sign in and comes back to the page it asked for', async ({ page }) => {
  await page.goto('/patients');
  await expect(page).toHaveURL(/\/login$/);
  await fillSignIn(page, 'receptionist');
  await expect(page).toHaveURL(/\/patients$/);
  await expectScreen(page, 'Patients');
  // The login page was replaced in history: going back does not return to it.
  await page.goBack();
  await expect(page).not.toHaveURL(/\/login$/);
});

test('sign-out ends the session', async ({ page }) => {
  await signIn(page, 'admin');
  await signOut(page);
  await page.goto('/patients');
  await expect(page).toHaveURL(/\/login$/);
  const stored = await page.evaluate(() => [
    localStorage.getItem('authToken'),
    sessionStorage.getItem('authToken'),
  ]);
  expect(stored).toEqual([null, null]);
});

test('the session survives a reload', async ({ page }) => {
  await signIn(page, 'dentist');
  await page.getByRole('menuitem', { name: 'Calendar' }).click();
  await expectScreen(page, 'Calendar');
  await page.reload();
  await expect(page).toHaveURL(/\/calendar$/);
  await expectScreen(page, 'Calendar');
});

test('Remember me decides where the session is kept', async ({ page, context }) => {
  await signIn(page, 'admin');
  expect(await page.evaluate(() => sessionStorage.getItem('authToken'))).toBeTruthy();
  expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();

  // A new tab of the same browser session gets in through the refresh cookie.
  const second = await context.newPage();
  await second.goto('/patients');
  await expectScreen(second, 'Patients');
  await second.close();

  await signOut(page);
  await signIn(page, 'admin', { remember: true });
  expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeTruthy();
  const cookies = await context.cookies();
  const refresh = cookies.find((cookie) => cookie.name === 'dental_refresh');
  expect(refresh?.httpOnly).toBe(true);
  // A remembered session's cookie outlives the browser session (it has an expiry).
  expect(refresh?.expires).toBeGreaterThan(Date.now() / 1000);
});

test('signing out of a remembered session in one tab signs out the others', async ({ page, context }) => {
  await signIn(page, 'receptionist', { remember: true });
  const second = await context.newPage();
  await second.goto('/calendar');
  await expectScreen(second, 'Calendar');
  await signOut(page);
  await expect(second).toHaveURL(/\/login$/);
  await expect(second.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test('no module code is loaded before sign-in', async ({ page }) => {
  const moduleRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/modules/')) moduleRequests.push(request.url());
  });
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(moduleRequests).toEqual([]);
});
