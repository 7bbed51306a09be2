import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Browser } from '@playwright/test';
import { MAIL_SINK_URL } from '../playwright.config';
import { expect, type Page, test } from './fixtures';
import { expectScreen, signInByApi, turnOnlineBookingOn, workdayFromToday } from './helpers';
import type { JourneyDentist } from './journeyData';

/**
 * A patient books, confirms, moves and cancels online (docs/product.md, Online booking), in a
 * browser with no staff sign-in, at phone and desktop width: the clinic's page, the code from the
 * e-mail (read from the local mail server), the visit at the desk, and the manage link. The desk
 * sees an online booking live; a returning patient is matched; a partial match and a refusal inside
 * the cut-off reach the desk's Requests.
 */
const BOOKING_PAGE = '/book/bright-smile-dental';
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

async function expectNoViolations(page: Page, state: string) {
  const { violations } = await new AxeBuilder({ page, axeSource: AXE_SOURCE }).withTags(WCAG_TAGS).analyze();
  const found = violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')} (${violation.help})`),
  );
  expect(found, state).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${state} scrolls sideways by ${overflow} px`).toBeLessThanOrEqual(0);
}

/** A mail as sent: quoted-printable lines unfolded and decoded. */
function decoded(raw: string): string {
  const unfolded = raw.replace(/=\r?\n/g, '');
  const bytes = unfolded.replace(/=([0-9A-F]{2})/g, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

async function mailsTo(page: Page, address: string): Promise<string[]> {
  const response = await page.request.get(`${MAIL_SINK_URL}/messages`);
  const mails = (await response.json()) as Array<{ to: string[]; raw: string }>;
  return mails.filter((mail) => mail.to.includes(address)).map((mail) => decoded(mail.raw));
}

/** The mail to `address` whose text matches `pattern`, once it has arrived. */
async function mailMatching(page: Page, address: string, pattern: RegExp): Promise<string> {
  let found = '';
  await expect
    .poll(async () => {
      found = (await mailsTo(page, address)).find((mail) => pattern.test(mail)) ?? '';
      return found;
    })
    .toMatch(pattern);
  return found;
}

/** Chooses the journey's dentist and a day of theirs on the booking page, and waits for its free times. */
async function chooseDentistAndDay(page: Page, dentist: JourneyDentist, date: string) {
  await page.getByLabel('Dentist').selectOption({ label: dentist.name });
  await page.getByLabel('Day', { exact: true }).fill(date);
  await expect(page.getByRole('heading', { name: /^Free times on / })).toBeVisible();
  return page.getByRole('list').getByRole('button');
}

/** Who books online, as they type it on the booking page. */
interface OnlineContact {
  name: string;
  phone: string;
  email: string;
  dateOfBirth: string;
}

/** A browser of the patient's own (no staff sign-in) on the journey's server, at this width. */
async function patientBrowser(browser: Browser, baseURL: string | undefined, width = 1280) {
  const context = await browser.newContext({
    baseURL,
    viewport: { width, height: 900 },
    reducedMotion: 'reduce',
  });
  return { context, visitor: await context.newPage() };
}

/** Fills the booking page's "Your details". */
async function fillDetails(visitor: Page, contact: OnlineContact) {
  await visitor.getByLabel('Full name').fill(contact.name);
  await visitor.getByLabel('Phone').fill(contact.phone);
  await visitor.getByLabel('E-mail').fill(contact.email);
  await visitor.getByLabel('Date of birth').fill(contact.dateOfBirth);
}

/** The 6-digit code mailed to `address`, once it has arrived. */
async function codeMailedTo(visitor: Page, address: string): Promise<string> {
  const mail = await mailMatching(visitor, address, /Your code is \d{6}/);
  return /Your code is (\d{6})/.exec(mail)?.[1] ?? '';
}

/** The confirmation mailed to `address` and the manage link it carries, once it has arrived. */
async function confirmationMailedTo(visitor: Page, address: string) {
  const mail = await mailMatching(visitor, address, /book\/manage\//);
  const manageUrl = /(https?:\/\/\S+\/book\/manage\/[A-Za-z0-9_-]+)/.exec(mail)?.[1] ?? '';
  expect(manageUrl, `manage link in ${mail}`).not.toBe('');
  return { mail, manageUrl };
}

/**
 * Books the first free time of the dentist's day on the booking page, as `contact`, with the code
 * from the e-mail; answers the time booked and the visit's manage link (its path).
 */
async function bookOnline(
  visitor: Page,
  dentist: JourneyDentist,
  date: string,
  contact: OnlineContact,
): Promise<{ time: string; managePath: string }> {
  await visitor.goto(BOOKING_PAGE);
  await expect(visitor.getByRole('heading', { name: 'Book a visit', level: 1 })).toBeVisible();
  const times = await chooseDentistAndDay(visitor, dentist, date);
  await expect(times.first()).toBeVisible();
  const time = ((await times.first().textContent()) ?? '').trim();
  await times.first().click();
  await expect(visitor.getByRole('heading', { name: 'Your details' })).toBeVisible();
  await fillDetails(visitor, contact);
  await visitor.getByRole('button', { name: 'Send me a code' }).click();
  await expect(visitor.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
  await visitor.getByLabel('6-digit code').fill(await codeMailedTo(visitor, contact.email));
  await visitor.getByRole('button', { name: 'Book the visit' }).click();
  await expect(visitor.getByRole('heading', { name: 'Your visit is booked' })).toBeVisible();
  const { manageUrl } = await confirmationMailedTo(visitor, contact.email);
  return { time, managePath: new URL(manageUrl).pathname };
}

/** A phone number no other patient of the clinic has (the desk matches patients by its digits). */
const ownPhone = () => `555-${String(Date.now()).slice(-7)}`;

/** Reads through the API as the staff member of `token`; answers the body of a 200. */
async function readByApi<Body>(page: Page, token: string, path: string, params = {}): Promise<Body> {
  const answer = await page.request.get(path, { headers: { authorization: `Bearer ${token}` }, params });
  expect(answer.status(), `${path}: ${await answer.text()}`).toBe(200);
  return (await answer.json()) as Body;
}

interface VisitAtDesk {
  id: number;
  patient: string;
  patient_id: number;
  date: string;
  time: string;
  status: string;
  source: string;
}

/** The journey's dentist's visits, as the desk's API lists them. */
async function visitsOf(page: Page, token: string, dentist: JourneyDentist): Promise<VisitAtDesk[]> {
  const found = await readByApi<{ data: VisitAtDesk[] }>(page, token, '/api/appointments', {
    dentist_id: dentist.id,
  });
  return found.data;
}

/** A patient's record as the desk reads it, without what follows from their visits. */
async function patientRecord(page: Page, token: string, id: number) {
  const {
    nextAppointment: _next,
    lastVisit: _last,
    ...record
  } = await readByApi<Record<string, unknown>>(page, token, `/api/patients/${id}`);
  return record;
}

/** The desk's patients whose name, phone or e-mail match `search`, by name. */
async function patientsFound(page: Page, token: string, search: string): Promise<string[]> {
  const found = await readByApi<{ data: Array<{ name: string }> }>(page, token, '/api/patients', { search });
  return found.data.map((patient) => patient.name);
}

/** A card of the Requests screen, by the name of who asked. */
const requestCard = (page: Page, name: string) => page.locator('.ant-card').filter({ hasText: name });

for (const width of [360, 1280] as const) {
  test(`a new patient books online at ${width} px with the code from the e-mail, and manages the visit`, async ({
    page,
    browser,
    baseURL,
    journey,
  }) => {
    test.setTimeout(120_000);
    await turnOnlineBookingOn(page, journey);
    // The clinic as its page shows it now: another journey of this server may have renamed it.
    const clinic = (await (
      await page.request.get(`/public/clinics/${BOOKING_PAGE.split('/').pop()}`)
    ).json()) as {
      name: string;
      address: string;
    };
    const dentist = await journey.dentist({ first: `Online${width}` });
    const date = workdayFromToday(4, dentist.workingDays);
    const patient = {
      name: journey.name('Robin', 'Booker'),
      email: `robin.${journey.tag}@patients.example`,
      phone: `555-07${String(width).slice(0, 2)}`,
      dateOfBirth: '1991-05-06',
    };

    // The patient: a browser of their own, no staff sign-in.
    const { context, visitor } = await patientBrowser(browser, baseURL, width);
    await visitor.goto(BOOKING_PAGE);
    await expect(visitor.getByText(clinic.name, { exact: true })).toBeVisible();
    await expect(visitor.getByRole('heading', { name: 'Book a visit', level: 1 })).toBeVisible();
    await expect(visitor.getByRole('radio', { name: /Dental Checkup/ })).toBeChecked();
    const times = await chooseDentistAndDay(visitor, dentist, date);
    await expect(times.first()).toBeVisible();
    await expectNoViolations(visitor, `booking page, times, ${width}`);
    const first = ((await times.first().textContent()) ?? '').trim();
    await times.first().click();

    // Held for the patient: their details, checked before anything is sent.
    await expect(visitor.getByRole('heading', { name: 'Your details' })).toBeVisible();
    await expect(
      visitor.getByText(`We are holding ${first} for you`, { exact: false }).first(),
    ).toBeVisible();
    await visitor.getByRole('button', { name: 'Send me a code' }).click();
    await expect(visitor.getByText('Enter a valid e-mail address')).toBeVisible();
    await expectNoViolations(visitor, `booking page, details refused, ${width}`);
    await fillDetails(visitor, patient);
    await visitor.getByRole('button', { name: 'Send me a code' }).click();
    await expect(visitor.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
    await expectNoViolations(visitor, `booking page, code, ${width}`);

    const code = await codeMailedTo(visitor, patient.email);
    await visitor.getByLabel('6-digit code').fill(code === '000000' ? '000001' : '000000');
    await visitor.getByRole('button', { name: 'Book the visit' }).click();
    await expect(visitor.getByText('That code is not right: 4 tries left')).toBeVisible();
    await visitor.getByLabel('6-digit code').fill(code);
    await visitor.getByRole('button', { name: 'Book the visit' }).click();
    await expect(visitor.getByRole('heading', { name: 'Your visit is booked' })).toBeVisible();
    await expect(visitor.getByText(dentist.name)).toBeVisible();
    await expectNoViolations(visitor, `booking page, booked, ${width}`);

    // The confirmation: the visit, the clinic, a calendar file and the private manage link.
    const { mail: confirmation, manageUrl } = await confirmationMailedTo(visitor, patient.email);
    expect(confirmation).toContain(`is booked on ${date} from ${first}`);
    expect(confirmation).toContain(clinic.address);
    expect(confirmation).toMatch(
      /Content-Type: text\/calendar[^\n]*\n(?:[^\n]+\n)*?[^\n]*filename="?visit\.ics/i,
    );

    // At the desk: the visit is there, pending, for a new patient, marked as booked online.
    const token = await signInByApi(page, 'receptionist');
    const found = await page.request.get('/api/appointments', {
      headers: { authorization: `Bearer ${token}` },
      params: { search: patient.name },
    });
    const visits = ((await found.json()) as { data: Array<Record<string, unknown>> }).data;
    expect(visits).toEqual([
      expect.objectContaining({
        patient: patient.name,
        date,
        time: first,
        status: 'pending',
        source: 'online',
      }),
    ]);

    // The manage link: confirm, move to another free time with the same dentist, cancel.
    await visitor.goto(new URL(manageUrl).pathname);
    await expect(visitor.getByRole('heading', { name: 'Hello Robin' })).toBeVisible();
    await expect(visitor.getByText('Booked, not yet confirmed')).toBeVisible();
    await expectNoViolations(visitor, `manage page, ${width}`);
    await visitor.getByRole('button', { name: 'Confirm' }).click();
    await expect(visitor.getByText('Thank you: your visit is confirmed')).toBeVisible();
    await expect(visitor.getByText('Confirmed', { exact: true })).toBeVisible();

    await visitor.getByRole('button', { name: 'Move' }).click();
    const moveTimes = visitor
      .getByRole('region', { name: 'Move the visit' })
      .getByRole('list')
      .getByRole('button');
    await visitor.getByLabel('New day').fill(date);
    const later = moveTimes.filter({ hasNotText: first }).last();
    await expect(later).toBeVisible();
    const newTime = ((await later.textContent()) ?? '').trim();
    await later.click();
    await visitor.getByRole('button', { name: 'Yes, move my visit' }).click();
    await expect(visitor.getByText('Your visit is moved')).toBeVisible();
    await expect(visitor.getByText(new RegExp(`^${newTime} to `))).toBeVisible();

    await visitor.getByRole('button', { name: 'Cancel' }).click();
    await visitor.getByRole('button', { name: 'Yes, cancel the visit' }).click();
    await expect(visitor.getByText('Your visit is cancelled')).toBeVisible();
    await expect(visitor.getByRole('link', { name: 'Book another visit' })).toHaveAttribute(
      'href',
      BOOKING_PAGE,
    );
    await context.close();

    // At the desk, each time the patient freed waits in Requests, to offer to the waitlist: the one
    // the move left, and the one the cancellation left.
    await page.goto('/requests');
    await expectScreen(page, 'Requests');
    const freed = requestCard(page, patient.name);
    const leftByMove = freed.filter({ hasText: `Wanted to move to ${date} ${newTime}` });
    const leftByCancel = freed.filter({ hasText: 'Wanted to cancel' });
    await expect(leftByMove).toContainText('Freed online: a time to fill');
    await expect(leftByMove).toContainText(
      new RegExp(`Free: [^\\n]*, ${first}–\\d\\d:\\d\\d with ${dentist.name}`),
    );
    await expect(leftByCancel).toContainText(`${newTime}: Dental Checkup with ${dentist.name} (cancelled)`);
    await leftByMove.getByRole('button', { name: `Fill the time ${patient.name} freed` }).click();
    await expect(page.getByText(new RegExp(`^Fill this time: .*${first}`))).toBeVisible();
    await page.getByRole('button', { name: 'Close Fill this time' }).click();
    for (const card of [leftByMove, leftByCancel]) {
      await card.getByRole('button', { name: `Done with the time ${patient.name} freed` }).click();
      await expect(card).toHaveCount(0);
    }
    await expect(freed).toHaveCount(0);
  });
}

test('a clinic that switches the booking module off shows the same page as a clinic unknown', async ({
  page,
  journey,
}) => {
  await turnOnlineBookingOn(page, journey);
  const headers = { authorization: `Bearer ${await journey.adminToken()}` };
  const off = await page.request.put('/api/modules/booking', { headers, data: { enabled: false } });
  expect(off.status()).toBe(200);
  try {
    const closed = await page.goto(BOOKING_PAGE);
    expect(closed?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Online booking is not available here' })).toBeVisible();
    const unknown = await page.goto('/book/no-such-clinic');
    expect(unknown?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Online booking is not available here' })).toBeVisible();
  } finally {
    await page.request.put('/api/modules/booking', { headers, data: { enabled: true } });
  }
  const open = await page.goto(BOOKING_PAGE);
  expect(open?.status()).toBe(200);
  await expect(page.getByRole('heading', { name: 'Book a visit', level: 1 })).toBeVisible();
});

test('the desk sees a visit booked online arrive live, tagged Online, and its confirmation by the patient', async ({
  page,
  browser,
  baseURL,
  journey,
}) => {
  test.setTimeout(120_000);
  await turnOnlineBookingOn(page, journey);
  const dentist = await journey.dentist({ first: 'Live' });
  const date = workdayFromToday(6, dentist.workingDays);
  const contact = {
    name: journey.name('Lena', 'Online'),
    phone: ownPhone(),
    email: `lena.${journey.tag}@patients.example`,
    dateOfBirth: '1988-02-14',
  };

  // The receptionist has the Appointments screen open, searched for the patient: nothing yet.
  await signInByApi(page, 'receptionist');
  await page.goto(`/appointments?search=${encodeURIComponent(contact.name)}`);
  await expectScreen(page, 'Appointments');
  await expect(page.getByText('No appointments match these filters')).toBeVisible();
  // Gone if the screen were loaded again: what shows next came without a reload.
  await page.evaluate(() => Object.assign(window, { deskNotReloaded: true }));

  // The patient books in a browser of their own.
  const { context, visitor } = await patientBrowser(browser, baseURL);
  const { time, managePath } = await bookOnline(visitor, dentist, date, contact);

  // At the desk: the visit, pending, with the Online tag.
  const row = page.getByRole('row').filter({ hasText: contact.name });
  await expect(row).toBeVisible();
  await expect(row).toContainText(dentist.name);
  await expect(row).toContainText(time);
  await expect(row.getByText('pending', { exact: true })).toBeVisible();
  const online = row.getByText('Online', { exact: true });
  await expect(online).toBeVisible();
  await expect(online).toHaveAttribute('aria-label', 'Booked by the patient online');
  await expect(page.getByText('No appointments match these filters')).toBeHidden();

  // The patient confirms from the manage link: the desk's row says so, still without a reload.
  await visitor.goto(managePath);
  await visitor.getByRole('button', { name: 'Confirm' }).click();
  await expect(visitor.getByText('Thank you: your visit is confirmed')).toBeVisible();
  await expect(row.getByText('confirmed', { exact: true })).toBeVisible();
  await expect(online).toHaveAttribute('aria-label', 'Booked and confirmed by the patient online');
  expect(await page.evaluate(() => 'deskNotReloaded' in window)).toBe(true);
  await context.close();

  // The calendar's Day view marks the visit's block as booked online too.
  await page.goto(`/calendar?view=day&day=${date}&dentist=${dentist.id}`);
  const block = page.getByRole('button', { name: new RegExp(`^${time}–\\d\\d:\\d\\d ${contact.name}, `) });
  await expect(block).toHaveAccessibleName(/, confirmed, booked and confirmed by the patient online$/);
  await expect(block.getByText('Online', { exact: true })).toBeVisible();
});

test('a returning patient who books online with their own details is matched: the visit is theirs, and their record is as it was', async ({
  page,
  browser,
  baseURL,
  journey,
}) => {
  test.setTimeout(120_000);
  await turnOnlineBookingOn(page, journey);
  const dentist = await journey.dentist({ first: 'Match' });
  const date = workdayFromToday(8, dentist.workingDays);
  const dateOfBirth = '1979-11-23';
  const patient = await journey.patient('Rosa', 'Return', { phone: ownPhone(), dateOfBirth });
  const token = await signInByApi(page, 'receptionist');
  const before = await patientRecord(page, token, patient.id);

  // Exactly the details the clinic has for them.
  const { context, visitor } = await patientBrowser(browser, baseURL);
  const { time } = await bookOnline(visitor, dentist, date, {
    name: patient.name,
    phone: patient.phone,
    email: patient.email,
    dateOfBirth,
  });
  await context.close();

  // At the desk: the visit is in the patient's own record, tagged Online.
  await page.goto(`/patients?patient=${patient.id}`);
  const details = page.getByRole('dialog', { name: patient.name });
  const visit = details
    .getByRole('list', { name: `Appointments of ${patient.name}` })
    .getByRole('listitem')
    .filter({ hasText: dentist.name });
  await expect(visit).toContainText(time);
  await expect(visit.getByText('Online', { exact: true })).toBeVisible();
  await expect(visit.getByText('pending', { exact: true })).toBeVisible();
  expect(await visitsOf(page, token, dentist)).toEqual([
    expect.objectContaining({
      patient: patient.name,
      patient_id: patient.id,
      date,
      time,
      status: 'pending',
      source: 'online',
    }),
  ]);

  // Nothing changed: the record is as it was, no other record has their e-mail, nothing waits in Requests.
  expect(await patientRecord(page, token, patient.id)).toEqual(before);
  expect(await patientsFound(page, token, patient.phone)).toEqual([patient.name]);
  const open = await readByApi<{ data: Array<{ contact: { email: string } }> }>(
    page,
    token,
    '/api/booking-requests',
    { state: 'open', limit: 100 },
  );
  expect(open.data.filter((request) => request.contact.email === patient.email)).toEqual([]);
});

test("an online booking with a patient's e-mail but not their name or birth date lands in Requests, and the desk links it to that patient", async ({
  page,
  browser,
  baseURL,
  journey,
}) => {
  test.setTimeout(120_000);
  await turnOnlineBookingOn(page, journey);
  const dentist = await journey.dentist({ first: 'Part' });
  const date = workdayFromToday(10, dentist.workingDays);
  const dateOfBirth = '1983-07-19';
  const patient = await journey.patient('Patricia', 'Partial', { phone: ownPhone(), dateOfBirth });
  const token = await signInByApi(page, 'receptionist');
  const before = await patientRecord(page, token, patient.id);
  // The patient's e-mail and phone, another name and another birth date.
  const contact = {
    name: journey.name('Pat', 'Partial'),
    phone: patient.phone,
    email: patient.email,
    dateOfBirth: '1983-07-20',
  };

  const { context, visitor } = await patientBrowser(browser, baseURL);
  const { time } = await bookOnline(visitor, dentist, date, contact);
  await context.close();

  // Booked, but not for the patient's record, which is untouched.
  const [booked] = await visitsOf(page, token, dentist);
  expect(booked).toEqual(
    expect.objectContaining({ patient: contact.name, date, time, status: 'pending', source: 'online' }),
  );
  expect(booked?.patient_id).not.toBe(patient.id);
  expect(await patientRecord(page, token, patient.id)).toEqual(before);

  // Requests: the unmatched visit, with what was given.
  await page.goto('/requests');
  await expectScreen(page, 'Requests');
  const card = requestCard(page, contact.name);
  await expect(card).toContainText('Booked online, patient not matched');
  await expect(card.getByText('Not matched', { exact: true })).toBeVisible();
  await expect(card).toContainText(`${contact.phone} · ${contact.email} · born ${contact.dateOfBirth}`);
  await expect(card).toContainText(`${time}: Dental Checkup with ${dentist.name} (pending)`);

  // The receptionist links it to the patient it is.
  await card.getByRole('button', { name: `Link the visit of ${contact.name} to a patient` }).click();
  const dialog = page.getByRole('dialog', { name: `Link the visit of ${contact.name}` });
  await dialog
    .getByRole('radio', { name: `${patient.name} · ${patient.phone} · born ${dateOfBirth}` })
    .check();
  await dialog.getByRole('button', { name: 'Link', exact: true }).click();
  await expect(page.getByText(`${contact.name}: linked to a patient`)).toBeVisible();
  await expect(card).toHaveCount(0);
  await page.goto('/requests?state=closed');
  await expectScreen(page, 'Requests');
  await expect(requestCard(page, contact.name)).toContainText('Linked to a patient');

  // The visit is the patient's; their record is as it was; the record made from the request is gone.
  expect(await visitsOf(page, token, dentist)).toEqual([
    expect.objectContaining({
      id: booked?.id,
      patient: patient.name,
      patient_id: patient.id,
      source: 'online',
    }),
  ]);
  expect(await patientRecord(page, token, patient.id)).toEqual(before);
  expect(await patientsFound(page, token, patient.phone)).toEqual([patient.name]);
  await page.goto(`/patients?patient=${patient.id}`);
  const visit = page
    .getByRole('dialog', { name: patient.name })
    .getByRole('list', { name: `Appointments of ${patient.name}` })
    .getByRole('listitem')
    .filter({ hasText: dentist.name });
  await expect(visit).toContainText(time);
  await expect(visit.getByText('Online', { exact: true })).toBeVisible();
});

test('inside the cut-off the manage page offers no move, and "I can\'t come" asks the clinic to call, which the desk sees in Requests', async ({
  page,
  browser,
  baseURL,
  journey,
}) => {
  test.setTimeout(120_000);
  await turnOnlineBookingOn(page, journey);
  const admin = await journey.adminToken();
  const headers = { authorization: `Bearer ${admin}` };
  const settings = await readByApi<{ phone: string; onlineBooking: Record<string, unknown> }>(
    page,
    admin,
    '/api/settings',
  );
  // A week's cut-off: a visit a few days ahead is inside it, whatever the time of day.
  const cutoffHours = 168;
  const widened = await page.request.put('/api/settings', {
    headers,
    data: { onlineBooking: { ...settings.onlineBooking, cutoffHours } },
  });
  expect(widened.status(), await widened.text()).toBe(200);
  try {
    const dentist = await journey.dentist({ first: 'Cutoff' });
    const date = workdayFromToday(2, dentist.workingDays);
    const contact = {
      name: journey.name('Cora', 'Late'),
      phone: ownPhone(),
      email: `cora.${journey.tag}@patients.example`,
      dateOfBirth: '1990-12-01',
    };
    const { context, visitor } = await patientBrowser(browser, baseURL, 360);
    const { time, managePath } = await bookOnline(visitor, dentist, date, contact);

    // The manage page: no Move, no Cancel, the clinic's phone to call instead.
    await visitor.goto(managePath);
    await expect(visitor.getByRole('heading', { name: 'Hello Cora' })).toBeVisible();
    await expect(visitor.getByText('Booked, not yet confirmed')).toBeVisible();
    await expect(
      visitor.getByText(
        `Visits can be moved or cancelled online up to ${cutoffHours} hours before. To change this one, please call us on ${settings.phone}.`,
      ),
    ).toBeVisible();
    await expect(visitor.getByRole('button', { name: "I can't come" })).toBeVisible();
    await expect(visitor.getByRole('button', { name: 'Move', exact: true })).toHaveCount(0);
    await expect(visitor.getByRole('button', { name: 'Cancel', exact: true })).toHaveCount(0);
    await expectNoViolations(visitor, 'manage page inside the cut-off');

    // "I can't come": the visit stays, and the clinic will call.
    await visitor.getByRole('button', { name: "I can't come" }).click();
    await expect(visitor.getByText('Ask the clinic to call you about this visit?')).toBeVisible();
    await visitor.getByRole('button', { name: 'Yes, ask them to call me' }).click();
    await expect(visitor.getByRole('status').filter({ hasText: 'call' })).toHaveText(
      `Visits can be moved or cancelled online up to ${cutoffHours} hours before: please call us on ${settings.phone}. We have asked the clinic to call you.`,
    );
    await expect(visitor.getByText('Booked, not yet confirmed')).toBeVisible();
    await expectNoViolations(visitor, 'manage page, asked to be called');
    await context.close();

    // At the desk: the visit is still there, and a request to call the patient waits in Requests.
    const token = await signInByApi(page, 'receptionist');
    expect(await visitsOf(page, token, dentist)).toEqual([
      expect.objectContaining({ patient: contact.name, date, time, status: 'pending', source: 'online' }),
    ]);
    await page.goto('/requests');
    await expectScreen(page, 'Requests');
    const card = requestCard(page, contact.name);
    await expect(card).toContainText('Please call');
    await expect(card.getByText('Call', { exact: true })).toBeVisible();
    await expect(card).toContainText('Wanted to cancel');
    await expect(card).toContainText(contact.phone);
    await expect(card).toContainText(`${time}: Dental Checkup with ${dentist.name} (pending)`);
    await card.getByRole('button', { name: `${contact.name} was called back` }).click();
    await expect(page.getByText(`${contact.name}: called back`)).toBeVisible();
    await expect(card).toHaveCount(0);
  } finally {
    const restored = await page.request.put('/api/settings', {
      headers,
      data: { onlineBooking: settings.onlineBooking },
    });
    expect(restored.status(), await restored.text()).toBe(200);
  }
});
