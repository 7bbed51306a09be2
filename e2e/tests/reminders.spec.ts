import { MAIL_SINK_URL } from '../playwright.config';
import { expect, type Page, test } from './fixtures';
import { choose, chooseFreeTime, dayFromToday, expectScreen, signIn } from './helpers';

/**
 * Reminders against the real server and a local mail server: an admin switches the notification
 * flags on, books a visit for tomorrow, and sees its reminder in the outbox as sent, and the mail
 * server has it. SMS has no gateway configured here, so its reminder is kept as skipped, saying why.
 */
interface ReceivedMail {
  to: string[];
  raw: string;
}

async function mailsTo(page: Page, address: string): Promise<ReceivedMail[]> {
  const response = await page.request.get(`${MAIL_SINK_URL}/messages`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as ReceivedMail[]).filter((mail) => mail.to.includes(address));
}

/**
 * A mail as sent: its lines reach the mail server quoted-printable, long ones folded and bytes past
 * ASCII (the en dash of `09:00–09:30`) written `=E2=80=93`; unfolded and decoded, they read as sent.
 */
function quotedPrintable(raw: string): string {
  const unfolded = raw.replace(/=\r?\n/g, '');
  const bytes = unfolded.replace(/=([0-9A-F]{2})/g, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** When a 30-minute visit starting at `HH:mm` ends. */
function endOfCheckup(time: string): string {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  const end = hours * 60 + minutes + 30;
  return `${String(Math.floor(end / 60)).padStart(2, '0')}:${String(end % 60).padStart(2, '0')}`;
}

const outboxRow = (page: Page, kind: string, recipient: string) =>
  page.getByRole('row').filter({ hasText: kind }).filter({ hasText: recipient });

test('an admin turns the reminders on, books a visit for tomorrow and sees its reminder sent', async ({
  page,
  journey,
}) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const name = `Nora Remind${stamp}`;
  const email = `nora.${stamp}@patients.example`;
  await signIn(page, 'admin');

  // Every flag on, reminders two days ahead: tomorrow's visit is due for its reminder at once.
  await page.goto('/settings?tab=notifications');
  await expectScreen(page, 'Settings');
  for (const flag of [
    'Email reminders',
    'SMS reminders',
    'Appointment confirmations',
    'New patient alerts',
  ]) {
    const toggle = page.getByRole('switch', { name: flag });
    if ((await toggle.getAttribute('aria-checked')) !== 'true') await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
  }
  const lead = page.getByLabel('Send reminders this many hours before the visit');
  await lead.fill('48');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByText('Settings saved successfully!')).toBeVisible();

  // A new patient with an e-mail address, then a visit tomorrow from their file.
  await page.goto('/patients');
  await page.getByRole('button', { name: 'Add New Patient' }).click();
  const add = page.getByRole('dialog', { name: 'Add New Patient' });
  await add.getByLabel('Full Name').fill(name);
  await add.getByLabel('Email').fill(email);
  await add.getByLabel('Phone').fill('555-0164');
  await add.getByLabel('Date of Birth').fill('1985-06-07');
  await add.getByRole('button', { name: 'Add Patient' }).click();
  await expect(page.getByText(`${name} was added`)).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search patients' }).fill(name);
  await page.getByRole('link', { name }).click();
  await page.getByRole('dialog', { name }).getByRole('button', { name: 'Book appointment' }).click();
  const form = page.getByRole('dialog', { name: 'New Appointment' });
  await expect(form.getByLabel('Patient Name')).toHaveValue(name);
  // The journey's own dentist, who works every day: tomorrow is free, whatever today is.
  const { name: dentist } = await journey.dentist({ first: 'Rory', workingDays: [0, 1, 2, 3, 4, 5, 6] });
  const tomorrow = dayFromToday(1);
  await choose(page, form.getByRole('combobox', { name: 'Dentist' }), dentist);
  await form.getByLabel('Date').fill(tomorrow);
  await choose(page, form.getByRole('combobox', { name: 'Treatment' }), 'Dental Checkup');
  const time = await chooseFreeTime(page, form);
  await form.getByRole('button', { name: 'Book Appointment' }).click();
  await expect(page.getByText(new RegExp(`Appointment booked for ${name}`))).toBeVisible();

  // The outbox shows the reminder sent (the sender looks every second; the table is read again on a
  // reload), and the SMS reminder kept as skipped with its reason.
  await page.goto('/settings?tab=notifications');
  await expect(async () => {
    await page.reload();
    // The row's State cell (When, Message, To, State...).
    await expect(outboxRow(page, 'E-mail reminder', email).getByRole('cell').nth(3)).toHaveText(/^sent/, {
      timeout: 2_000,
    });
  }).toPass({ timeout: 30_000 });
  await expect(outboxRow(page, 'SMS reminder', '555-0164')).toContainText('no SMS transport configured');

  // The local mail server has the reminder: plain words, the visit's time, nothing medical.
  const [mail] = await mailsTo(page, email);
  const text = mail ? quotedPrintable(mail.raw) : '';
  expect(text).toMatch(/Subject: Reminder: your visit to Bright Smile Dental/);
  expect(text).toContain('Hello Nora,');
  // The visit's time from start to end: a Dental Checkup lasts 30 minutes.
  expect(text).toContain(`at ${time}–${endOfCheckup(time)} with ${dentist}`);
  expect(text).not.toContain('Dental Checkup');
});
