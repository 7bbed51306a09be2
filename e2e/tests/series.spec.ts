import { expect, test } from './fixtures';
import { bookByApi, choose, chooseTime, daysAfter, signInByApi, weekdayFromToday } from './helpers';

/**
 * Recurring visits, against the real server. A receptionist books a weekly series of six for the
 * journey's own dentist on Mondays 120 days out and more: the third Monday is taken at the
 * chosen time by another patient, so the check lists it with the nearest free time, the receptionist
 * moves it there, and all six are booked at once. Then they cancel the last three with "This and the
 * following", and the list shows the first three still booked.
 */
test('a weekly series of six with one clash moved, then the last three cancelled', async ({
  page,
  journey,
}) => {
  test.setTimeout(120_000);
  const { name: dentist } = await journey.dentist({ first: 'Seth' });
  const patient = journey.name('Sasha', 'Series');
  const first = weekdayFromToday(120, 1);
  const third = daysAfter(first, 14);
  const token = await signInByApi(page, 'receptionist');
  await bookByApi(page, token, {
    patient: journey.name('Robin', 'Inway'),
    phone: '555-0177',
    dentist,
    date: third,
    time: '11:00',
    treatment: 'Dental Checkup',
  });

  await page.goto('/appointments');
  await page.getByRole('button', { name: 'New Appointment', exact: true }).click();
  const form = page.getByRole('dialog', { name: 'New Appointment' });
  await form.getByLabel('Patient Name').fill(patient);
  await form.getByLabel('Patient Name').press('Tab');
  await form.getByLabel('Phone').fill('555-0178');
  await choose(page, form.getByRole('combobox', { name: 'Dentist' }), dentist);
  await form.getByLabel('Date').fill(first);
  await choose(page, form.getByRole('combobox', { name: 'Treatment' }), 'Dental Checkup');
  await chooseTime(page, form, '11:00');
  await choose(page, form.getByRole('combobox', { name: 'Repeat' }), 'Every N weeks');
  await expect(form.getByLabel('Visits in all')).toHaveValue('6');

  // Save first checks every visit of the series: the third Monday is taken at 11:00.
  await form.getByRole('button', { name: 'Check dates' }).click();
  const visits = form.getByRole('region', { name: 'Visits of the series' });
  await expect(visits.getByRole('listitem')).toHaveCount(6);
  await expect(visits.getByText('Free')).toHaveCount(5);
  const clash = visits.getByRole('listitem').nth(2);
  await expect(clash.getByText('Cannot be booked')).toBeVisible();
  await expect(clash.getByText(/already has an appointment/)).toBeVisible();
  const move = clash.getByRole('button', { name: /^Move to \d\d:\d\d$/ });
  const movedTo = ((await move.textContent()) ?? '').replace('Move to ', '');
  await move.click();
  await expect(clash.getByText(new RegExp(`^Moved to .* at ${movedTo}$`))).toBeVisible();

  // The final Save books all six at once.
  await form.getByRole('button', { name: 'Book 6 visits' }).click();
  await expect(page.getByText(new RegExp(`^6 visits booked for ${patient}`))).toBeVisible();
  await expect(form).toBeHidden();

  await page.goto(`/appointments?search=${encodeURIComponent(patient)}`);
  const rows = page.getByRole('row').filter({ hasText: patient });
  await expect(rows).toHaveCount(6);
  for (const position of [1, 2, 3, 4, 5, 6]) {
    await expect(rows.nth(position - 1).getByText(`Series ${position} of 6`)).toBeVisible();
  }
  await expect(rows.nth(2)).toContainText(`${movedTo}–`);

  // Cancelling the fourth asks which visits: this and the following cancels the last three.
  await rows
    .nth(3)
    .getByRole('button', { name: `Cancel appointment of ${patient}` })
    .click();
  const question = page.getByRole('dialog', { name: 'Cancel a visit of a series' });
  await expect(question.getByText('This visit is series 4 of 6.', { exact: false })).toBeVisible();
  await question.getByLabel('This and the following visits').check();
  await question.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page.getByText(`This and the following visits of ${patient} are cancelled`)).toBeVisible();

  const statuses = rows.locator('.ant-tag').filter({ hasText: /^(pending|cancelled)$/ });
  await expect(statuses).toHaveText(['pending', 'pending', 'pending', 'cancelled', 'cancelled', 'cancelled']);
});
