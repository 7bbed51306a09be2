import { expect, test } from './fixtures';
import {
  bookByApi,
  choose,
  expectScreen,
  openOptions,
  signInByApi,
  WORKDAYS,
  workdayFromToday,
} from './helpers';

/**
 * Keep the chairs full: a receptionist puts a patient on the waitlist for Dr. Sarah Johnson's
 * afternoons, then cancels another patient's afternoon visit; "Fill this time" offers the freed time
 * to the waitlisted patient, one click books it for them, and they leave the waitlist.
 */
test('a receptionist cancels a visit and fills its time from the waitlist', async ({ page }) => {
  test.setTimeout(90_000);
  const token = await signInByApi(page, 'receptionist');
  const bearer = { authorization: `Bearer ${token}` };
  const tag = Date.now().toString(36);
  const waiting = `Wendy Waitlist ${tag}`;
  const cancelling = `Carl Cancels ${tag}`;
  const created = await page.request.post('/api/patients', {
    headers: bearer,
    data: { name: waiting, phone: '555-0170', email: `wendy.${tag}@mail.example`, dateOfBirth: '1988-05-04' },
  });
  expect(created.status()).toBe(201);
  // A day far enough ahead that the demo clinic has nothing booked then.
  const day = workdayFromToday(75, WORKDAYS['Dr. Sarah Johnson']);
  await bookByApi(page, token, {
    patient: cancelling,
    phone: '555-0171',
    dentist: 'Dr. Sarah Johnson',
    date: day,
    time: '15:00',
    treatment: 'Regular Cleaning',
  });

  // The waitlist: Wendy wants a cleaning with Dr. Johnson, any weekday afternoon from today on.
  await page.goto('/waitlist');
  await expectScreen(page, 'Waitlist');
  await page.getByRole('button', { name: 'Add to Waitlist' }).click();
  const entryForm = page.getByRole('dialog', { name: 'Add to Waitlist' });
  await entryForm.getByRole('combobox', { name: 'Patient' }).fill(waiting);
  await openOptions(page).filter({ hasText: waiting }).click();
  await choose(page, entryForm.getByRole('combobox', { name: 'Treatment' }), 'Regular Cleaning');
  await choose(page, entryForm.getByRole('combobox', { name: 'Dentist' }), 'Dr. Sarah Johnson');
  await choose(page, entryForm.getByRole('combobox', { name: 'Part of day' }), 'Afternoon (12:00–17:00)');
  await entryForm.getByLabel('Latest date').fill(workdayFromToday(120, WORKDAYS['Dr. Sarah Johnson']));
  await entryForm.getByRole('button', { name: 'Add to Waitlist' }).click();
  await expect(entryForm).toBeHidden();
  const entryRow = page.getByRole('row').filter({ hasText: waiting });
  await expect(entryRow).toContainText('Regular Cleaning (60 min), Dr. Sarah Johnson');
  // Its earliest free times now, each bookable.
  await expect(
    entryRow.getByRole('link', { name: new RegExp(`^Book ${waiting} on `) }).first(),
  ).toBeVisible();

  // Carl cancels: the Appointments screen offers his freed hour to the waitlist.
  await page.goto(`/appointments?search=${encodeURIComponent(cancelling)}&dates=all`);
  await expectScreen(page, 'Appointments');
  await page.getByRole('button', { name: `Cancel appointment of ${cancelling}` }).click();
  await expect(page.getByText(`The appointment of ${cancelling} is cancelled`)).toBeVisible();
  const fill = page.getByRole('list', { name: 'Waitlisted patients for this time' });
  await expect(fill).toContainText(waiting);
  await fill.getByRole('button', { name: `Book ${waiting} at 15:00` }).click();

  const form = page.getByRole('dialog', { name: 'New Appointment' });
  await expect(form.getByLabel('Patient Name')).toHaveValue(waiting);
  await expect(form.getByLabel('Duration')).toHaveValue('60');
  await expect(form.getByText(/start times? free for Dr\. Sarah Johnson/)).toBeVisible();
  await form.getByRole('button', { name: 'Book Appointment' }).click();
  await expect(form).toBeHidden();
  await expect(
    page.getByText(new RegExp(`^Appointment booked for ${waiting} on .* at 15:00–16:00$`)),
  ).toBeVisible();
  await expect(page.getByText(/^Fill this time:/)).toBeHidden();

  // Booked, Wendy has left the waitlist.
  await page.goto(`/waitlist?search=${encodeURIComponent(waiting)}`);
  await expectScreen(page, 'Waitlist');
  await expect(page.getByText('No waitlist entries match these filters')).toBeVisible();
  const visits = await page.request.get(`/api/appointments?search=${encodeURIComponent(waiting)}`, {
    headers: bearer,
  });
  const booked = ((await visits.json()) as { data: Array<{ date: string; time: string; patient: string }> })
    .data;
  expect(booked).toEqual([expect.objectContaining({ date: day, time: '15:00', patient: waiting })]);
});
