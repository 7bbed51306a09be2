import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures';
import { expectScreen, expectSidebar, signIn, signInByApi, signOut } from './helpers';

/**
 * Administration against the real server: an admin creates a receptionist, who signs in and sees only
 * their areas; deactivated, their open session is refused. Settings saved survive a reload. An
 * export downloads and `clinic:import` loads it into a fresh database.
 */
const stamp = () => Date.now().toString(36);
const root = path.resolve(__dirname, '..', '..');

test('an admin creates a receptionist, who sees only their areas, then deactivates them mid-session', async ({
  browser,
  page,
}) => {
  const username = `desk.${stamp()}`;
  const name = `Robin Desk${stamp()}`;
  const password = 'front-counter-secret-42';
  await signInByApi(page, 'admin');
  await page.goto('/users');
  await expectScreen(page, 'Users');

  await page.getByRole('button', { name: 'Add New User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New User' });
  await dialog.getByLabel('Full Name').fill(name);
  await dialog.getByLabel('Username').fill(username);
  await dialog.getByLabel('Email').fill(`${username}@clinic.example`);
  // A common password is refused by the server, beside the field.
  await dialog.getByLabel('Password', { exact: true }).fill('password123');
  await dialog.getByRole('button', { name: 'Show Password' }).click();
  await expect(dialog.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text');
  await dialog.getByRole('button', { name: 'Add User' }).click();
  await expect(
    dialog.getByText('This password is among the most common passwords: choose another'),
  ).toBeVisible();
  // So is one made of the user's own name.
  await dialog.getByLabel('Password', { exact: true }).fill(`${username}-2026`);
  await dialog.getByRole('button', { name: 'Add User' }).click();
  await expect(
    dialog.getByText(
      "This password contains the user's name, username or e-mail, or the clinic's name: choose another",
    ),
  ).toBeVisible();
  await dialog.getByLabel('Password', { exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Add User' }).click();
  await expect(page.getByText(`${name} was added`)).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search users' }).fill(username);
  await expect(page).toHaveURL(new RegExp(`search=${username.replace('.', '\\.')}`));
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('Receptionist');
  await expect(row).toContainText('Never');
  await signOut(page);

  // The new receptionist: their areas only, and no user management.
  const desk = await browser.newContext();
  const deskPage = await desk.newPage();
  await deskPage.goto('/login');
  await deskPage.getByLabel('Username or Email').fill(username);
  await deskPage.getByLabel('Password', { exact: true }).fill(password);
  await deskPage.getByRole('button', { name: 'Sign in' }).click();
  await expectScreen(deskPage, 'Dashboard');
  await expectSidebar(deskPage, [
    'Dashboard',
    'Appointments',
    'Waitlist',
    'Requests',
    'Patients',
    'Recall',
    'Calendar',
    'Settings',
  ]);
  await deskPage.goto('/users');
  await expect(deskPage.getByText("You don't have permission to access user management.")).toBeVisible();

  // The admin deactivates them: their open screen's stream of changes ends, and within seconds they
  // are back at sign-in, told why, without doing anything; a page they open then is refused too.
  await signIn(page, 'admin');
  await page.goto(`/users?search=${username}`);
  await page.getByRole('button', { name: `Deactivate ${name}` }).click();
  await expect(page.getByText(`${name} was deactivated`)).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: name })).toContainText('Inactive');
  await expect(deskPage).toHaveURL(/\/login$/);
  await expect(deskPage.getByRole('status')).toHaveText('Your session has ended. Please sign in again.');
  await deskPage.goto('/patients');
  await expect(deskPage).toHaveURL(/\/login$/);
  await desk.close();
});

test('settings saved by an admin survive a reload; others read them', async ({ page }) => {
  const practice = `Bright Smile Dental ${stamp()}`;
  await signInByApi(page, 'admin');
  await page.goto('/settings');
  await expectScreen(page, 'Settings');
  await page.getByLabel('Practice name').fill(practice);
  // A day ending before it starts is refused beside its field, and nothing is saved.
  await page.getByLabel('Saturday closes').fill('08:00');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByText('The end time must be after the start time')).toBeVisible();
  await page.getByLabel('Saturday closes').fill('12:30');
  await page.getByRole('tab', { name: 'Notifications' }).click();
  await expect(page).toHaveURL(/tab=notifications/);
  await page.getByRole('switch', { name: 'SMS reminders' }).click();
  await page.getByRole('tab', { name: 'Security' }).click();
  await page.getByLabel('Sign out after this many minutes without activity').fill('45');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Settings saved successfully!' })).toBeVisible();

  await page.goto('/settings');
  await expect(page.getByLabel('Practice name')).toHaveValue(practice);
  await expect(page.getByLabel('Saturday closes')).toHaveValue('12:30');
  await page.getByRole('tab', { name: 'Notifications' }).click();
  await expect(page.getByRole('switch', { name: 'SMS reminders' })).toBeChecked();
  await page.getByRole('tab', { name: 'Security' }).click();
  await expect(page.getByLabel('Sign out after this many minutes without activity')).toHaveValue('45');
  await signOut(page);

  await signIn(page, 'receptionist');
  await page.goto('/settings');
  await expect(page.getByLabel('Practice name')).toHaveValue(practice);
  await expect(page.getByLabel('Practice name')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save Settings' })).toHaveCount(0);
});

test("an admin's export downloads the clinic's data, and clinic:import loads it into a fresh database", async ({
  page,
}) => {
  // The import makes a fresh database (seconds of its own): 17 s on a quiet machine, 46 s on a busy one.
  test.setTimeout(90_000);
  await signInByApi(page, 'admin');
  await page.goto('/settings?tab=backup');
  await expectScreen(page, 'Settings');
  await expect(page.getByText(/Last export/)).toBeVisible();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^bright-smile-dental-\d{4}-\d{2}-\d{2}\.json$/);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'dental-export-')), download.suggestedFilename());
  await download.saveAs(file);
  await expect(page.getByText(/ by Alex Morgan$/)).toBeVisible();

  const exported = JSON.parse(readFileSync(file, 'utf8'));
  expect(exported.format).toBe('dental-clinic-export');
  expect(readFileSync(file, 'utf8')).not.toMatch(/scrypt|password_hash/);

  const output = execFileSync('node', ['--import', 'tsx', 'server/src/scripts/importClinic.ts', file], {
    cwd: root,
    env: { ...process.env, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'dental-import-')), DATABASE_URL: '' },
    encoding: 'utf8',
  });
  expect(output).toContain(
    `${exported.users.length} users, ${exported.dentists.length} dentists, ${exported.patients.length} patients, ${exported.availability.length} availability days, ${exported.appointments.length} appointments.`,
  );
  expect(output).toMatch(/^Imported "Bright Smile Dental" as clinic \d+:/m);
  expect(output).toMatch(/^\s+admin\s+\S{16}$/m);
});
