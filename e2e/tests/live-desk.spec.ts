import type { Browser } from '@playwright/test';
import { expect, type Page, test } from './fixtures';
import { type AccountName, bookByApi, dayList, expectScreen, signInByApi, weekdayFromToday } from './helpers';

/**
 * Many desks at once: every open screen of a clinic follows what the other desks change, through
 * the shell's one stream of the clinic's changes, without a reload; another clinic's screens hear
 * nothing of it.
 */

const stamp = () => Date.now().toString(36);

/** A browser of its own (a desk), signed in as this account; answers its first page and token. */
async function desk(browser: Browser, baseURL: string | undefined, account: AccountName) {
  const context = await browser.newContext({ baseURL, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const token = await signInByApi(page, account);
  return { context, page, token };
}

/** Opens a screen in another tab of the desk's browser (the same session). */
async function tab(page: Page, path: string, heading: string): Promise<Page> {
  const opened = await page.context().newPage();
  await opened.goto(path);
  await expectScreen(opened, heading);
  return opened;
}

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });
const announcer = (page: Page) => page.getByTestId('live-desk-announcer');

test("a booking at the front desk shows on another desk's list, calendar and dashboard at once, and not at another clinic", async ({
  browser,
  baseURL,
  journey,
}) => {
  test.setTimeout(90_000);
  const patient = `Lena Live${stamp()}`;
  // A Monday of the journey's own dentist.
  const dentist = await journey.dentist({ first: 'Liv' });
  const date = weekdayFromToday(46, 1);

  const front = await desk(browser, baseURL, 'receptionist');
  const office = await desk(browser, baseURL, 'admin');
  const harbor = await desk(browser, baseURL, 'harborAdmin');

  // The admin's desk has the list searched for the patient, the day in the calendar and the dashboard open.
  await office.page.goto(`/appointments?search=${encodeURIComponent(patient)}`);
  await expectScreen(office.page, 'Appointments');
  await expect(office.page.getByText('No appointments match these filters')).toBeVisible();
  const calendar = await tab(office.page, `/calendar?day=${date}`, 'Calendar');
  await expect(calendar.getByRole('button', { name: /^Book on / })).toBeVisible();
  const dashboard = await tab(office.page, '/', 'Dashboard');
  const activity = dashboard.getByRole('list', { name: 'Recent activity' });
  await expect(activity).toBeVisible();

  // Harbor Dental's admin has the same search open.
  await harbor.page.goto(`/appointments?search=${encodeURIComponent(patient)}`);
  await expectScreen(harbor.page, 'Appointments');
  await expect(harbor.page.getByText('No appointments match these filters')).toBeVisible();

  // The front desk books it.
  await bookByApi(front.page, front.token, {
    patient,
    phone: '555-0177',
    dentist: dentist.name,
    date,
    time: '11:00',
    treatment: 'Dental Checkup',
  });

  // Every screen of the admin's shows it, none reloaded.
  const row = office.page.getByRole('row').filter({ hasText: patient });
  await expect(row).toBeVisible();
  await expect(row).toContainText(dentist.name);
  await expect(office.page.getByText('No appointments match these filters')).toBeHidden();
  await expect(dayList(calendar).getByRole('listitem').filter({ hasText: patient })).toContainText('11:00');
  await expect(activity.getByRole('listitem').filter({ hasText: patient })).toBeVisible();
  // A screen reader at that desk hears it, in words.
  await expect(announcer(office.page)).toHaveText(
    /An appointment was added at another desk\.|changes at other desks\./,
  );

  // Harbor Dental saw nothing: its list is as it was, its bell and live region say nothing of it.
  await expect(harbor.page.getByText('No appointments match these filters')).toBeVisible();
  await expect(harbor.page.getByRole('row').filter({ hasText: patient })).toHaveCount(0);
  await expect(announcer(harbor.page)).toHaveText('');
  await bell(harbor.page).click();
  await expect(harbor.page.getByRole('menuitem').filter({ hasText: patient })).toHaveCount(0);

  for (const opened of [front, office, harbor]) await opened.context.close();
});

test("the bell's count of new records agrees in every browser of the same user", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const patient = `Noor Live${stamp()}`;
  const first = await desk(browser, baseURL, 'receptionist');
  const second = await desk(browser, baseURL, 'receptionist');
  const admin = await desk(browser, baseURL, 'admin');
  for (const opened of [first, second]) {
    await opened.page.goto('/');
    await expectScreen(opened.page, 'Dashboard');
    await expect(bell(opened.page)).toBeVisible();
  }

  // Opened in one browser: everything is seen, in both.
  await bell(first.page).click();
  await expect(first.page.getByRole('menuitem').first()).toBeVisible();
  await first.page.keyboard.press('Escape');
  await expect(bell(first.page)).toHaveAccessibleName('Notifications');
  await expect(bell(second.page)).toHaveAccessibleName('Notifications');

  // Another desk adds a patient: one new record, in both.
  const created = await admin.page.request.post('/api/patients', {
    headers: { authorization: `Bearer ${admin.token}` },
    data: {
      name: patient,
      email: `noor.${stamp()}@example.com`,
      phone: '555-0178',
      dateOfBirth: '1990-04-05',
    },
  });
  expect(created.status()).toBe(201);
  await expect(bell(first.page)).toHaveAccessibleName('Notifications, 1 new');
  await expect(bell(second.page)).toHaveAccessibleName('Notifications, 1 new');

  // Seen in the second browser: the first one's badge goes too.
  await bell(second.page).click();
  await expect(second.page.getByRole('menuitem').filter({ hasText: patient })).toBeVisible();
  await expect(bell(first.page)).toHaveAccessibleName('Notifications');
  await second.page.keyboard.press('Escape');
  await expect(bell(second.page)).toHaveAccessibleName('Notifications');

  for (const opened of [first, second, admin]) await opened.context.close();
});

test("one account signed in at two desks: each desk's screen reader hears the other's changes, never its own", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  // The other clinic: no other journey writes there, so what is read out is this journey's alone.
  const front = await desk(browser, baseURL, 'harborAdmin');
  const back = await desk(browser, baseURL, 'harborAdmin');
  const name = `Dora Desk${stamp()}`;
  const created = await back.page.request.post('/api/patients', {
    headers: { authorization: `Bearer ${back.token}` },
    data: { name, phone: '555-0163', email: `dora.${stamp()}@mail.example`, dateOfBirth: '1984-06-02' },
  });
  expect(created.status()).toBe(201);

  await front.page.goto('/patients');
  await expectScreen(front.page, 'Patients');
  await back.page.goto(`/patients?search=${encodeURIComponent(name)}`);
  await expectScreen(back.page, 'Patients');
  await back.page.getByRole('button', { name: `Delete ${name}` }).click();
  await back.page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(back.page.getByText(`${name} was deleted`)).toBeVisible();

  await expect(announcer(front.page)).toHaveText(/^A patient was deleted at another desk\.\s*$/);
  await expect(front.page.getByRole('row').filter({ hasText: name })).toHaveCount(0);
  await expect(announcer(back.page)).toHaveText('');
  for (const opened of [front, back]) await opened.context.close();
});
