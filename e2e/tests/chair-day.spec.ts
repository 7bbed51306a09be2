import type { APIRequestContext } from '@playwright/test';
import { expect, type Locator, type Page, test } from './fixtures';
import {
  choose,
  escapeRegExp,
  expectScreen,
  openOptions,
  selectionOf,
  signInByApi,
  workdayFromToday,
} from './helpers';

/**
 * One dentist, two chairs, against the real server (docs/product.md, Chairs). The treatment's
 * dentist part (Settings) needs the dentist from minute 10 to 50 of a 60-minute visit, so the
 * journey's dentist runs two chairs at once: a visit at 09:00 in their own chair (dentist 09:10–09:50)
 * and one at 09:45 in a second chair (dentist 09:55–10:35), which a receptionist books from that
 * chair's free time in the calendar's Day view by chair; a third that would need the dentist at 09:40
 * is refused. The Day view shows each visit in its chair with its dentist and the dentist's part; a
 * visit dragged onto a free chair's column moves there (onto a time the dentist is with another
 * patient, it is refused and stays); a chair the admin retires leaves the view at once.
 *
 * The chairs are the clinic's, shared by every journey of the server: the journey makes its own (its
 * dentist's, and two more) and finds each column by its chair's name; they are the last in the
 * clinic's order, so the view is scrolled to them. The dentist part is a clinic setting: it is set on a
 * treatment no other journey books, and put back as it was when the journey ends, pass or fail.
 */

/** No other journey books it: its dentist part, changed for this journey, touches none of theirs. */
const TREATMENT = 'Tooth Extraction';
const PART = { dentistFrom: 10, dentistTo: 50 };

interface ChairRow {
  id: number;
  name: string;
  default_dentist_id: number | null;
  version: number;
}

interface DentistPart {
  dentistFrom: number;
  dentistTo: number;
}

interface SettingsRow {
  treatmentMinutes: Record<string, number>;
  dentistParts: Record<string, DentistPart>;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The clinic's chairs in use, as every role reads them. */
async function chairsOf(request: APIRequestContext, token: string): Promise<ChairRow[]> {
  const answer = await request.get('/api/chairs', { headers: bearer(token) });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { data: ChairRow[] }).data;
}

/** A chair added by the admin, last in the clinic's order; with a default dentist if one is given. */
async function addChair(
  request: APIRequestContext,
  token: string,
  name: string,
  defaultDentistId: number | null = null,
): Promise<ChairRow> {
  const answer = await request.post('/api/chairs', {
    headers: bearer(token),
    data: { name, default_dentist_id: defaultDentistId },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  return (await answer.json()) as ChairRow;
}

/** Retires a chair as the admin, under If-Match with the version it has now; answers the status. */
async function retireChair(request: APIRequestContext, token: string, id: number): Promise<number> {
  const now = (await chairsOf(request, token)).find((chair) => chair.id === id);
  if (!now) return 404;
  const answer = await request.delete(`/api/chairs/${id}`, {
    headers: { ...bearer(token), 'if-match': `"${now.version}"` },
  });
  return answer.status();
}

/** Saves the dentist part of TREATMENT (the other treatments keep theirs). */
async function setPart(request: APIRequestContext, token: string, part: DentistPart) {
  const answer = await request.put('/api/settings', {
    headers: bearer(token),
    data: { dentistParts: { [TREATMENT]: part } },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  expect(((await answer.json()) as SettingsRow).dentistParts[TREATMENT]).toEqual(part);
}

/** A visit booked through the API, in the chair named; answers the server's status and body. */
async function tryBook(
  page: Page,
  token: string,
  visit: { patient: string; dentistId: number; date: string; time: string; chairId: number },
) {
  const answer = await page.request.post('/api/appointments', {
    headers: bearer(token),
    data: {
      patient: visit.patient,
      phone: '555-0161',
      dentist_id: visit.dentistId,
      date: visit.date,
      time: visit.time,
      treatment: TREATMENT,
      chair_id: visit.chairId,
    },
  });
  return {
    status: answer.status(),
    body: (await answer.json()) as {
      message?: string;
      chair_id?: number;
      dentist_from?: number | null;
      dentist_to?: number | null;
    },
  };
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

/** What the journey changed of the clinic's (its setting, its chairs): undone after it, pass or fail. */
const undo: Array<() => Promise<void>> = [];
test.afterEach(async () => {
  for (const step of undo.splice(0).reverse()) await step();
});

test('one dentist runs two chairs with staggered visits; the Day view by chair moves a visit to a free chair and drops a retired one', async ({
  page,
  request,
  journey,
}) => {
  test.setTimeout(120_000);
  const admin = await journey.adminToken();
  const dentist = await journey.dentist({ first: 'Cleo' });
  const day = workdayFromToday(63, dentist.workingDays);
  const first = journey.name('Ava', 'Chair');
  const second = journey.name('Ben', 'Chair');
  const third = journey.name('Cas', 'Chair');

  // The dentist's own chair came with them; the journey adds a second (theirs by default) for the
  // staggered visit, and a third, free, to move a visit into.
  const own = (await chairsOf(request, admin)).find((chair) => chair.default_dentist_id === dentist.id);
  expect(own, `the chair of ${dentist.name}`).toBeTruthy();
  const ownChair = own as ChairRow;
  const side = await addChair(request, admin, `Side ${journey.tag}`, dentist.id);
  const spare = await addChair(request, admin, `Spare ${journey.tag}`);
  // The journey's chairs leave the clinic's list after it (its dentist is deleted after it), so the
  // Day view by chair does not grow with every run. The second is retired by the journey itself.
  undo.push(async () => {
    // A chair holding visits to come is not retired: the journey's visits go first.
    const visits = await request.get(`/api/dentists/${dentist.id}/appointments?date=${day}`, {
      headers: bearer(admin),
    });
    for (const visit of ((await visits.json()) as { data: Array<{ id: number }> }).data)
      await request.delete(`/api/appointments/${visit.id}`, { headers: bearer(admin) });
    for (const chair of [ownChair, side, spare])
      expect([200, 404]).toContain(await retireChair(request, admin, chair.id));
  });

  const settings = (await (
    await request.get('/api/settings', { headers: bearer(admin) })
  ).json()) as SettingsRow;
  expect(settings.treatmentMinutes[TREATMENT]).toBe(60);
  const partBefore = settings.dentistParts[TREATMENT] as DentistPart;
  await setPart(request, admin, PART);
  undo.push(() => setPart(request, admin, partBefore));

  // 09:00 in the dentist's own chair: they are needed 09:10–09:50.
  const desk = await signInByApi(page, 'receptionist');
  const booked = await tryBook(page, desk, {
    patient: first,
    dentistId: dentist.id,
    date: day,
    time: '09:00',
    chairId: ownChair.id,
  });
  expect(booked.status, booked.body.message).toBe(201);
  expect(booked.body).toMatchObject({ chair_id: ownChair.id, dentist_from: 10, dentist_to: 50 });

  // The Day view by chair, on a desk's tall screen: the working day fits, so a drag never has to
  // scroll the page (Playwright's drag and drop does not scroll while dragging).
  await page.setViewportSize({ width: 1280, height: 1400 });
  const byChair = `/calendar?view=day&day=${day}&by=chair`;
  await page.goto(byChair);
  await expectScreen(page, 'Calendar');
  await expect(page.getByRole('radio', { name: 'By chair' })).toBeChecked();
  const column = (chair: ChairRow) =>
    page.getByRole('group', { name: new RegExp(`^${escapeRegExp(chair.name)}, `) });
  const block = (chair: ChairRow, range: string, patient: string, part: string) =>
    column(chair).getByRole('button', {
      name: new RegExp(
        `^${range} ${escapeRegExp(patient)}, ${TREATMENT}, ${escapeRegExp(dentist.name)}, dentist ${part}, `,
      ),
    });
  const bookAt = (chair: ChairRow, time: string) =>
    column(chair).getByRole('button', { name: new RegExp(`^Book at ${time}, `) });
  // The journey's chairs are the last in the clinic's order, side by side: brought into view, the
  // clicks and drags run within the screen.
  await column(spare).scrollIntoViewIfNeeded();
  await expect(block(ownChair, '09:00–10:00', first, '09:10–09:50')).toBeVisible();

  // The second chair's free time at 09:45 books in that chair, with its dentist: only that chair's
  // times are offered, and of them only those whose dentist part does not meet the first visit's.
  await bookAt(side, '09:45').click();
  const form = page.getByRole('dialog', { name: 'New Appointment' });
  await expect(selectionOf(form.getByRole('combobox', { name: 'Dentist' }))).toHaveAttribute(
    'title',
    dentist.name,
  );
  await expect(selectionOf(form.getByRole('combobox', { name: 'Chair' }))).toHaveAttribute(
    'title',
    side.name,
  );
  await expect(form.getByText('Only the times this chair is free are offered.')).toBeVisible();
  await form.getByLabel('Patient Name').fill(second);
  await form.getByLabel('Patient Name').press('Tab');
  await form.getByLabel('Phone').fill('555-0162');
  await choose(page, form.getByRole('combobox', { name: 'Treatment' }), TREATMENT);
  await expect(form.getByLabel('Duration')).toHaveValue('60');
  await expect(form.getByText(/start times? free for/)).toBeVisible();
  const time = form.getByRole('combobox', { name: 'Time' });
  await expect(selectionOf(time)).toHaveAttribute('title', '09:45–10:45');
  await time.click();
  const offered = (start: string) => openOptions(page).filter({ hasText: new RegExp(`^${start}–`) });
  await expect(offered('09:45')).toHaveCount(1);
  // 09:30 would need the dentist 09:40–10:20, while they are with the first patient.
  await expect(offered('09:30')).toHaveCount(0);
  await offered('09:45').click();
  await form.getByRole('button', { name: 'Book Appointment' }).click();
  await expect(
    page.getByText(new RegExp(`Appointment booked for ${escapeRegExp(second)} on .+ at 09:45–10:45`)),
  ).toBeVisible();
  // Back in the Day view by chair, the visit in the second chair.
  await expect(page).toHaveURL(/[?&]by=chair/);
  const moving = block(side, '09:45–10:45', second, '09:55–10:35');
  await expect(moving).toBeVisible();
  await expect(column(spare).getByRole('button', { name: /^\d\d:\d\d–/ })).toHaveCount(0);

  // A third at 09:30 in the free chair would need the dentist 09:40–10:20: refused, naming the
  // part they are with the first patient.
  const refused = await tryBook(page, desk, {
    patient: third,
    dentistId: dentist.id,
    date: day,
    time: '09:30',
    chairId: spare.id,
  });
  expect(refused.status).toBe(409);
  expect(refused.body.message).toBe(`${dentist.name} is with another patient 09:10–09:50 (${first})`);

  // Dragged onto the free chair at 09:30, the dentist would be needed 09:40–10:20: refused, it stays.
  await column(spare).scrollIntoViewIfNeeded();
  await dragOnto(moving, column(spare), bookAt(spare, '09:30'));
  await expect(page.getByRole('alert').filter({ hasText: 'is with another patient' })).toContainText(
    `${dentist.name} is with another patient 09:10–09:50 (${first})`,
  );
  await expect(moving).toBeVisible();

  // Onto the free chair at the same time: it moves there, with its own dentist.
  await dragOnto(moving, column(spare), bookAt(spare, '09:45'));
  await expect(
    page.getByText(
      new RegExp(
        `The appointment of ${escapeRegExp(second)} is now on .+ at 09:45–10:45 with ${escapeRegExp(dentist.name)} in ${escapeRegExp(spare.name)}`,
      ),
    ),
  ).toBeVisible();
  const moved = block(spare, '09:45–10:45', second, '09:55–10:35');
  await expect(moved).toBeVisible();
  await expect(moving).toHaveCount(0);
  await expect(bookAt(side, '10:00')).toBeVisible();

  // The admin retires the second chair, empty now: its column leaves the receptionist's Day view at
  // once, the others stay; a reload shows the same.
  expect(await retireChair(request, admin, side.id)).toBe(200);
  await expect(column(side)).toHaveCount(0);
  await expect(moved).toBeVisible();
  await expect(block(ownChair, '09:00–10:00', first, '09:10–09:50')).toBeVisible();
  await page.reload();
  await expect(moved).toBeVisible();
  await expect(column(side)).toHaveCount(0);
});
