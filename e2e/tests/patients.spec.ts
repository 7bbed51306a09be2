import { expect, type Page, test } from './fixtures';
import { bookByApi, choose, signInByApi, workdayFromToday } from './helpers';

/** A name no other journey uses, so runs never see each other's patients. */
const uniqueName = (first: string) => `${first} Quill${Date.now().toString(36)}`;

async function addPatient(page: Page, name: string, phone: string) {
  await page.getByRole('button', { name: 'Add New Patient' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New Patient' });
  await dialog.getByLabel('Full Name').fill(name);
  await dialog.getByLabel('Email').fill(`${name.split(' ')[0]?.toLowerCase()}@mail.example`);
  await dialog.getByLabel('Phone').fill(phone);
  await dialog.getByLabel('Date of Birth').fill('1988-07-14');
  await dialog.getByRole('button', { name: 'Add Patient' }).click();
  await expect(page.getByText(`${name} was added`)).toBeVisible();
}

const row = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

test('a receptionist adds a patient, finds them, edits them and deletes them', async ({ page }) => {
  const name = uniqueName('Nora');
  await signInByApi(page, 'receptionist');
  await page.goto('/patients');
  await expect(page.getByRole('heading', { name: 'Patients', level: 1 })).toBeVisible();

  // Bad input is refused beside its field and nothing is sent.
  await page.getByRole('button', { name: 'Add New Patient' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New Patient' });
  await dialog.getByLabel('Email').fill('not-an-email');
  await dialog.getByLabel('Date of Birth').fill('2999-01-01');
  await dialog.getByRole('button', { name: 'Add Patient' }).click();
  await expect(dialog.getByText('Enter a valid e-mail address')).toBeVisible();
  await expect(dialog.getByText('The date of birth cannot be in the future')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await addPatient(page, name, '555-0142');

  // Search goes into the URL; a reload shows the same view.
  await page.getByRole('searchbox', { name: 'Search patients' }).fill(name);
  await expect(page).toHaveURL(new RegExp(`search=${encodeURIComponent(name).replace(/%20/g, '(\\+|%20)')}`));
  await expect(page.getByRole('row')).toHaveCount(2);
  await expect(row(page, name)).toContainText('555-0142');
  await expect(row(page, name)).toContainText('No appointment');
  await page.reload();
  await expect(page.getByRole('searchbox', { name: 'Search patients' })).toHaveValue(name);
  await expect(row(page, name)).toBeVisible();

  // Edit: the form comes prefilled; the status is saved on the server.
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Patient' });
  await expect(edit.getByLabel('Full Name')).toHaveValue(name);
  await edit.getByLabel('Medical History').fill('Allergic to latex');
  await choose(page, edit.getByRole('combobox', { name: 'Status' }), 'inactive');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText(`${name} was saved`)).toBeVisible();
  await expect(row(page, name)).toContainText('inactive');

  // The status filter reads from the server too, and Back undoes it.
  await choose(page, page.getByRole('combobox', { name: 'Status' }), 'active');
  await expect(page).toHaveURL(/status=active/);
  await expect(row(page, name)).toHaveCount(0);
  await page.goBack();
  await expect(page).not.toHaveURL(/status=active/);
  await expect(row(page, name)).toContainText('inactive');

  // The details open by their own URL.
  await page.getByRole('button', { name: `View ${name}` }).click();
  await expect(page).toHaveURL(/patient=\d+/);
  const details = page.getByRole('dialog', { name });
  await expect(details.getByText('Allergic to latex')).toBeVisible();
  await expect(details.getByText('No appointments yet.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('dialog', { name }).getByText('Allergic to latex')).toBeVisible();
  await page.getByRole('dialog', { name }).getByRole('button', { name: 'Close' }).click();

  // Delete asks first.
  await page.getByRole('button', { name: `Delete ${name}` }).click();
  await expect(page.getByText(`Are you sure you want to delete ${name}?`)).toBeVisible();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByText(`${name} was deleted`)).toBeVisible();
  await expect(row(page, name)).toHaveCount(0);
});

test('a patient with appointments is not deleted: the server says why', async ({ page, journey }) => {
  // The journey's own patient, with a visit to come with the journey's own dentist.
  const dentist = await journey.dentist({ first: 'Pia' });
  const { name, phone } = await journey.patient('Otto', 'Quill');
  await bookByApi(page, await journey.adminToken(), {
    patient: name,
    phone,
    dentist: dentist.name,
    date: workdayFromToday(7, dentist.workingDays),
    time: '10:00',
    treatment: 'Dental Checkup',
  });
  await signInByApi(page, 'dentist');
  await page.goto(`/patients?search=${encodeURIComponent(name)}`);
  const booked = page
    .getByRole('row')
    .filter({ hasText: name })
    .filter({ hasText: /\d{4} \d{2}:\d{2}/ });
  await expect(booked).toBeVisible();
  await page.getByRole('button', { name: `Delete ${name}` }).click();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText(/appointment/i);
  await expect(row(page, name)).toBeVisible();
});
