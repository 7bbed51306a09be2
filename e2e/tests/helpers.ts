import { expect, type Page } from '@playwright/test';

export const ACCOUNTS = {
  admin: { username: 'admin', password: 'admin123', name: 'Alex Morgan', role: 'Administrator' },
  receptionist: {
    username: 'receptionist',
    password: 'receptionist123',
    name: 'Riley Chen',
    role: 'Receptionist',
  },
  dentist: { username: 'dentist', password: 'dentist123', name: 'Dr. Sarah Johnson', role: 'Dentist' },
  harborAdmin: {
    username: 'harbor.admin',
    password: 'harbor123',
    name: 'Jordan Harbor',
    role: 'Administrator',
  },
} as const;
export type AccountName = keyof typeof ACCOUNTS;

export async function fillSignIn(page: Page, account: AccountName, remember = false) {
  const { username, password } = ACCOUNTS[account];
  await page.getByLabel('Username or Email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  if (remember) await page.getByLabel('Remember me').check();
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in from the login page and waits for the dashboard. */
export async function signIn(
  page: Page,
  account: AccountName,
  options: { baseURL?: string; remember?: boolean } = {},
) {
  await page.goto(`${options.baseURL ?? ''}/login`);
  await fillSignIn(page, account, options.remember);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 2 })).toBeVisible();
}

export function sidebar(page: Page) {
  return page.getByRole('menu', { name: 'Main navigation' }).first();
}

/** Waits until the sidebar lists exactly these entries (module entries arrive after sign-in). */
export async function expectSidebar(page: Page, entries: readonly string[]) {
  await expect(sidebar(page).getByRole('menuitem')).toHaveText([...entries]);
}

export async function signOut(page: Page) {
  await page.getByRole('button', { name: /^User menu/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}
