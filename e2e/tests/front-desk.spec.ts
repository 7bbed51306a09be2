import { expect, type Locator, type Page, test } from './fixtures';
import {
  choose,
  chooseFreeTime,
  chooseTime,
  escapeRegExp,
  openOptions,
  selectionOf,
  signIn,
  signInByApi,
  workdayFromToday,
} from './helpers';

/**
 * The front desk's day, in the browser against the real server: a new patient is booked a visit,
 * which is found, confirmed, edited, completed, cancelled and deleted; the dashboard follows; a clash
 * is refused. Each journey makes its own patients, so journeys never depend on each other.
 */
const unique = (first: string) => `${first} Front${Date.now().toString(36)}`;

function dayFromToday(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });
const bookingForm = (page: Page) => page.getByRole('dialog', { name: 'New Appointment' });

/**
 * Fills dentist, date and treatment, then the time (the free times are read for the treatment's
 * length, so the time comes last): the one starting at `time`, or the first free one. Answers the start.
 */
async function fillBooking(
  page: Page,
  form: Locator,
  booking: { dentist?: string; date: string; treatment: string; time?: string },
): Promise<string> {
  if (booking.dentist) await choose(page, form.getByRole('combobox', { name: 'Dentist' }), booking.dentist);
  await form.getByLabel('Date').fill(booking.date);
  await choose(page, form.getByRole('combobox', { name: 'Treatment' }), booking.treatment);
  const time = booking.time
    ? (await chooseTime(page, form, booking.time)).slice(0, 5)
    : await chooseFreeTime(page, form);
  // Nothing chosen is undone by an answer arriving late.
  await expect(selectionOf(form.getByRole('combobox', { name: 'Treatment' }))).toHaveAttribute(
    'title',
    booking.treatment,
  );
  await expect(selectionOf(form.getByRole('combobox', { name: 'Time' }))).toHaveAttribute(
    'title',
    new RegExp(`^${time}–`),
  );
  return time;
}

test('a receptionist books a new patient a visit and follows it from pending to deleted', async ({
  page,
  journey,
}) => {
  test.setTimeout(120_000);
  const name = unique('Iris');
  // The journey's own dentist, on a day they work: nothing else of theirs is booked.
  const dentist = await journey.dentist({ first: 'Jim' });
  const visitDay = workdayFromToday(61, dentist.workingDays);
  await signIn(page, 'receptionist');

  // A new patient, then 'Book appointment' from their file.
  await page.goto('/patients');
  await page.getByRole('button', { name: 'Add New Patient' }).click();
  const add = page.getByRole('dialog', { name: 'Add New Patient' });
  await add.getByLabel('Full Name').fill(name);
  await add.getByLabel('Email').fill('iris.front@mail.example');
  await add.getByLabel('Phone').fill('555-0177');
  await add.getByLabel('Date of Birth').fill('1979-02-03');
  await add.getByRole('button', { name: 'Add Patient' }).click();
  await expect(page.getByText(`${name} was added`)).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search patients' }).fill(name);
  await page.getByRole('link', { name }).click();
  await page.getByRole('dialog', { name }).getByRole('button', { name: 'Book appointment' }).click();

  // The booking form opens by URL, with the patient filled in.
  await expect(page).toHaveURL(/\/appointments\?new=1&patient=\d+/);
  const form = bookingForm(page);
  await expect(form.getByLabel('Patient Name')).toHaveValue(name);
  await expect(form.getByLabel('Phone')).toHaveValue('555-0177');

  // Bad input is refused beside its field, nothing is sent.
  await form.getByLabel('Phone').fill('12');
  await form.getByRole('button', { name: 'Book Appointment' }).click();
  await expect(form.getByText('A phone number has 7 to 15 digits')).toBeVisible();
  await expect(form.getByText('This field is required').first()).toBeVisible();
  await form.getByLabel('Phone').fill('555-0177');

  const time = await fillBooking(page, form, {
    dentist: dentist.name,
    date: visitDay,
    treatment: 'Root Canal',
    time: '10:00',
  });
  await form.getByLabel('Notes').fill('First visit');
  await form.getByRole('button', { name: 'Book Appointment' }).click();
  // A Root Canal lasts 90 minutes: it is booked from 10:00 to 11:30.
  await expect(
    page.getByText(new RegExp(`Appointment booked for ${name} on .* at ${time}–11:30`)),
  ).toBeVisible();
  await expect(page).not.toHaveURL(/new=1/);

  // Another visit of the dentist is not offered a time inside the Root Canal: a Dental Checkup may
  // end at 10:00 or start at 11:30, nothing between.
  await page.getByRole('button', { name: 'New Appointment' }).click();
  const clash = bookingForm(page);
  await clash.getByLabel('Patient Name').fill(unique('Otto'));
  await clash.getByLabel('Patient Name').press('Tab');
  await clash.getByLabel('Phone').fill('555-0178');
  await choose(page, clash.getByRole('combobox', { name: 'Dentist' }), dentist.name);
  await clash.getByLabel('Date').fill(visitDay);
  await choose(page, clash.getByRole('combobox', { name: 'Treatment' }), 'Dental Checkup');
  await expect(clash.getByLabel('Duration')).toHaveValue('30');
  await expect(
    clash.getByText(new RegExp(`start times free for ${escapeRegExp(dentist.name)} on .+ for 30 minutes\\.`)),
  ).toBeVisible();
  await clash.getByRole('combobox', { name: 'Time' }).click();
  await expect(openOptions(page).nth(2)).toHaveText('09:30–10:00');
  await expect(openOptions(page).nth(3)).toHaveText('11:30–12:00');
  await openOptions(page).nth(2).click();

  // Booked anyway at 10:00 as an emergency, the clash is refused with the server's message naming the
  // Root Canal's time; nothing is saved.
  await clash.getByRole('checkbox', { name: 'Book outside open hours (emergency)' }).check();
  await clash.getByLabel('Time', { exact: true }).fill(time);
  await clash.getByLabel('Reason for booking outside open hours').fill('Broken tooth, seen at once');
  await clash.getByRole('button', { name: 'Book Appointment' }).click();
  await expect(clash.getByRole('alert').filter({ hasText: 'already has an appointment' })).toContainText(
    `${dentist.name} already has an appointment on ${visitDay} at ${time}–11:30 (${name})`,
  );
  await clash.getByRole('button', { name: 'Cancel' }).click();

  // Found by search and filters, kept in the URL across a reload.
  await page.getByRole('searchbox', { name: 'Search appointments' }).fill(name);
  await expect(page).toHaveURL(/search=/);
  await expect(page.getByRole('row')).toHaveCount(2);
  await choose(page, page.getByRole('combobox', { name: 'Status' }), 'pending');
  await expect(page).toHaveURL(/status=pending/);
  await expect(row(page, name)).toContainText('pending');
  await expect(row(page, name)).toContainText(dentist.name);
  await expect(row(page, name)).toContainText('First visit');
  await page.reload();
  await expect(page.getByRole('searchbox', { name: 'Search appointments' })).toHaveValue(name);
  await expect(row(page, name)).toContainText('pending');
  await choose(page, page.getByRole('combobox', { name: 'Status' }), 'confirmed');
  await expect(row(page, name)).toHaveCount(0);
  await choose(page, page.getByRole('combobox', { name: 'Status' }), 'All');
  await expect(row(page, name)).toBeVisible();

  // Confirm: the row shows the server's answer, and Confirm is then disabled.
  await page.getByRole('button', { name: `Confirm appointment of ${name}` }).click();
  await expect(row(page, name)).toContainText('confirmed');
  await expect(page.getByRole('button', { name: `Confirm appointment of ${name}` })).toBeDisabled();

  // Edit in the same form: a new treatment and notes.
  await page.getByRole('button', { name: `Edit appointment of ${name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Appointment' });
  await choose(page, edit.getByRole('combobox', { name: 'Treatment' }), 'Cavity Filling');
  await edit.getByLabel('Notes').fill('Bring X-rays');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText(`The appointment of ${name} was saved`)).toBeVisible();
  await expect(row(page, name)).toContainText('Cavity Filling');
  await expect(row(page, name)).toContainText('Bring X-rays');
  // A Cavity Filling's length, 60 minutes, came with it.
  await expect(row(page, name)).toContainText(`${time}–11:00`);

  // A visit still to come cannot be marked completed; cancelled, Cancel is disabled.
  await expect(page.getByRole('button', { name: `Complete appointment of ${name}` })).toBeDisabled();
  await page.getByRole('button', { name: `Cancel appointment of ${name}` }).click();
  await expect(row(page, name)).toContainText('cancelled');
  await expect(page.getByRole('button', { name: `Cancel appointment of ${name}` })).toBeDisabled();

  // Deleted after a confirmation.
  await page.getByRole('button', { name: `Delete appointment of ${name}` }).click();
  await expect(page.getByText(/Are you sure you want to delete the appointment of/)).toBeVisible();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByText(`The appointment of ${name} was deleted`)).toBeVisible();
  await expect(row(page, name)).toHaveCount(0);
});

test("a visit booked for today as an emergency is completed by its dentist; the dashboard's list and count follow", async ({
  page,
  request,
  journey,
}) => {
  test.setTimeout(120_000);
  const name = unique('Theo');
  // The journey's own dentist, signed in with an account of their own: today's count is theirs alone.
  const dentist = await journey.dentist({ first: 'Tia' });
  await signInByApi(page, await journey.dentistAccount(dentist));
  await page.goto('/');
  const todayCount = page.getByTestId("stat-Today's Appointments").locator('.ant-statistic-content-value');
  await expect(todayCount).toBeVisible();
  const before = Number(await todayCount.textContent());

  // The dentist's booking form has their own dentist chosen, and offers them no emergency booking.
  await page.goto('/appointments?new=1');
  const form = bookingForm(page);
  await expect(selectionOf(form.getByRole('combobox', { name: 'Dentist' }))).toHaveAttribute(
    'title',
    dentist.name,
  );
  await expect(form.getByRole('checkbox', { name: 'Book outside open hours (emergency)' })).toHaveCount(0);
  await form.getByRole('button', { name: 'Cancel' }).click();

  // The front desk books the dentist today's last visit, at 23:50 as an emergency: whatever the hour
  // or the day the journey runs, it is today and outside open hours.
  const signedIn = await request.post('/auth/login', {
    data: { username: 'receptionist', password: 'receptionist123', remember: false },
  });
  const headers = { authorization: `Bearer ${(await signedIn.json()).access_token as string}` };
  const booked = await request.post('/api/appointments', {
    headers,
    data: {
      patient: name,
      phone: '555-0190',
      dentist_id: dentist.id,
      date: dayFromToday(0),
      time: '23:50',
      duration: 5,
      treatment: 'Dental Checkup',
      outside_hours: true,
      outside_hours_reason: 'Emergency after hours',
    },
  });
  expect(booked.status()).toBe(201);

  await page.getByRole('menuitem', { name: 'Dashboard' }).click();
  const today = page.getByRole('list', { name: "Today's appointments" });
  await expect(today.getByText(name)).toBeVisible();
  await expect(todayCount).toHaveText(String(before + 1));

  // Today's visit, once seen, is marked completed: it still counts.
  await page.goto(`/appointments?search=${encodeURIComponent(name)}`);
  await page.getByRole('button', { name: `Complete appointment of ${name}` }).click();
  await expect(row(page, name)).toContainText('completed');
  await expect(page.getByRole('button', { name: `Complete appointment of ${name}` })).toBeDisabled();
  await page.getByRole('menuitem', { name: 'Dashboard' }).click();
  await expect(today.getByText(name)).toBeVisible();
  await expect(todayCount).toHaveText(String(before + 1));

  // Cancelled: it leaves the count and is listed apart.
  await page.goto(`/appointments?search=${encodeURIComponent(name)}`);
  await page.getByRole('button', { name: `Cancel appointment of ${name}` }).click();
  await expect(row(page, name)).toContainText('cancelled');
  await page.getByRole('menuitem', { name: 'Dashboard' }).click();
  await expect(
    page.getByRole('list', { name: 'Cancelled today, not counted' }).getByText(name),
  ).toBeVisible();
  await expect(todayCount).toHaveText(String(before));

  // A row of today's list opens that appointment.
  await page.getByRole('list', { name: 'Cancelled today, not counted' }).getByText(name).click();
  await expect(page).toHaveURL(/\/appointments\?/);
  await expect(row(page, name)).toContainText('cancelled');
});
