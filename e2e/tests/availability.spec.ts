import { expect, type Page, test } from './fixtures';
import {
  bookFromCalendar,
  choose,
  dayFromToday,
  dayList,
  expectScreen,
  moveTo,
  selectionOf,
  signInByApi,
  workdayFromToday,
} from './helpers';

/**
 * Availability against the real server, as the admin and as a dentist: a new dentist gets a week of
 * slots in one action; a visit booked into a slot turns its chip Booked and shows in the calendar;
 * moved, the slot it left is free and the one it took is booked; a booked day and a dentist with a
 * visit to come are not deleted; cancelled, the slot is free again, and the dentist can be deleted while
 * the visit stays in the records under their name. A dentist changes their own days.
 */
const card = (page: Page, dentist: string) =>
  page.locator('.availability-card').filter({ has: page.getByText(dentist, { exact: true }) });

/** The next two weekdays after today (a new dentist works Monday to Friday). */
function nextWeekdays(): [string, string] {
  const days: string[] = [];
  for (let offset = 1; days.length < 2; offset += 1) {
    const weekday = new Date(`${dayFromToday(offset)}T12:00:00`).getDay();
    if (weekday >= 1 && weekday <= 5) days.push(dayFromToday(offset));
  }
  return [days[0] as string, days[1] as string];
}

async function openDay(page: Page, date: string) {
  await page.goto(`/availability?date=${date}`);
  await expectScreen(page, 'Availability');
}

test('an admin gives a new dentist a week, books, moves and cancels a visit, and deletes are refused', async ({
  page,
  journey,
}) => {
  // A long journey (a dozen screens) on a machine whose speed varies: 45 s was not always enough.
  test.setTimeout(120_000);
  // The journey's own dentist, with no availability yet (made through the API): the journey is about
  // their availability.
  const { name: dentist } = await journey.dentist({ first: 'Ivo' });
  const patient = journey.name('Nell', 'Slot');
  const [bookDay, moveDay] = nextWeekdays();
  await signInByApi(page, 'admin');

  // A week in one action: the five weekdays from tomorrow get the suggested slots.
  await page.goto('/availability');
  await expectScreen(page, 'Availability');
  await page.getByRole('button', { name: 'Fill Dates' }).click();
  const fill = page.getByRole('dialog', { name: 'Fill Dates' });
  await choose(page, fill.getByRole('combobox', { name: 'Dentist' }), dentist);
  await expect(fill.getByText('Works Monday, Tuesday, Wednesday, Thursday, Friday.')).toBeVisible();
  await fill.getByLabel('From').fill(dayFromToday(1));
  await fill.getByLabel('To').fill(dayFromToday(7));
  await fill.getByRole('button', { name: 'Fill Dates' }).click();
  await expect(page.getByText(`${dentist}: 5 days added`)).toBeVisible();
  await choose(page, page.getByRole('combobox', { name: 'Dentist' }), dentist);
  await expect(page).toHaveURL(/dentist=\d+/);
  await expect(page.locator('.availability-card')).toHaveCount(5);
  await expect(page.locator('.availability-card').first()).toContainText('6/6 slots available');

  // Booked from the calendar into the first slot: the calendar lists it and the chip turns Booked.
  await page.goto(`/calendar?day=${bookDay}`);
  await expectScreen(page, 'Calendar');
  const time = await bookFromCalendar(page, patient, dentist);
  expect(time).toBe('09:00');
  await expect(dayList(page).getByRole('listitem').filter({ hasText: patient })).toContainText('09:00');
  await openDay(page, bookDay);
  await expect(card(page, dentist)).toContainText('5/6 slots available');
  await expect(card(page, dentist).getByRole('button', { name: /^09:00-10:00 Booked/ })).toBeVisible();

  // The booked day is not deleted: the server says why.
  await card(page, dentist)
    .getByRole('button', { name: /^Delete availability/ })
    .click();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText(
    'This day has an appointment booked (09:00): cancel or move it before deleting the day',
  );
  await expect(card(page, dentist)).toBeVisible();

  // Moved to the next weekday: the slot it left is free, the one it took is booked.
  await page.goto(`/calendar?day=${bookDay}`);
  await moveTo(page, dayList(page).getByRole('listitem').filter({ hasText: patient }), moveDay);
  await expect(page.getByText(new RegExp(`The appointment of ${patient} is now on`))).toBeVisible();
  await openDay(page, bookDay);
  await expect(card(page, dentist)).toContainText('6/6 slots available');
  await openDay(page, moveDay);
  await expect(card(page, dentist).getByRole('button', { name: /^09:00-10:00 Booked/ })).toBeVisible();

  // The dentist has a visit to come: not deleted.
  await page.goto(`/dentists?search=${encodeURIComponent(dentist)}`);
  await page.getByRole('button', { name: `Delete ${dentist}` }).click();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText(/cannot be deleted/);

  // Cancelled: the slot is free again, and the day can go.
  await page.goto(`/appointments?search=${encodeURIComponent(patient)}`);
  await page.getByRole('button', { name: `Cancel appointment of ${patient}` }).click();
  await expect(page.getByRole('row').filter({ hasText: patient })).toContainText('cancelled');
  await openDay(page, moveDay);
  await expect(card(page, dentist)).toContainText('6/6 slots available');
  await expect(card(page, dentist).getByRole('button', { name: /^09:00-10:00 Available/ })).toBeVisible();
  await card(page, dentist)
    .getByRole('button', { name: /^Delete availability/ })
    .click();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByText(new RegExp(`Availability of ${dentist} on .+ was deleted`))).toBeVisible();
  await expect(card(page, dentist)).toHaveCount(0);

  // An inactive day offers no time in the booking form.
  await openDay(page, bookDay);
  await card(page, dentist)
    .getByRole('button', { name: /^Edit availability/ })
    .click();
  const edit = page.getByRole('dialog', { name: 'Edit Availability' });
  await choose(page, edit.getByRole('combobox', { name: 'Status' }), 'inactive');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(card(page, dentist)).toContainText('Inactive day');
  await page.goto(`/appointments?new=1&date=${bookDay}`);
  const booking = page.getByRole('dialog', { name: 'New Appointment' });
  await choose(page, booking.getByRole('combobox', { name: 'Dentist' }), dentist);
  await choose(page, booking.getByRole('combobox', { name: 'Treatment' }), 'Dental Checkup');
  await expect(
    booking.getByText(
      `${dentist} is not available on ${bookDay}: the day is marked inactive: choose another day or dentist.`,
    ),
  ).toBeVisible();
  await page.keyboard.press('Escape');

  // With only a cancelled visit left, the dentist is deleted; the visit stays, under their name.
  await page.goto(`/dentists?search=${encodeURIComponent(dentist)}`);
  await page.getByRole('button', { name: `Delete ${dentist}` }).click();
  await expect(page.getByText(/their past appointments stay in the records under their name/)).toBeVisible();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByText(`${dentist} was deleted`)).toBeVisible();
  await expect(page.getByText('No dentists match your search')).toBeVisible();
  await page.goto(`/appointments?search=${encodeURIComponent(patient)}`);
  const visit = page.getByRole('row').filter({ hasText: patient });
  await expect(visit).toContainText(dentist);
  await expect(visit).toContainText('cancelled');
  await openDay(page, bookDay);
  await expect(card(page, dentist)).toHaveCount(0);
});

test('a dentist adds a day of their own, closes and reopens a slot, and only reads the others', async ({
  page,
  journey,
}) => {
  // The journey's own dentist, signed in with an account of their own: the counts below are this
  // journey's alone, whichever journeys share its database.
  const own = await journey.dentist({ first: 'Ada' });
  const date = workdayFromToday(14, own.workingDays);
  await signInByApi(page, await journey.dentistAccount(own));
  await page.goto('/availability');
  await expectScreen(page, 'Availability');
  await expect(selectionOf(page.getByRole('combobox', { name: 'Dentist' }))).toHaveAttribute(
    'title',
    own.name,
  );

  await page.getByRole('button', { name: 'Add Availability' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Availability' });
  await expect(selectionOf(dialog.getByRole('combobox', { name: 'Dentist' }))).toHaveAttribute(
    'title',
    own.name,
  );
  await dialog.getByLabel('Date').fill(date);
  await dialog.getByLabel('Start time').fill('17:00');
  await dialog.getByLabel('End time').fill('16:30');
  await dialog.getByRole('button', { name: 'Add slot' }).click();
  await expect(dialog.getByText('The end time must be after the start time')).toBeVisible();
  await dialog.getByLabel('End time').fill('18:00');
  await dialog.getByRole('button', { name: 'Add slot' }).click();
  await expect(dialog.getByRole('checkbox', { name: '17:00-18:00' })).toBeChecked();
  await dialog.getByRole('button', { name: 'Add Availability' }).click();
  await expect(page.getByText(new RegExp(`Availability of ${own.name} on .+ was added`))).toBeVisible();

  await openDay(page, date);
  const ownCard = card(page, own.name);
  await expect(ownCard).toContainText('7/7 slots available');
  await ownCard.getByRole('button', { name: '17:00-18:00 Available: close this slot' }).click();
  await expect(page.getByText('Slot 17:00-18:00 closed')).toBeVisible();
  await expect(ownCard).toContainText('6/7 slots available');
  await ownCard.getByRole('button', { name: '17:00-18:00 Booked: reopen this slot' }).click();
  await expect(page.getByText('Slot 17:00-18:00 reopened')).toBeVisible();
  await expect(ownCard).toContainText('7/7 slots available');

  // Every dentist's days can be read (the demo's, which no journey changes); only their own can be changed.
  await page.goto(`/availability?dentist=all&date=${dayFromToday(1)}`);
  const others = page.locator('.availability-card').filter({ hasNotText: own.name });
  await expect(others.first()).toBeVisible();
  await expect(others.first().getByRole('button')).toHaveCount(0);
});
