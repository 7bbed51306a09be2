import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { Secret, TOTP } from 'otpauth';
import { expect, type Page, test } from './fixtures';
import {
  type AccountName,
  bookByApi,
  expectScreen,
  signInByApi,
  userMenu,
  weekdayFromToday,
} from './helpers';
import type { Journey } from './journeyData';

/**
 * axe-core's WCAG 2.0, 2.1 and 2.2 A and AA rules on every screen as each role meets it, at desktop
 * and phone width, with its forms open: no violation. Each state checked is printed.
 */
// Each check stands alone (signed in through the API, its own state): the checks spread over every
// worker, each worker on its own app server.
test.describe.configure({ mode: 'parallel' });

// The app holds its stream of other desks' changes (GET /api/events) open for good, so the network is
// never idle while it is: the sweep judges each screen as read, without the stream (nothing of it shows
// while it connects), and waits for the network to go quiet as before. live-desk.spec.ts tests the stream.
test.beforeEach(async ({ page }) => {
  await page.route('**/api/events', (route) => route.abort());
});

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
const WIDTHS = [1280, 360] as const;
/**
 * axe-core's current release (e2e's own dependency), which runs WCAG 2.5.3 "Label in Name" by default:
 * @axe-core/playwright's releases that bundle it ask for Node 22, this one runs the axe it is given.
 */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

async function expectNoViolations(page: Page, state: string) {
  const { violations } = await new AxeBuilder({ page, axeSource: AXE_SOURCE }).withTags(WCAG_TAGS).analyze();
  const found = violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')} (${violation.help})`),
  );
  console.log(`axe ${state}: ${found.length === 0 ? 'no violation' : `${found.length} violations`}`);
  expect(found, state).toEqual([]);
}

/** WCAG 1.4.10: nothing makes the page itself scroll sideways (tables scroll inside their own box). */
async function expectNoSidewaysScroll(page: Page, state: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${state} scrolls sideways by ${overflow} px`).toBeLessThanOrEqual(0);
}

interface ScreenState {
  path: string;
  heading: string;
  /** Buttons that open the screen's dialogs (the first one so named), and each dialog's title. */
  forms?: Array<{ button: string | RegExp; dialog: string | RegExp }>;
  /**
   * Made through the API before the screen opens: the query that shows it. Today's visits may all be
   * over by the evening, so a visit to move is booked on a day of its own.
   */
  prepare?: (page: Page, token: string, width: number, journey: Journey) => Promise<string>;
}

/** A visit of the check's own dentist (Monday to Friday) and patient on a Tuesday, to move. */
async function bookVisitToMove(page: Page, token: string, width: number, journey: Journey): Promise<string> {
  const date = weekdayFromToday(40, 2);
  const dentist = await journey.dentist({ first: 'Axel' });
  await bookByApi(page, token, {
    patient: journey.name('Axe', `Check${width}`),
    phone: '555-0142',
    dentist: dentist.name,
    date,
    time: '10:00',
    treatment: 'Dental Checkup',
  });
  return `?day=${date}&dentist=${dentist.id}`;
}

/**
 * A 90-minute Root Canal of the check's own dentist on a Tuesday, for the Day view: a block an hour
 * and a half long.
 */
async function bookLongVisit(page: Page, token: string, width: number, journey: Journey): Promise<string> {
  const date = weekdayFromToday(40, 2);
  const dentist = await journey.dentist({ first: 'Axel' });
  await bookByApi(page, token, {
    patient: journey.name('Axe', `Day${width}`),
    phone: '555-0143',
    dentist: dentist.name,
    date,
    time: '11:00',
    treatment: 'Root Canal',
  });
  return `&day=${date}&dentist=${dentist.id}`;
}

const ADMIN_SCREENS: ScreenState[] = [
  { path: '/', heading: 'Dashboard' },
  {
    path: '/appointments',
    heading: 'Appointments',
    forms: [
      { button: 'New Appointment', dialog: 'New Appointment' },
      { button: /^Edit appointment of /, dialog: 'Edit Appointment' },
      { button: /^Delete appointment of /, dialog: /^Delete / },
    ],
  },
  {
    path: '/patients',
    heading: 'Patients',
    forms: [
      { button: 'Add New Patient', dialog: 'Add New Patient' },
      { button: /^View /, dialog: /./ },
      { button: /^Edit /, dialog: 'Edit Patient' },
      { button: /^Delete /, dialog: /^Delete / },
    ],
  },
  {
    path: '/dentists',
    heading: 'Dentists',
    forms: [
      { button: 'Add New Dentist', dialog: 'Add New Dentist' },
      { button: /^Edit /, dialog: 'Edit Dentist' },
      { button: /^Delete /, dialog: /^Delete / },
    ],
  },
  {
    path: '/availability',
    heading: 'Availability',
    forms: [
      { button: 'Add Availability', dialog: 'Add Availability' },
      { button: 'Fill Dates', dialog: 'Fill Dates' },
      { button: /^Edit availability of /, dialog: 'Edit Availability' },
      { button: /^Delete availability of /, dialog: /^Delete / },
    ],
  },
  {
    path: '/calendar',
    heading: 'Calendar',
    forms: [{ button: /^Move appointment of /, dialog: 'Move Appointment' }],
    prepare: bookVisitToMove,
  },
  // The Day view: a column per dentist, each visit a block as long as the visit (the Move dialog is
  // the month view's, checked there).
  { path: '/calendar?view=day', heading: 'Calendar', prepare: bookLongVisit },
  { path: '/calendar?view=week', heading: 'Calendar' },
  { path: '/calendar?day=2030-01-15', heading: 'Calendar' },
  { path: '/appointments?search=zzzzqq', heading: 'Appointments' },
  { path: '/patients?search=zzzzqq', heading: 'Patients' },
  { path: '/dentists?search=zzzzqq', heading: 'Dentists' },
  { path: '/users?search=zzzzqq', heading: 'Users' },
  { path: '/availability?date=2099-01-01', heading: 'Availability' },
  {
    path: '/users',
    heading: 'Users',
    forms: [
      { button: 'Add New User', dialog: 'Add New User' },
      { button: /^Edit /, dialog: 'Edit User' },
      { button: /^Set password of /, dialog: 'Edit User' },
      { button: /^Delete /, dialog: /^Delete / },
    ],
  },
  { path: '/audit', heading: 'Audit' },
  { path: '/audit?action=zzzzqq', heading: 'Audit' },
  {
    path: '/settings',
    heading: 'Settings',
    forms: [
      { button: 'Add recall type', dialog: 'Add recall type' },
      { button: 'Add chair', dialog: 'Add chair' },
      { button: /^Retire /, dialog: /^Retire / },
    ],
  },
  { path: '/settings?tab=notifications', heading: 'Settings' },
  {
    path: '/settings?tab=security',
    heading: 'Settings',
    forms: [{ button: 'Turn on two-step sign-in', dialog: 'Turn on two-step sign-in' }],
  },
  { path: '/settings?tab=backup', heading: 'Settings' },
  { path: '/recall?due=year', heading: 'Recall' },
  {
    path: '/waitlist',
    heading: 'Waitlist',
    forms: [{ button: 'Add to Waitlist', dialog: 'Add to Waitlist' }],
  },
  { path: '/requests', heading: 'Requests' },
  { path: '/requests?state=closed', heading: 'Requests' },
  { path: '/modules', heading: 'Modules' },
];

const ROLE_SCREENS: Record<AccountName, ScreenState[]> = {
  admin: ADMIN_SCREENS,
  receptionist: [
    { path: '/', heading: 'Dashboard' },
    { path: '/appointments', heading: 'Appointments' },
    { path: '/patients', heading: 'Patients' },
    { path: '/recall', heading: 'Recall' },
    { path: '/waitlist', heading: 'Waitlist' },
    { path: '/requests', heading: 'Requests' },
    { path: '/calendar', heading: 'Calendar' },
    { path: '/settings', heading: 'Settings' },
    { path: '/users', heading: 'Access Denied' },
  ],
  dentist: [
    { path: '/', heading: 'Dashboard' },
    { path: '/availability', heading: 'Availability' },
    {
      path: '/calendar',
      heading: 'Calendar',
      forms: [{ button: 'Calendar Feed', dialog: /^Calendar feed of / }],
    },
    { path: '/settings?tab=security', heading: 'Settings' },
    { path: '/dentists', heading: 'Access Denied' },
  ],
  harborAdmin: [],
};

test('the sign-in screen and the 404 page have no WCAG A or AA violation', async ({ page }) => {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expectNoViolations(page, `sign-in at ${width} px`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Please fill in all fields')).toBeVisible();
    await expectNoViolations(page, `sign-in with its error at ${width} px`);
  }
  await signInByApi(page, 'receptionist');
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/no-such-page');
    await expect(page.getByText('/no-such-page')).toBeVisible();
    await expectNoViolations(page, `404 at ${width} px`);
  }
});

test("two-step sign-in's steps have no WCAG A or AA violation", async ({ page, request }) => {
  const codeOf = (key: string, periods = 0) =>
    new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30 }).generate({
      timestamp: Date.now() + periods * 30_000,
    });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const tokenOf = async (username: string, password: string) =>
    (
      (await (await request.post('/auth/login', { data: { username, password } })).json()) as {
        access_token: string;
      }
    ).access_token;
  const admin = await tokenOf('admin', 'admin123');
  const newUser = async (first: string) => {
    const tag = `${first}${Date.now().toString(36)}`;
    const user = { username: `axe.${tag}`, password: 'a-long-secret-of-theirs' };
    const response = await request.post('/api/users', {
      headers: bearer(admin),
      data: { name: `Axe ${tag}`, email: `axe.${tag}@brightsmile.example`, role: 'receptionist', ...user },
    });
    expect(response.status()).toBe(201);
    return user;
  };
  const enterPassword = async (user: { username: string; password: string }) => {
    await page.goto('/login');
    await page.getByLabel('Username or Email').fill(user.username);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };

  // A user with an authenticator on (set up through the API): the code step, its error, a recovery code.
  const withFactor = await newUser('code');
  const token = await tokenOf(withFactor.username, withFactor.password);
  const setup = await request.post('/auth/mfa/totp/setup', {
    headers: bearer(token),
    data: { password: withFactor.password },
  });
  const { secret } = (await setup.json()) as { secret: string };
  expect(
    (
      await request.post('/auth/mfa/totp/enable', { headers: bearer(token), data: { code: codeOf(secret) } })
    ).status(),
  ).toBe(200);
  await enterPassword(withFactor);
  await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
  await expectNoViolationsAtEachWidth(page, 'the code step');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expectNoViolationsAtEachWidth(page, 'the code step with its error');
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await expect(page.getByLabel('Recovery code')).toBeVisible();
  await expectNoViolationsAtEachWidth(page, 'the recovery code step');

  // The clinic requires a factor: the enrolment step, and its recovery codes.
  const reset = () => request.put('/api/settings', { headers: bearer(admin), data: { mfaRequired: 'none' } });
  try {
    expect(
      (await request.put('/api/settings', { headers: bearer(admin), data: { mfaRequired: 'all' } })).status(),
    ).toBe(200);
    await enterPassword(await newUser('enrol'));
    await expect(page.getByTestId('totp-key')).toBeVisible();
    await expectNoViolationsAtEachWidth(page, 'the enrolment step');
    const key = ((await page.getByTestId('totp-key').textContent()) ?? '').replace(/\s/g, '');
    await page.getByLabel('Code from the app').fill(codeOf(key));
    await page.getByRole('button', { name: 'Turn on and continue' }).click();
    await expect(page.getByRole('list', { name: 'Recovery codes' })).toBeVisible();
    await expectNoViolationsAtEachWidth(page, "the enrolment's recovery codes");
  } finally {
    expect((await reset()).status()).toBe(200);
  }
});

/** The screen as `role` meets it at this width: no violation, with each of its forms open in turn. */
async function checkScreen(
  page: Page,
  role: AccountName,
  width: number,
  screen: ScreenState,
  journey: Journey,
) {
  const token = await signInByApi(page, role);
  await page.setViewportSize({ width, height: 900 });
  const query = screen.prepare ? await screen.prepare(page, token, width, journey) : '';
  await page.goto(`${screen.path}${query}`);
  if (screen.heading === 'Access Denied') {
    await expect(page.getByText('Access Denied')).toBeVisible();
  } else {
    await expectScreen(page, screen.heading);
  }
  // What the screen reads arrives before it is judged.
  await page.waitForLoadState('networkidle');
  await expectNoViolations(page, `${role} ${screen.path} at ${width} px`);
  await expectNoSidewaysScroll(page, `${role} ${screen.path} at ${width} px`);
  for (const form of screen.forms ?? []) {
    const opener = page.getByRole('button', { name: form.button, exact: true }).first();
    await expect(opener, `the button that opens '${form.dialog}'`).toBeVisible();
    await opener.click();
    const dialog = page.getByRole('dialog', { name: form.dialog });
    await expect(dialog).toBeVisible();
    await expectNoViolations(page, `${role} ${screen.path} dialog '${form.dialog}' at ${width} px`);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }
  if (screen.path === '/') {
    // The header's menus: recent activity and the account.
    await page.getByRole('button', { name: /^Notifications/ }).click();
    const activity = page.locator('.bell-menu');
    await expect(activity).toBeVisible();
    await expectNoViolations(page, `${role} notifications menu at ${width} px`);
    await page.keyboard.press('Escape');
    await expect(activity).toBeHidden();
    await userMenu(page).click();
    await expect(page.getByRole('menuitem', { name: /Sign out|Logout/ })).toBeVisible();
    await expectNoViolations(page, `${role} user menu at ${width} px`);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menuitem', { name: /Sign out|Logout/ })).toBeHidden();
  }
  if (width < 992 && screen.path === '/') {
    // The phone layout's navigation drawer.
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await expect(page.getByRole('menu', { name: 'Main navigation' }).last()).toBeVisible();
    await expectNoViolations(page, `${role} navigation drawer at ${width} px`);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu', { name: 'Main navigation' }).last()).toBeHidden();
  }
}

// One test per role, width and screen, each signed in through the API: an axe run takes seconds on a
// slow machine, and one test of all the admin's screens at one width took up to eight minutes.
for (const role of ['admin', 'receptionist', 'dentist'] as const) {
  for (const width of WIDTHS) {
    for (const screen of ROLE_SCREENS[role]) {
      test(`${role}: ${screen.path} at ${width} px, with its forms open, has no WCAG A or AA violation`, async ({
        page,
        journey,
      }) => {
        // An axe run a form: a screen with four forms is five runs.
        test.setTimeout(45_000 + 15_000 * (screen.forms?.length ?? 0));
        await checkScreen(page, role, width, screen, journey);
      });
    }
  }
}

// Each width is judged on the same page, resized: the screen gives up on a refused read only after
// its retries (docs/product.md, Constants and limits), seconds that a second page load would wait again for the same state.
test('error banners and sample data have no WCAG A or AA violation', async ({ page }) => {
  test.setTimeout(90_000);
  await signInByApi(page, 'admin');
  await page.route('**/api/dashboard/stats', (route) =>
    route.fulfill({ status: 500, json: { message: 'Database unavailable' } }),
  );
  await page.route('**/api/dentists?*', (route) =>
    route.fulfill({ status: 500, json: { message: 'Database unavailable' } }),
  );
  await page.setViewportSize({ width: WIDTHS[0], height: 900 });
  await page.goto('/');
  // The call is tried again before the screen gives up on it (docs/product.md, Constants and limits: 3 retries).
  await expect(page.getByText('Failed to load dashboard data. Showing sample data.')).toBeVisible({
    timeout: 30_000,
  });
  await expectNoViolationsAtEachWidth(page, "dashboard's error banner");
  await page.goto('/dentists');
  await expect(page.getByText('Failed to load dentists data. Showing sample data.')).toBeVisible({
    timeout: 30_000,
  });
  await expectNoViolationsAtEachWidth(page, "dentists' error banner and sample cards");
});

/** The page as it stands, judged at each width in turn (the viewport resized, not reloaded). */
async function expectNoViolationsAtEachWidth(page: Page, state: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoViolations(page, `${state} at ${width} px`);
    await expectNoSidewaysScroll(page, `${state} at ${width} px`);
  }
}

/** Each screen's own read, refused: the page shows the server's message in its banner with Retry. */
const FAILING_READS = [
  { path: '/appointments', heading: 'Appointments', api: '**/api/appointments?*' },
  { path: '/patients', heading: 'Patients', api: '**/api/patients?*' },
  { path: '/availability', heading: 'Availability', api: '**/api/availability?*' },
  { path: '/calendar', heading: 'Calendar', api: '**/api/calendar/appointments?*' },
  { path: '/users', heading: 'Users', api: '**/api/users?*' },
  { path: '/audit', heading: 'Audit', api: '**/api/audit?*' },
  { path: '/settings', heading: 'Settings', api: '**/api/settings' },
];

for (const screen of FAILING_READS) {
  test(`${screen.path} with its load refused has no WCAG A or AA violation`, async ({ page }) => {
    test.setTimeout(90_000);
    await signInByApi(page, 'admin');
    await page.route(screen.api, (route) =>
      route.request().method() === 'GET'
        ? route.fulfill({ status: 500, json: { message: 'Database unavailable' } })
        : route.continue(),
    );
    await page.setViewportSize({ width: WIDTHS[0], height: 900 });
    await page.goto(screen.path);
    await expectScreen(page, screen.heading);
    // A failed read is tried again before the page gives up on it.
    await expect(page.getByRole('alert').filter({ hasText: 'Database unavailable' })).toBeVisible({
      timeout: 30_000,
    });
    await expectNoViolationsAtEachWidth(page, `${screen.path} with its load refused`);
  });
}

for (const width of [640, 320]) {
  test(`at ${width === 640 ? 200 : 400} % zoom of a 1280 px screen (${width} px) no screen scrolls sideways`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await signInByApi(page, 'admin');
    await page.setViewportSize({ width, height: 640 });
    for (const screen of ADMIN_SCREENS) {
      await page.goto(screen.path);
      await expectScreen(page, screen.heading);
      await page.waitForLoadState('networkidle');
      await expectNoSidewaysScroll(page, `${screen.path} at ${width} px`);
    }
  });
}
