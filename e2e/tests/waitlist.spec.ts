import { expect, test } from './fixtures';
import {
  bookByApi,
  choose,
  dayList,
  escapeRegExp,
  expectScreen,
  moveTo,
  openOptions,
  signInByApi,
  workdayFromToday,
} from './helpers';

/**
 * Keep the chairs full: a receptionist puts a patient on the waitlist for a dentist's afternoons (the
 * journey's own dentist and patients), then cancels another patient's afternoon visit; "Fill this time" offers the freed time
 * to the waitlisted patient, one click books it for them, and they leave the waitlist.
 */
test('a receptionist cancels a visit and fills its time from the waitlist', async ({ page, journey }) => {
  test.setTimeout(90_000);
  const dentist = await journey.dentist({ first: 'Wren' });
  const { name: waiting } = await journey.patient('Wendy', 'Waitlist', { phone: '555-0170' });
  const cancelling = journey.name('Carl', 'Cancels');
  const token = await signInByApi(page, 'receptionist');
  const bearer = { authorization: `Bearer ${token}` };
  const day = workdayFromToday(75, dentist.workingDays);
  await bookByApi(page, token, {
    patient: cancelling,
    phone: '555-0171',
    dentist: dentist.name,
    date: day,
    time: '15:00',
    treatment: 'Regular Cleaning',
  });

  // The waitlist: Wendy wants a cleaning with the dentist, any weekday afternoon from today on.
  await page.goto('/waitlist');
  await expectScreen(page, 'Waitlist');
  await page.getByRole('button', { name: 'Add to Waitlist' }).click();
  const entryForm = page.getByRole('dialog', { name: 'Add to Waitlist' });
  await entryForm.getByRole('combobox', { name: 'Patient' }).fill(waiting);
  await openOptions(page).filter({ hasText: waiting }).click();
  await choose(page, entryForm.getByRole('combobox', { name: 'Treatment' }), 'Regular Cleaning');
  await choose(page, entryForm.getByRole('combobox', { name: 'Dentist' }), dentist.name);
  await choose(page, entryForm.getByRole('combobox', { name: 'Part of day' }), 'Afternoon (12:00–17:00)');
  await entryForm.getByLabel('Latest date').fill(workdayFromToday(120, dentist.workingDays));
  await entryForm.getByRole('button', { name: 'Add to Waitlist' }).click();
  await expect(entryForm).toBeHidden();
  const entryRow = page.getByRole('row').filter({ hasText: waiting });
  await expect(entryRow).toContainText(`Regular Cleaning (60 min), ${dentist.name}`);
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
  await expect(
    form.getByText(new RegExp(`start times? free for ${escapeRegExp(dentist.name)}`)),
  ).toBeVisible();
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

/**
 * The calendar too: a visit moved from the day's list leaves its hour free; "Fill this time" there
 * tells the waitlisted patient by e-mail and books the hour for them, and the form comes back to the
 * calendar.
 */
test('a visit moved on the calendar offers its freed time to the waitlist', async ({ page, journey }) => {
  test.setTimeout(90_000);
  const dentist = await journey.dentist({ first: 'Mo' });
  const { id: patientId, name: waiting } = await journey.patient('Walt', 'Waitlist', { phone: '555-0172' });
  const moving = journey.name('Mona', 'Moves');
  const token = await signInByApi(page, 'receptionist');
  const bearer = { authorization: `Bearer ${token}` };
  const day = workdayFromToday(82, dentist.workingDays);
  await bookByApi(page, token, {
    patient: moving,
    phone: '555-0173',
    dentist: dentist.name,
    date: day,
    time: '15:00',
    treatment: 'Regular Cleaning',
  });
  const entry = await page.request.post('/api/waitlist', {
    headers: bearer,
    data: {
      patient_id: patientId,
      treatment: 'Regular Cleaning',
      dentist_id: null,
      weekdays: [1, 2, 3, 4, 5],
      part_of_day: 'afternoon',
      earliest_on: day,
      latest_on: day,
    },
  });
  expect(entry.status()).toBe(201);

  // Mona's visit moves an hour later: her 15:00 hour is free.
  await page.goto(`/calendar?day=${day}`);
  await expectScreen(page, 'Calendar');
  await moveTo(page, dayList(page).getByRole('listitem').filter({ hasText: moving }), day, '16:00');
  await expect(page.getByText(new RegExp(`The appointment of ${moving} is now on`))).toBeVisible();
  await expect(
    page.getByText(new RegExp(`^Fill this time: .* 15:00–16:00 with ${escapeRegExp(dentist.name)}$`)),
  ).toBeVisible();
  const fill = page.getByRole('list', { name: 'Waitlisted patients for this time' });
  await expect(fill).toContainText(waiting);

  // Told by e-mail (the demo clinic's SMS reminders are off), then booked.
  await fill.getByRole('button', { name: `Tell them: ${waiting}, 15:00` }).click();
  await expect(fill.getByRole('listitem').filter({ hasText: waiting })).toContainText('Told by e-mail');
  await fill.getByRole('button', { name: `Book ${waiting} at 15:00` }).click();
  const form = page.getByRole('dialog', { name: 'New Appointment' });
  await expect(form.getByLabel('Patient Name')).toHaveValue(waiting);
  await form.getByRole('button', { name: 'Book Appointment' }).click();

  // Back on the calendar's day: Walt has the hour, and it is no longer offered.
  await expect(page).toHaveURL(new RegExp(`/calendar\\?.*day=${day}`));
  await expect(dayList(page).getByRole('listitem').filter({ hasText: waiting })).toContainText('15:00');
  await expect(page.getByText(/^Fill this time:/)).toBeHidden();
  const left = await page.request.get(`/api/waitlist?search=${encodeURIComponent(waiting)}`, {
    headers: bearer,
  });
  expect(((await left.json()) as { total: number }).total).toBe(0);
});
