import { expect, test } from './fixtures';
import { signIn, signInByApi } from './helpers';

test('a receptionist sees Access Denied for Dentists and Users, and Go Back works', async ({ page }) => {
  await signIn(page, 'receptionist');
  await page.goto('/dentists');
  await expect(page.getByText('Access Denied')).toBeVisible();
  await expect(page.getByText("You don't have permission to access this page.")).toBeVisible();
  await expect(page.getByText('Required permission: dentists')).toBeVisible();
  await expect(page.getByText('Your role: Receptionist')).toBeVisible();

  await page.getByRole('menuitem', { name: 'Calendar' }).click();
  await page.goto('/users');
  await expect(page.getByText("You don't have permission to access user management.")).toBeVisible();
  await expect(page.getByText('Required permission: all')).toBeVisible();
  await page.getByRole('button', { name: 'Go Back' }).click();
  await expect(page).not.toHaveURL(/\/users$/);
});

test('an unknown path shows the 404 page with the path and a way back to the dashboard', async ({ page }) => {
  await signInByApi(page, 'admin');
  await page.goto('/no/such/page');
  await expect(page.getByText('Page not found')).toBeVisible();
  await expect(page.getByTestId('not-found-path')).toHaveText('/no/such/page');
  await page.getByRole('button', { name: 'Go to Dashboard' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
});

test('the API refuses calls without a valid token', async ({ request }) => {
  const anonymous = await request.get('/api/modules');
  expect(anonymous.status()).toBe(401);
  expect(await anonymous.json()).toEqual({ message: 'Authentication required' });
  const forged = await request.get('/api/modules', { headers: { authorization: 'Bearer not.a.token' } });
  expect(forged.status()).toBe(401);
  const unknown = await request.get('/api/nothing-here');
  expect(unknown.status()).toBe(404);
  expect(await unknown.json()).toEqual({ message: 'Not found' });
});
