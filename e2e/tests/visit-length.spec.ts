import { expect, type Locator, type Page, test } from './fixtures';
import {
  bookByApi,
  choose,
  dayList,
  expectScreen,
  selectionOf,
  signInByApi,
  tryBookByApi,
  weekdayFromToday,
} from './helpers';

/**
 * Visits last as long as their treatment, against the real server. A receptionist books a 90-minute
 * Root Canal from free time in the calendar's Day view: it books two slots of the dentist's day, shows
 * as one block 90 minutes long, nothing else of the dentist or the patient is booked inside it, and
 * dragged to free time it moves there (onto another visit it is refused and stays). A dentist sees why
 * their form offers no time on a day they do not work or have marked inactive, and has no
 * outside-hours override. Each journey has dentists of its own (journeyData.ts), working Monday to
 * Friday.
 */

/** The suggested slots of a weekday (09-12 and 14-17, an hour each). */
const WEEKDAY_SLOTS = ['09:00', '10:00', '11:00', '14:00', '15:00', '16:00'].map((start) => ({
  start,
  end: `${String(Number(start.slice(0, 2)) + 1).padStart(2, '0')}:00`,
  available: true,
}));

/** Gives a dentist's day an availability record through the API (an admin's, or the dentist's own). */
async function addDayByApi(
  page: Page,
  token: string,
  day: { dentistId: number; date: string; status?: 'active' | 'inactive' },
) {
  const added = await page.request.post('/api/availability', {
    headers: { authorization: `Bearer ${token}` },
    data: { dentist_id: day.dentistId, date: day.date, time_slots: WEEKDAY_SLOTS, status: day.status },
  });
  expect(added.status(), await added.text()).toBe(201);
}

/** An element's box on the page; fails if it has none (not shown). */
async function boxOf(target: Locator) {
  await expect(target).toBeVisible();
  const box = await target.boundingBox();
  expect(box, 'a box on the page').not.toBeNull();
  return box as { x: number; y: number; width: number; height: number };
}

/**
 * Drags a visit block of the Day view onto a row of a column (HTML5 drag and drop): dropped on the
 * column, at the middle of that row's free-time button.
 */
async function dragOnto(visit: Locator, column: Locator, row: Locator) {
  const columnBox = await boxOf(column);
  const rowBox = await boxOf(row);
  await visit.dragTo(column, {
    targetPosition: {
      x: rowBox.x - columnBox.x + rowBox.width / 2,
      y: rowBox.y - columnBox.y + rowBox.height / 2,
    },
  });
}

test('a 90-minute Root Canal books two slots, shows 90 minutes long, keeps its time and moves by dragging', async ({
  page,
  browser,
  baseURL,
  journey,
}) => {
  test.setTimeout(120_000);
  const patient = journey.name('Vera', 'Length');
  const other = journey.name('Rhea', 'Length');
  const day = weekdayFromToday(42, 3);
  const { id: dentistId, name: dentist } = await journey.dentist({ first: 'Emil' });
  // Another dentist of the journey's, free that day: the patient is what is busy.
  const second = await journey.dentist({ first: 'Sam' });

  // Set up by the admin, in a window of their own: the dentist's day has the suggested slots, and a
  // one-hour cleaning of another patient at 16:00.
  const admin = await (await browser.newContext({ baseURL })).newPage();
  const adminToken = await signInByApi(admin, 'admin');
  await addDayByApi(admin, adminToken, { dentistId, date: day });
  await bookByApi(admin, adminToken, {
    patient: other,
    phone: '555-0151',
    dentist: dentist,
    date: day,
    time: '16:00',
    treatment: 'Regular Cleaning',
  });

  // The receptionist's Day view of the dentist, on a desk's tall screen: the working day fits, so a
  // drag never has to scroll the page (Playwright's drag and drop does not scroll while dragging).
  await page.setViewportSize({ width: 1280, height: 1400 });
  // Free time at 10:00 opens the booking form there.
  const token = await signInByApi(page, 'receptionist');
  await page.goto(`/calendar?view=day&day=${day}&dentist=${dentistId}`);
  await expectScreen(page, 'Calendar');
  const column = page.getByRole('group', { name: new RegExp(`^${dentist}, `) });
  const bookAt = (time: string) => column.getByRole('button', { name: new RegExp(`^Book at ${time}, `) });
  await bookAt('10:00').click();
  const form = page.getByRole('dialog', { name: 'New Appointment' });
  await expect(selectionOf(form.getByRole('combobox', { name: 'Dentist' }))).toHaveAttribute(
    'title',
    dentist,
  );
  await expect(form.getByLabel('Date')).toHaveValue(day);
  await form.getByLabel('Patient Name').fill(patient);
  await form.getByLabel('Patient Name').press('Tab');
  await form.getByLabel('Phone').fill('555-0150');
  // A Root Canal lasts 90 minutes: the time is offered for that length.
  await choose(page, form.getByRole('combobox', { name: 'Treatment' }), 'Root Canal');
  await expect(form.getByLabel('Duration')).toHaveValue('90');
  await expect(
    form.getByText(new RegExp(`start times free for ${dentist} on .+ for 90 minutes\\.`)),
  ).toBeVisible();
  await expect(selectionOf(form.getByRole('combobox', { name: 'Time' }))).toHaveAttribute(
    'title',
    '10:00–11:30',
  );
  await form.getByRole('button', { name: 'Book Appointment' }).click();
  await expect(
    page.getByText(new RegExp(`Appointment booked for ${patient} on .+ at 10:00–11:30`)),
  ).toBeVisible();

  // Back in the Day view: one block from the 10:00 row to the 11:30 row, half as long again as the
  // one-hour cleaning.
  await expect(page).toHaveURL(/view=day/);
  const block = column.getByRole('button', { name: `10:00–11:30 ${patient}, Root Canal, pending` });
  const cleaning = column.getByRole('button', { name: `16:00–17:00 ${other}, Regular Cleaning, pending` });
  const blockBox = await boxOf(block);
  const cleaningBox = await boxOf(cleaning);
  expect(blockBox.height / cleaningBox.height).toBeCloseTo(1.5, 1);
  const before = await boxOf(bookAt('09:45'));
  const after = await boxOf(bookAt('11:30'));
  expect(Math.abs(blockBox.y - (before.y + before.height))).toBeLessThanOrEqual(2);
  expect(Math.abs(blockBox.y + blockBox.height - after.y)).toBeLessThanOrEqual(3);
  // No free time is offered inside it.
  await expect(bookAt('10:00')).toHaveCount(0);
  await expect(bookAt('11:15')).toHaveCount(0);
  await expect(dayList(page).getByRole('listitem').filter({ hasText: patient })).toContainText(
    `10:00–11:30 ${patient}`,
  );

  // The dentist's availability card: both slots the Root Canal reaches into are booked.
  await admin.goto(`/availability?date=${day}&dentist=${dentistId}`);
  await expectScreen(admin, 'Availability');
  const card = admin.locator('.availability-card').filter({ has: admin.getByText(dentist, { exact: true }) });
  await expect(card).toContainText('3/6 slots available');
  await expect(card.getByRole('button', { name: /^09:00-10:00 Available/ })).toBeVisible();
  await expect(card.getByRole('button', { name: /^10:00-11:00 Booked/ })).toBeVisible();
  await expect(card.getByRole('button', { name: /^11:00-12:00 Booked/ })).toBeVisible();

  // Nothing is booked inside it: not another visit of the dentist, nor the patient with another
  // dentist; the server names the Root Canal's time.
  const inside = await tryBookByApi(page, token, {
    patient: journey.name('Otto', 'Length'),
    phone: '555-0152',
    dentist: dentist,
    date: day,
    time: '10:45',
    treatment: 'Dental Checkup',
  });
  expect(inside.status).toBe(409);
  expect(inside.body.message).toBe(
    `${dentist} already has an appointment on ${day} at 10:00–11:30 (${patient})`,
  );
  const samePatient = await tryBookByApi(page, token, {
    patient,
    phone: '555-0150',
    dentist: second.name,
    date: day,
    time: '11:00',
    treatment: 'Dental Checkup',
  });
  expect(samePatient.status).toBe(409);
  expect(samePatient.body.message).toBe(
    `${patient} already has an appointment on ${day} at 10:00–11:30 with ${dentist}`,
  );

  // Dragged onto 15:30 it would run into the cleaning: refused with the server's message, it stays.
  await dragOnto(block, column, bookAt('15:30'));
  await expect(page.getByRole('alert').filter({ hasText: 'already has an appointment' })).toContainText(
    `${dentist} already has an appointment on ${day} at 16:00–17:00 (${other})`,
  );
  await expect(block).toBeVisible();
  await expect(dayList(page).getByRole('listitem').filter({ hasText: patient })).toContainText('10:00–11:30');

  // Dragged onto free time at 14:00, it moves there whole: 14:00–15:30.
  await dragOnto(block, column, bookAt('14:00'));
  await expect(
    page.getByText(new RegExp(`The appointment of ${patient} is now on .+ at 14:00–15:30 with ${dentist}`)),
  ).toBeVisible();
  await expect(
    column.getByRole('button', { name: `14:00–15:30 ${patient}, Root Canal, pending` }),
  ).toBeVisible();
  await expect(block).toHaveCount(0);
  await expect(bookAt('10:00')).toBeVisible();
  const moved = dayList(page).getByRole('listitem').filter({ hasText: patient });
  await expect(moved).toContainText(`14:00–15:30 ${patient}`);
  await expect(moved.getByRole('button', { name: `Move appointment of ${patient} at 14:00` })).toBeVisible();

  // The server keeps it: a reload shows it there, and the slots it left are free again.
  await page.reload();
  await expect(
    column.getByRole('button', { name: `14:00–15:30 ${patient}, Root Canal, pending` }),
  ).toBeVisible();
  await admin.reload();
  await expect(card.getByRole('button', { name: /^10:00-11:00 Available/ })).toBeVisible();
  await expect(card.getByRole('button', { name: /^11:00-12:00 Available/ })).toBeVisible();
  await expect(card.getByRole('button', { name: /^14:00-15:00 Booked/ })).toBeVisible();
  await expect(card.getByRole('button', { name: /^15:00-16:00 Booked/ })).toBeVisible();
  await admin.context().close();
});

test('a dentist is told why no time is offered on a day they do not work or marked inactive', async ({
  page,
  journey,
}) => {
  // The journey's own dentist, working Monday to Friday, signed in with their own account.
  const own = await journey.dentist({ first: 'Tess' });
  const dentist = own.name;
  const dentistId = own.id;
  // A Saturday (they work Monday to Friday) and a Thursday they mark inactive.
  const saturday = weekdayFromToday(49, 6);
  const inactive = weekdayFromToday(50, 4);
  const token = await signInByApi(page, await journey.dentistAccount(own));
  await addDayByApi(page, token, { dentistId, date: inactive, status: 'inactive' });

  await page.goto(`/appointments?new=1&date=${saturday}`);
  const form = page.getByRole('dialog', { name: 'New Appointment' });
  await expect(selectionOf(form.getByRole('combobox', { name: 'Dentist' }))).toHaveAttribute(
    'title',
    dentist,
  );
  await form.getByLabel('Patient Name').fill(journey.name('Tess', 'Length'));
  await form.getByLabel('Patient Name').press('Tab');
  await form.getByLabel('Phone').fill('555-0153');
  // Until the treatment gives the visit's length, the form says what it waits for.
  await expect(
    form.getByText('Choose the treatment (or give the length) to see the free times.'),
  ).toBeVisible();
  await choose(page, form.getByRole('combobox', { name: 'Treatment' }), 'Dental Checkup');
  await expect(
    form.getByText(`${dentist} does not work on Saturday, ${saturday}: choose another day or dentist.`),
  ).toBeVisible();
  // No time is offered, and a dentist has no override to book outside open hours.
  await form.getByRole('combobox', { name: 'Time' }).click();
  await expect(
    page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')
      .getByText(`${dentist} does not work on Saturday, ${saturday}`),
  ).toBeVisible();
  await expect(
    page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option'),
  ).toHaveCount(0);
  await expect(form.getByRole('checkbox', { name: 'Book outside open hours (emergency)' })).toHaveCount(0);

  // The day marked inactive says so.
  await form.getByLabel('Date').fill(inactive);
  await expect(
    form.getByText(
      `${dentist} is not available on ${inactive}: the day is marked inactive: choose another day or dentist.`,
    ),
  ).toBeVisible();
  await expect(form.getByRole('checkbox', { name: 'Book outside open hours (emergency)' })).toHaveCount(0);

  // The server holds to the same: the dentist's own override is refused.
  const emergency = await tryBookByApi(page, token, {
    patient: journey.name('Tess', 'Length'),
    phone: '555-0153',
    dentist,
    date: saturday,
    time: '10:00',
    treatment: 'Dental Checkup',
    outside_hours: true,
    outside_hours_reason: 'Swollen jaw',
  });
  expect(emergency.status).toBe(403);
  expect(emergency.body.message).toBe('Only an admin or a receptionist may book outside open hours');
  const plain = await tryBookByApi(page, token, {
    patient: journey.name('Tess', 'Length'),
    phone: '555-0153',
    dentist,
    date: saturday,
    time: '10:00',
    treatment: 'Dental Checkup',
  });
  expect(plain.status).toBe(409);
  expect(plain.body.message).toBe(
    `${dentist} does not work on Saturday, ${saturday}, so 10:00–10:30 cannot be booked`,
  );
});
