import { BROKEN_MODULE_APP_URL } from '../playwright.config';
import { expect, test } from './fixtures';
import { expectScreen, sidebar, signIn, signOut } from './helpers';

test('a module whose entry fails shows an error in its own area; the rest keeps working', async ({
  page,
}) => {
  await signIn(page, 'admin', { baseURL: BROKEN_MODULE_APP_URL });
  await page.goto(`${BROKEN_MODULE_APP_URL}/dentists`);
  await expect(page.getByText('The Dentists module could not be loaded')).toBeVisible();
  const retry = page.getByRole('button', { name: 'Retry' });
  await expect(retry).toBeVisible();
  await retry.click();
  await expect(page.getByText('The Dentists module could not be loaded')).toBeVisible();

  await expect(sidebar(page).getByRole('menuitem', { name: 'Dentists' })).toBeVisible();
  await sidebar(page).getByRole('menuitem', { name: 'Patients' }).click();
  await expectScreen(page, 'Patients');
  await signOut(page);
});

test('a module whose entry fails once on the way loads its screen all the same, with no click', async ({
  page,
}) => {
  // The first request for the Patients module's entry is lost (to the idle preload after sign-in, or
  // to the visit); the federation runtime asks again.
  let lost = 0;
  await page.route('**/modules/patients/**', async (route) => {
    const url = route.request().url();
    if (lost === 0 && /mf-manifest\.json|remoteEntry\.js/.test(url)) {
      lost += 1;
      await route.abort('connectionreset');
      return;
    }
    await route.continue();
  });
  await signIn(page, 'admin');
  await sidebar(page).getByRole('menuitem', { name: 'Patients' }).click();
  await expectScreen(page, 'Patients');
  expect(lost).toBe(1);
  await expect(page.getByText('The Patients module could not be loaded')).toHaveCount(0);
});

test('after sign-in the modules load while the browser is idle, so a first visit needs none of their files', async ({
  page,
}) => {
  await signIn(page, 'admin');
  // One module after another, each with its first screen: the last to come is the Administration's.
  const loaded = () =>
    page.evaluate(() => [
      ...new Set(
        performance
          .getEntriesByType('resource')
          .map((entry) => new URL(entry.name).pathname.match(/^\/modules\/([^/]+)\//)?.[1])
          .filter((id) => id !== undefined),
      ),
    ]);
  await expect
    .poll(loaded)
    .toEqual(expect.arrayContaining(['appointments', 'patients', 'dentists', 'admin']));
  // From here no module file can be fetched: the screens draw from what the idle moments loaded.
  const fetched: string[] = [];
  await page.route('**/modules/**', async (route) => {
    fetched.push(route.request().url());
    await route.abort();
  });
  for (const screen of ['Appointments', 'Patients', 'Dentists']) {
    await sidebar(page).getByRole('menuitem', { name: screen }).click();
    await expectScreen(page, screen);
  }
  await expect(page.getByText(/module could not be loaded/)).toHaveCount(0);
  expect(fetched).toEqual([]);
});

test('when the list of modules cannot be read, their pages say so and Retry brings them back', async ({
  page,
}) => {
  await signIn(page, 'receptionist');
  await page.route('**/api/modules', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: '{"message":"Service unavailable"}',
    }),
  );
  await page.goto('/patients');
  await expect(page.getByText('The areas of the app could not be loaded')).toBeVisible();
  await expect(page.getByText('Page not found')).toHaveCount(0);
  await expect(page.getByText('Some areas could not be loaded.')).toBeVisible();

  await page.unroute('**/api/modules');
  await page.getByRole('button', { name: 'Retry' }).first().click();
  await expectScreen(page, 'Patients');
  await expect(sidebar(page).getByRole('menuitem', { name: 'Calendar' })).toBeVisible();
  await signOut(page);
});

test('an admin switches a module off for their clinic only', async ({ page, browser }) => {
  await signIn(page, 'admin');
  await page.getByRole('menuitem', { name: 'Modules' }).click();
  const patientsSwitch = page.getByRole('switch', { name: 'Patients enabled' });
  await expect(patientsSwitch).toBeChecked();
  await patientsSwitch.click();
  await expect(patientsSwitch).not.toBeChecked();
  await expect(sidebar(page).getByRole('menuitem', { name: 'Patients' })).toHaveCount(0);
  await page.goto('/patients');
  await expect(page.getByText('Page not found')).toBeVisible();

  // Another clinic is not affected.
  const other = await browser.newContext();
  const harbor = await other.newPage();
  await signIn(harbor, 'harborAdmin');
  await expect(sidebar(harbor).getByRole('menuitem', { name: 'Patients' })).toBeVisible();
  await other.close();

  // Switch it back on.
  await page.getByRole('menuitem', { name: 'Modules' }).click();
  await page.getByRole('switch', { name: 'Patients enabled' }).click();
  await expect(page.getByRole('switch', { name: 'Patients enabled' })).toBeChecked();
  await expect(sidebar(page).getByRole('menuitem', { name: 'Patients' })).toBeVisible();
});
