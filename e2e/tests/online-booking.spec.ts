import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { MAIL_SINK_URL } from '../playwright.config';
import { expect, type Page, test } from './fixtures';
import { signInByApi, workdayFromToday } from './helpers';
import type { Journey, JourneyDentist } from './journeyData';

/**
 * A patient books, confirms, moves and cancels online (docs/product.md, Online booking), in a
 * browser with no staff sign-in, at phone and desktop width: the clinic's page, the code from the
 * e-mail (read from the local mail server), the visit at the desk, and the manage link.
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

/** The clinic offers checkups online, to new and returning patients, two hours' notice, 24 hours' cut-off. */
async function turnOnlineBookingOn(page: Page, journey: Journey) {
  const answer = await page.request.put('/api/settings', {
    headers: { authorization: `Bearer ${await journey.adminToken()}` },
    data: {
      onlineBooking: {
        enabled: true,
        noticeHours: 2,
        horizonDays: 60,
        cutoffHours: 24,
        maxOpenPerContact: 10,
        visitTypes: [{ treatment: 'Dental Checkup', newPatients: true, returningPatients: true }],
      },
    },
  });
  expect(answer.status()).toBe(200);
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

for (const width of [360, 1280] as const) {
  test(`a new patient books online at ${width} px with the code from the e-mail, and manages the visit`, async ({
    page,
    browser,
    journey,
  }) => {
    test.setTimeout(120_000);
    await turnOnlineBookingOn(page, journey);
    const dentist = await journey.dentist({ first: `Online${width}` });
    const date = workdayFromToday(4, dentist.workingDays);
    const patient = {
      name: journey.name('Robin', 'Booker'),
      email: `robin.${journey.tag}@patients.example`,
      phone: `555-07${String(width).slice(0, 2)}`,
    };

    // The patient: a browser of their own, no staff sign-in.
    const context = await browser.newContext({ viewport: { width, height: 900 }, reducedMotion: 'reduce' });
    const visitor = await context.newPage();
    await visitor.goto(BOOKING_PAGE);
    await expect(visitor.getByText('Bright Smile Dental', { exact: true })).toBeVisible();
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
    await visitor.getByLabel('Full name').fill(patient.name);
    await visitor.getByLabel('Phone').fill(patient.phone);
    await visitor.getByLabel('E-mail').fill(patient.email);
    await visitor.getByLabel('Date of birth').fill('1991-05-06');
    await visitor.getByRole('button', { name: 'Send me a code' }).click();
    await expect(visitor.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
    await expectNoViolations(visitor, `booking page, code, ${width}`);

    const codeMail = await mailMatching(visitor, patient.email, /Your code is \d{6}/);
    const code = /Your code is (\d{6})/.exec(codeMail)?.[1] ?? '';
    await visitor.getByLabel('6-digit code').fill(code === '000000' ? '000001' : '000000');
    await visitor.getByRole('button', { name: 'Book the visit' }).click();
    await expect(visitor.getByText('That code is not right: 4 tries left')).toBeVisible();
    await visitor.getByLabel('6-digit code').fill(code);
    await visitor.getByRole('button', { name: 'Book the visit' }).click();
    await expect(visitor.getByRole('heading', { name: 'Your visit is booked' })).toBeVisible();
    await expect(visitor.getByText(dentist.name)).toBeVisible();
    await expectNoViolations(visitor, `booking page, booked, ${width}`);

    // The confirmation: the visit, the clinic, a calendar file and the private manage link.
    const confirmation = await mailMatching(visitor, patient.email, /book\/manage\//);
    expect(confirmation).toContain(`is booked on ${date} from ${first}`);
    expect(confirmation).toContain('120 Harbour Street, Springfield');
    expect(confirmation).toMatch(
      /Content-Type: text\/calendar[^\n]*\n(?:[^\n]+\n)*?[^\n]*filename="?visit\.ics/i,
    );
    const manageUrl = /(https?:\/\/\S+\/book\/manage\/[A-Za-z0-9_-]+)/.exec(confirmation)?.[1] ?? '';
    expect(manageUrl).not.toBe('');

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
