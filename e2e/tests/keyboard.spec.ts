import { expect, type Locator, type Page, test } from './fixtures';
import { dayList, escapeRegExp, expectScreen, workdayAfter, workdayFromToday } from './helpers';

/**
 * The front desk with the keyboard alone: sign in, book a visit from the Appointments screen, move it
 * in the Calendar, edit the patient, save settings. Nothing is clicked: Tab reaches each control, and
 * Enter, Space, arrows and typing work it. An address typed in the browser's bar (page.goto) is a
 * keyboard user's way too.
 */
const unique = (first: string) => `${first} Key${Date.now().toString(36)}`;

const isFocused = (target: Locator) =>
  target.evaluate((element) => element === document.activeElement).catch(() => false);

/**
 * Presses Tab (or Shift+Tab, going back) until `target` has the focus, as a keyboard user would;
 * fails if it never comes.
 */
async function tabTo(page: Page, target: Locator, key: 'Tab' | 'Shift+Tab' = 'Tab', most = 80) {
  for (let presses = 0; presses < most && !(await isFocused(target)); presses++) {
    await page.keyboard.press(key);
  }
  await expect(target).toBeFocused();
}

/** The sidebar is one stop of the Tab order; its arrows move between the entries, Enter opens one. */
async function openFromSidebar(page: Page, entry: string) {
  const menu = page.getByRole('menu', { name: 'Main navigation' }).first();
  await tabTo(page, menu);
  const item = menu.getByRole('menuitem', { name: entry });
  for (let presses = 0; presses < 12 && !(await isFocused(item)); presses++) {
    await page.keyboard.press('ArrowDown');
  }
  await expect(item).toBeFocused();
  await page.keyboard.press('Enter');
}

/** Opens a focused antd Select with the keyboard and picks the option whose text starts so. */
async function pickWithKeys(page: Page, select: Locator, startsWith: string) {
  await expect(select).toBeFocused();
  await page.keyboard.press('ArrowDown');
  // This select's own drop-down: the one holding the list its combobox controls.
  const listId = await select.getAttribute('aria-controls');
  const list = page.locator(`.ant-select-dropdown:has([id="${listId}"])`);
  await expect(list).toBeVisible();
  const active = list.locator('.ant-select-item-option-active');
  for (let presses = 0; presses < 40; presses++) {
    const text = (await active.textContent()) ?? '';
    if (text.startsWith(startsWith)) break;
    await page.keyboard.press('ArrowDown');
  }
  const escaped = escapeRegExp(startsWith);
  await expect(active).toHaveText(new RegExp(`^${escaped}`));
  await page.keyboard.press('Enter');
  await expect(list).toBeHidden();
  await expect(select.locator('xpath=..')).toHaveAttribute('title', new RegExp(`^${escaped}`));
}

/** Types a date into a focused date field, segment by segment as Chromium's en-US field takes it. */
async function typeDate(page: Page, date: string) {
  const [year, month, day] = date.split('-');
  await page.keyboard.type(`${month}${day}${year}`);
}

test('a receptionist books, moves, edits and saves with the keyboard alone', async ({ page, journey }) => {
  test.setTimeout(180_000);
  const name = unique('Kira');
  // The journey's own dentist, on days they work: 10:00 is free on both.
  const dentist = await journey.dentist({ first: 'Emma' });
  const day = workdayFromToday(63, dentist.workingDays);
  const later = workdayAfter(day, dentist.workingDays);

  // Sign in: the first field has the focus path, Enter submits.
  await page.goto('/login');
  await tabTo(page, page.getByLabel('Username or Email'));
  await page.keyboard.type('receptionist');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
  await page.keyboard.type('receptionist123');
  await page.keyboard.press('Enter');
  await expectScreen(page, 'Dashboard');

  await openFromSidebar(page, 'Appointments');
  await expectScreen(page, 'Appointments');

  // New Appointment: the dialog takes the focus; each field is reached with Tab.
  await tabTo(page, page.getByRole('button', { name: 'New Appointment', exact: true }));
  await page.keyboard.press('Enter');
  const form = page.getByRole('dialog', { name: 'New Appointment' });
  await expect(form).toBeVisible();
  await tabTo(page, form.getByLabel('Patient Name'));
  await page.keyboard.type(name);
  await tabTo(page, form.getByLabel('Phone'));
  await page.keyboard.type('555-0166');
  await tabTo(page, form.getByRole('combobox', { name: 'Dentist' }));
  await pickWithKeys(page, form.getByRole('combobox', { name: 'Dentist' }), dentist.name);
  await tabTo(page, form.getByLabel('Date'));
  await typeDate(page, day);
  await expect(form.getByLabel('Date')).toHaveValue(day);
  // The treatment before the time: its length is what the free times are read for.
  await tabTo(page, form.getByRole('combobox', { name: 'Treatment' }));
  await pickWithKeys(page, form.getByRole('combobox', { name: 'Treatment' }), 'Dental Checkup');
  await expect(form.getByLabel('Duration')).toHaveValue('30');
  await expect(
    form.getByText(new RegExp(`start times free for ${escapeRegExp(dentist.name)} on .+ for 30 minutes\\.`)),
  ).toBeVisible();
  await tabTo(page, form.getByRole('combobox', { name: 'Time' }));
  await pickWithKeys(page, form.getByRole('combobox', { name: 'Time' }), '10:00–10:30');
  await tabTo(page, form.getByRole('button', { name: 'Book Appointment' }));
  // The focus stays in the dialog: Tab from its last button goes round to its first, Close, and back.
  await page.keyboard.press('Tab');
  await expect(form.getByRole('button', { name: 'Close' })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(form.getByRole('button', { name: 'Book Appointment' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText(new RegExp(`Appointment booked for ${name}`))).toBeVisible();
  await expect(form).toBeHidden();

  // The Calendar: the day's list has a Move action for each visit; its dialog moves it.
  await page.goto(`/calendar?day=${day}`);
  await expectScreen(page, 'Calendar');
  const item = dayList(page).getByRole('listitem').filter({ hasText: name });
  await tabTo(page, item.getByRole('button', { name: /^Move appointment of/ }));
  await page.keyboard.press('Enter');
  const move = page.getByRole('dialog', { name: 'Move Appointment' });
  await expect(move).toBeVisible();
  await tabTo(page, move.getByLabel('New date'));
  await typeDate(page, later);
  await tabTo(page, move.getByRole('button', { name: 'Move', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page.getByText(new RegExp(`The appointment of ${name} is now on`))).toBeVisible();
  await expect(dayList(page).getByRole('listitem').filter({ hasText: name })).toContainText('10:00–10:30');

  // The patient made by the booking: Edit from the list, a new phone, Enter saves.
  await page.goto(`/patients?search=${encodeURIComponent(name)}`);
  await expectScreen(page, 'Patients');
  await tabTo(page, page.getByRole('button', { name: `Edit ${name}` }));
  await page.keyboard.press('Enter');
  const edit = page.getByRole('dialog', { name: /^Edit/ });
  await expect(edit).toBeVisible();
  // Booked by name and phone only, the patient's file still lacks what the patient form requires.
  await tabTo(page, edit.getByLabel('Email'));
  await page.keyboard.type('kira.key@patients.example');
  await tabTo(page, edit.getByLabel('Phone'));
  await page.keyboard.press('Control+A');
  await page.keyboard.type('555-0167');
  await tabTo(page, edit.getByLabel('Date of Birth'));
  await typeDate(page, '1991-04-05');
  await tabTo(page, edit.getByRole('button', { name: /^Save/ }));
  await page.keyboard.press('Enter');
  await expect(edit).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: name })).toContainText('555-0167');

  // Escape closes a dialog and gives the focus back to what opened it.
  await tabTo(page, page.getByRole('button', { name: `Edit ${name}` }));
  await page.keyboard.press('Enter');
  await expect(edit).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(edit).toBeHidden();
  await expect(page.getByRole('button', { name: `Edit ${name}` })).toBeFocused();
});

test('an admin saves the practice settings with the keyboard alone', async ({ page }) => {
  await page.goto('/login');
  await tabTo(page, page.getByLabel('Username or Email'));
  await page.keyboard.type('admin');
  await page.keyboard.press('Tab');
  await page.keyboard.type('admin123');
  await page.keyboard.press('Enter');
  await expectScreen(page, 'Dashboard');
  await page.goto('/settings');
  await expectScreen(page, 'Settings');
  const phone = page.getByLabel('Phone', { exact: true });
  await tabTo(page, phone);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('555-0199');
  // Save Settings heads the screen: back up to it.
  await tabTo(page, page.getByRole('button', { name: 'Save Settings' }), 'Shift+Tab');
  await page.keyboard.press('Enter');
  // Announced by a live region (role alert) while the focus stays where it was.
  await expect(page.getByRole('alert').filter({ hasText: 'Settings saved successfully!' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save Settings' })).toBeFocused();
  await page.reload();
  await expect(page.getByLabel('Phone', { exact: true })).toHaveValue('555-0199');
});
