import { expect, type Page, test } from './fixtures';
import { bookByApi, choose, expectScreen, signInByApi, workdayFromToday } from './helpers';

/**
 * The admin's Dentists screen against the real server: a dentist is added (after bad input is
 * refused), edited, set inactive (then not offered for new bookings) and deleted; a dentist with
 * appointments is not deleted, and the server says why.
 */
const unique = (first: string) => `Dr. ${first} Molar${Date.now().toString(36)}`;
const card = (page: Page, name: string) => page.locator('.dentist-card').filter({ hasText: name });

test('an admin adds a dentist, edits them, sets them inactive and deletes them', async ({ page }) => {
  const name = unique('Ana');
  await signInByApi(page, 'admin');
  await page.goto('/dentists');
  await expectScreen(page, 'Dentists');
  await expect(card(page, 'Dr. Sarah Johnson')).toBeVisible();

  // Bad input is refused beside its field and nothing is sent.
  await page.getByRole('button', { name: 'Add New Dentist' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New Dentist' });
  await dialog.getByLabel('Email').fill('not-an-email');
  await dialog.getByRole('button', { name: 'Add Dentist' }).click();
  await expect(dialog.getByText('Enter a valid e-mail address')).toBeVisible();
  await expect(dialog.getByText('This field is required')).toHaveCount(4);

  await dialog.getByLabel('Full Name').fill(name);
  await dialog.getByLabel('Email').fill(`ana.${Date.now().toString(36)}@clinic.example`);
  await dialog.getByLabel('Phone').fill('555-0166');
  await choose(page, dialog.getByRole('combobox', { name: 'Specialization' }), 'Periodontics');
  await dialog.getByLabel('License Number').fill(`DDS-${Date.now().toString(36)}`);
  await dialog.getByLabel('Experience (years)').fill('7');
  await dialog.getByRole('checkbox', { name: 'Saturday' }).check();
  await dialog.getByRole('button', { name: 'Add Dentist' }).click();
  await expect(page.getByText(`${name} was added`)).toBeVisible();
  await expect(card(page, name)).toContainText('Experience: 7 years');
  await expect(card(page, name)).toContainText('6 days/week');
  await expect(card(page, name)).toContainText('Mon-Fri 09:00-17:00 · Sat 09:00-13:00');

  // Filters go into the URL, and a reload shows the same view.
  await choose(page, page.getByRole('combobox', { name: 'Specialization' }), 'Periodontics');
  await expect(page).toHaveURL(/specialty=Periodontics/);
  await page.reload();
  await expect(card(page, name)).toBeVisible();
  await expect(card(page, 'Dr. Sarah Johnson')).toHaveCount(0);

  // Edit: fewer days, and inactive.
  await card(page, name)
    .getByRole('button', { name: `Edit ${name}` })
    .click();
  const edit = page.getByRole('dialog', { name: 'Edit Dentist' });
  await expect(edit.getByLabel('Full Name')).toHaveValue(name);
  await edit.getByRole('checkbox', { name: 'Saturday' }).uncheck();
  await edit.getByRole('checkbox', { name: 'Friday' }).uncheck();
  await choose(page, edit.getByRole('combobox', { name: 'Status' }), 'inactive');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText(`${name} was saved`)).toBeVisible();
  await expect(card(page, name)).toContainText('4 days/week');
  await expect(card(page, name)).toContainText('inactive');

  // An inactive dentist is not offered for a new booking.
  await page.goto('/appointments?new=1');
  const booking = page.getByRole('dialog', { name: 'New Appointment' });
  await booking.getByRole('combobox', { name: 'Dentist' }).click();
  const options = page.locator(
    '.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option',
  );
  await expect(options.filter({ hasText: 'Dr. Sarah Johnson' })).toBeVisible();
  await expect(options.filter({ hasText: name })).toHaveCount(0);
  await page.keyboard.press('Escape');

  // A dentist with no appointments is deleted after a confirmation.
  await page.goto(`/dentists?search=${encodeURIComponent(name)}`);
  await card(page, name)
    .getByRole('button', { name: `Delete ${name}` })
    .click();
  await expect(page.getByText(`Are you sure you want to delete ${name}?`)).toBeVisible();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByText(`${name} was deleted`)).toBeVisible();
  await expect(card(page, name)).toHaveCount(0);
  await expect(page.getByText('No dentists match your search')).toBeVisible();
});

test('a dentist with appointments to come is not deleted: the server says why', async ({ page, journey }) => {
  // The journey's own dentist with a visit of their own to come.
  const dentist = await journey.dentist({ first: 'Kept' });
  const token = await signInByApi(page, 'admin');
  await bookByApi(page, token, {
    patient: journey.name('Tom', 'Kept'),
    phone: '555-0168',
    dentist: dentist.name,
    date: workdayFromToday(7, dentist.workingDays),
    time: '10:00',
    treatment: 'Dental Checkup',
  });
  await page.goto(`/dentists?search=${encodeURIComponent(dentist.name)}`);
  await card(page, dentist.name)
    .getByRole('button', { name: `Delete ${dentist.name}` })
    .click();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText(/appointments? to come and cannot be deleted/);
  await expect(card(page, dentist.name)).toBeVisible();
});
