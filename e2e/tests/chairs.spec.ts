import { expect, test } from './fixtures';
import { escapeRegExp, signInByApi } from './helpers';

/**
 * Chairs against the real server: an admin adds a chair, moves it up, takes it out of service and
 * retires it, each saved at once; a receptionist reads the chairs and changes nothing.
 */
const stamp = () => Date.now().toString(36);

test('an admin adds, moves, takes out of service and retires a chair; a receptionist only reads them', async ({
  browser,
  page,
}) => {
  const name = `Room ${stamp()}`;
  await signInByApi(page, 'admin');
  await page.goto('/settings');
  const panel = page.getByRole('region', { name: 'Chairs' });
  const names = () => panel.getByRole('row').locator('td:first-child');
  await expect(names().first()).toBeVisible();

  await page.getByRole('button', { name: 'Add chair' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add chair' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Add chair' }).click();
  await expect(page.getByText(`${name} was added`)).toBeVisible();
  // Last in the order; moved up, it passes the chair before it.
  await expect(names().last()).toHaveText(name);
  const before = await names().allTextContents();
  await page.getByRole('button', { name: `Move ${name} up` }).click();
  await expect(names()).toHaveText([...before.slice(0, -2), name, before.at(-2) as string]);

  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit chair' });
  await edit.getByRole('switch', { name: 'In service' }).click();
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText(`${name} was saved`)).toBeVisible();
  const row = panel.getByRole('row').filter({ hasText: new RegExp(`^${escapeRegExp(name)}`) });
  await expect(row).toContainText('Out of service');

  // Kept after a reload: saved on the server.
  await page.reload();
  await expect(panel.getByRole('row').filter({ hasText: name })).toContainText('Out of service');

  // The receptionist sees it, and no way to change it.
  const desk = await browser.newContext();
  const deskPage = await desk.newPage();
  await signInByApi(deskPage, 'receptionist');
  await deskPage.goto('/settings');
  await expect(deskPage.getByRole('region', { name: 'Chairs' }).getByText(name)).toBeVisible();
  await expect(
    deskPage.getByText(
      "The clinic's chairs, in the order the day shows them. Only an administrator can change them.",
    ),
  ).toBeVisible();
  await expect(deskPage.getByRole('button', { name: 'Add chair' })).toHaveCount(0);
  await desk.close();

  await page.getByRole('button', { name: `Retire ${name}` }).click();
  const question = page.getByRole('dialog', { name: `Retire ${name}?` });
  await question.getByRole('button', { name: 'Retire' }).click();
  await expect(page.getByText(`${name} was retired`)).toBeVisible();
  await expect(panel.getByText(name)).toHaveCount(0);
  await expect(names()).toHaveText(before.slice(0, -1));
});
