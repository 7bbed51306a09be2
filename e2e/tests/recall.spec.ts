import { expect, test } from './fixtures';
import {
  choose,
  chooseFreeTime,
  dayFromToday,
  expectScreen,
  selectionOf,
  signInByApi,
  weekdayFromToday,
} from './helpers';

interface RecallRow {
  patient_id: number;
  patient_name: string;
  email: string;
  type_id: number;
  type_name: string;
  scheduled_on: string | null;
  active: boolean;
  version: number;
}

/**
 * Keep the chairs full: the recall list as the front desk works it. Two of the demo clinic's patients
 * who had a cleaning are made due in a few days (set by hand through the API, as a desk may): a recall
 * comes of a completed visit in the past, which a journey cannot book, and no other journey changes a
 * recall. The receptionist books one of them (with the journey's own dentist) from the list and sends the other a reminder, which then waits in
 * the clinic's outbox.
 */
test('a receptionist works the recall list: books one patient, reminds another, and the reminder is in the outbox', async ({
  page,
  browser,
  baseURL,
  journey,
}) => {
  test.setTimeout(90_000);
  const dentist = await journey.dentist({ first: 'Ray' });
  const token = await signInByApi(page, 'receptionist');
  const bearer = { authorization: `Bearer ${token}` };
  const listed = await page.request.get('/api/recall?due_by=2099-12-31&scheduled=no&limit=100', {
    headers: bearer,
  });
  expect(listed.status()).toBe(200);
  const candidates = ((await listed.json()) as { data: RecallRow[] }).data.filter(
    (row) => row.type_name === 'Hygiene recall' && row.email !== '',
  );
  const [toBook, toRemind] = candidates;
  if (!toBook || !toRemind) throw new Error('The demo clinic has no two hygiene recalls to work');
  for (const [row, days] of [
    [toBook, 5],
    [toRemind, 6],
  ] as const) {
    const due = await page.request.patch(`/api/recall/${row.patient_id}/${row.type_id}`, {
      headers: { ...bearer, 'if-match': `"${row.version}"` },
      data: { due_date: dayFromToday(days) },
    });
    expect(due.status()).toBe(200);
  }

  await page.goto('/recall');
  await expectScreen(page, 'Recall');
  const records = page.getByRole('table');
  const rowOf = (name: string) => records.getByRole('row').filter({ hasText: name });
  await expect(rowOf(toBook.patient_name)).toContainText('Hygiene recall');
  await expect(rowOf(toRemind.patient_name)).toContainText('Hygiene recall');

  // Book: the appointment form opens with the patient and the recall's treatment (and its length).
  await page.getByRole('button', { name: `Book: ${toBook.patient_name}, Hygiene recall` }).click();
  const form = page.getByRole('dialog', { name: 'New Appointment' });
  await expect(form.getByLabel('Patient Name')).toHaveValue(toBook.patient_name);
  await expect(selectionOf(form.getByRole('combobox', { name: 'Treatment' }))).toHaveAttribute(
    'title',
    'Regular Cleaning',
  );
  await expect(form.getByLabel('Duration')).toHaveValue('60');
  const day = weekdayFromToday(60, 1);
  await choose(page, form.getByRole('combobox', { name: 'Dentist' }), dentist.name);
  await form.getByLabel('Date').fill(day);
  await chooseFreeTime(page, form);
  await form.getByRole('button', { name: 'Book Appointment' }).click();
  await expect(form).toBeHidden();
  // Back on the recall list, the patient's recall is scheduled.
  await expectScreen(page, 'Recall');
  await expect(rowOf(toBook.patient_name)).toContainText(new RegExp(day.slice(0, 4)));
  await choose(page, page.getByRole('combobox', { name: 'Scheduled' }), 'Not scheduled');
  await expect(rowOf(toBook.patient_name)).toHaveCount(0);
  await expect(rowOf(toRemind.patient_name)).toBeVisible();

  // Send reminder: queued by e-mail, and the row says who was reminded.
  await page.getByRole('button', { name: `Send reminder: ${toRemind.patient_name}, Hygiene recall` }).click();
  await expect(page.getByText('Reminder queued by e-mail')).toBeVisible();
  await expect(rowOf(toRemind.patient_name)).toContainText(/reminder/i);

  // The clinic's outbox holds it.
  const admin = await browser.newContext({ baseURL, reducedMotion: 'reduce' });
  const adminPage = await admin.newPage();
  await signInByApi(adminPage, 'admin');
  await adminPage.goto('/settings?tab=notifications');
  await expectScreen(adminPage, 'Settings');
  await expect(
    adminPage.getByRole('row').filter({ hasText: toRemind.email }).filter({ hasText: 'Recall reminder' }),
  ).toBeVisible();
  await admin.close();
});
