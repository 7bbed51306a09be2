import { expect, test } from './fixtures';
import {
  bookFromCalendar,
  choose,
  chooseTime,
  dayList,
  expectScreen,
  moveTo,
  selectionOf,
  signInByApi,
  workdayAfter,
  workdayFromToday,
} from './helpers';

/**
 * The Calendar against the real server: a visit booked from the calendar shows in the month and the
 * day's list; it is moved to another day with the keyboard's Move; a move onto a taken time is
 * refused with the server's message and the visit stays where it was. A visit dragged onto another
 * day moves there.
 */
test('an admin books from the calendar, moves the visit with the keyboard, and a clash is refused', async ({
  page,
  journey,
}) => {
  // Two bookings through the form and three moves: on a busy machine this took 33 s of the default 45.
  test.setTimeout(90_000);
  const first = journey.name('Ines', 'Cal');
  const second = journey.name('Otto', 'Cal');
  // The journey's own dentist, on days they work (nothing else booked: their first free time is the
  // same each day).
  const dentist = await journey.dentist({ first: 'Mika' });
  const day = workdayFromToday(31, dentist.workingDays);
  const nextDay = workdayAfter(day, dentist.workingDays);
  await signInByApi(page, 'admin');
  await page.goto(`/calendar?day=${day}`);
  await expectScreen(page, 'Calendar');

  // Booked from the calendar: the form opens on the selected day and comes back to it.
  const time = await bookFromCalendar(page, first, dentist.name);
  await expect(page).toHaveURL(new RegExp(`/calendar\\?month=${day.slice(0, 7)}&day=${day}`));
  const firstItem = dayList(page).getByRole('listitem').filter({ hasText: first });
  await expect(firstItem).toContainText(time);
  await expect(firstItem).toContainText('Dental Checkup');
  // The month shows it in its day (or counts it in '+N more' behind the day's first two).
  await expect(page.locator(`td:has(button[data-day="${day}"])`)).toContainText(new RegExp(`${first}|more`));

  // A second visit of the same dentist, the next day at the same time.
  await page.goto(`/calendar?day=${nextDay}`);
  await expect(page).toHaveURL(new RegExp(`day=${nextDay}`));
  await page.getByRole('button', { name: 'New Appointment', exact: true }).click();
  const form = page.getByRole('dialog', { name: 'New Appointment' });
  await form.getByLabel('Patient Name').fill(second);
  await form.getByLabel('Patient Name').press('Tab');
  await form.getByLabel('Phone').fill('555-0192');
  await choose(page, form.getByRole('combobox', { name: 'Dentist' }), dentist.name);
  // The treatment first: its length is what the free times are read for.
  await choose(page, form.getByRole('combobox', { name: 'Treatment' }), 'Regular Cleaning');
  await chooseTime(page, form, time);
  await form.getByRole('button', { name: 'Book Appointment' }).click();
  await expect(page.getByText(new RegExp(`Appointment booked for ${second}`))).toBeVisible();
  const secondItem = dayList(page).getByRole('listitem').filter({ hasText: second });
  await expect(secondItem).toBeVisible();

  // Moving it onto the first visit's time is refused with the server's message; it stays.
  await moveTo(page, secondItem, day);
  await expect(page.getByRole('alert').filter({ hasText: 'already has an appointment' })).toBeVisible();
  await expect(dayList(page).getByRole('listitem').filter({ hasText: second })).toBeVisible();

  // Moved to a free day: the calendar goes there and lists it.
  const later = workdayAfter(nextDay, dentist.workingDays);
  await moveTo(page, dayList(page).getByRole('listitem').filter({ hasText: second }), later);
  await expect(page.getByText(new RegExp(`The appointment of ${second} is now on`))).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`day=${later}`));
  await expect(dayList(page).getByRole('listitem').filter({ hasText: second })).toBeVisible();

  // The server agrees: the appointments list finds it on its new day.
  await page.goto(`/appointments?search=${encodeURIComponent(second)}`);
  await expect(page.getByRole('row').filter({ hasText: second })).toHaveCount(1);
});

test('a dentist sees their own appointments by default, and a free day says so', async ({
  page,
  journey,
}) => {
  const dentist = await journey.dentist({ first: 'Cleo' });
  await signInByApi(page, await journey.dentistAccount(dentist));
  await page.goto('/calendar');
  await expectScreen(page, 'Calendar');
  await expect(selectionOf(page.getByRole('combobox', { name: 'Dentist' }))).toHaveAttribute(
    'title',
    dentist.name,
  );
  // A day far ahead has nothing booked.
  await page.goto('/calendar?day=2030-01-15');
  await expect(page.getByText('No appointments', { exact: true })).toBeVisible();
  await expect(page.getByText('This day is free')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'January 2030' })).toBeVisible();
});

test('a visit dragged onto another day of the month moves there, and the server keeps it', async ({
  page,
  journey,
}) => {
  const name = journey.name('Dora', 'Cal');
  const dentist = await journey.dentist({ first: 'Drew' });
  // A Tuesday and the Thursday after it, late in the month after next: days the journey's own dentist
  // works.
  const ahead = new Date();
  ahead.setDate(1);
  ahead.setMonth(ahead.getMonth() + 2);
  const month = `${ahead.getFullYear()}-${String(ahead.getMonth() + 1).padStart(2, '0')}`;
  const from = workdayAfter(`${month}-19`, [2]);
  const to = workdayAfter(from, [4]);
  const cell = (day: string) => page.locator(`td:has(button[data-day="${day}"])`);
  await signInByApi(page, 'admin');
  // The month of the journey's dentist alone: no other visit of those days pushes theirs into '+N more'.
  await page.goto(`/calendar?day=${from}&dentist=${dentist.id}`);
  await expectScreen(page, 'Calendar');
  const time = await bookFromCalendar(page, name, dentist.name);
  const entry = cell(from).getByRole('listitem').filter({ hasText: name });
  await expect(entry).toHaveText(`${time} - ${name}`);

  await entry.dragTo(cell(to));
  await expect(page.getByText(new RegExp(`The appointment of ${name} is now on`))).toBeVisible();
  await expect(cell(to).getByRole('listitem').filter({ hasText: name })).toHaveText(`${time} - ${name}`);
  await expect(cell(from).getByRole('listitem').filter({ hasText: name })).toHaveCount(0);

  // A reload reads it from the server on its new day.
  await page.goto(`/calendar?day=${to}`);
  await expect(dayList(page).getByRole('listitem').filter({ hasText: name })).toContainText(time);
});
