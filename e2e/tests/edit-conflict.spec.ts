import type { Browser } from '@playwright/test';
import { expect, type Page, test } from './fixtures';
import { type AccountName, signInByApi } from './helpers';

/** A name no other journey uses, so runs never see each other's patients. */
const uniqueName = (first: string) => `${first} Wren${Date.now().toString(36)}`;
const CHANGED = 'This record was changed at another desk since you opened it.';

interface Desk {
  page: Page;
  token: string;
  close: () => Promise<void>;
}

/** A desk of the clinic: a browser of its own (its own cookies), signed in as this member of staff. */
async function openDesk(browser: Browser, baseURL: string, account: AccountName): Promise<Desk> {
  const context = await browser.newContext({ baseURL, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const token = await signInByApi(page, account);
  return { page, token, close: () => context.close() };
}

/** Opens the patient's Edit form from the Patients list and waits for it to be filled. */
async function editPatient(page: Page, name: string) {
  await page.goto(`/patients?search=${encodeURIComponent(name)}`);
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const form = page.getByRole('dialog', { name: 'Edit Patient' });
  await expect(form.getByLabel('Full Name')).toHaveValue(name);
  return form;
}

async function patientByApi(desk: Desk, id: number) {
  const answer = await desk.page.request.get(`/api/patients/${id}`, {
    headers: { authorization: `Bearer ${desk.token}` },
  });
  expect(answer.status()).toBe(200);
  return (await answer.json()) as { phone: string; address: string | null; medicalHistory: string | null };
}

test('two desks edit one patient: the second sees the first save, chooses, and loses nothing typed', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const front = await openDesk(browser, baseURL ?? '', 'receptionist');
  const back = await openDesk(browser, baseURL ?? '', 'admin');
  try {
    const name = uniqueName('Ada');
    const created = await front.page.request.post('/api/patients', {
      headers: { authorization: `Bearer ${front.token}` },
      data: { name, phone: '555-0150', email: `ada.${Date.now()}@mail.example`, dateOfBirth: '1985-03-02' },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: number };

    // Both desks open the same patient; the front desk starts typing.
    const frontForm = await editPatient(front.page, name);
    const backForm = await editPatient(back.page, name);
    await frontForm.getByLabel('Address').fill('12 Elm Street');

    // The back office saves first.
    await backForm.getByLabel('Phone').fill('555-0177');
    await backForm.getByRole('button', { name: 'Save Changes' }).click();
    await expect(back.page.getByText(`${name} was saved`)).toBeVisible();

    // The front desk is told while still typing; what it typed stays.
    const alert = frontForm.getByRole('alert').filter({ hasText: CHANGED });
    await expect(alert).toBeVisible();
    await expect(alert.getByRole('button', { name: 'Load theirs' })).toBeVisible();
    await expect(frontForm.getByLabel('Address')).toHaveValue('12 Elm Street');
    await expect(frontForm.getByLabel('Phone')).toHaveValue('555-0150');
    await frontForm.getByLabel('Medical History').fill('Latex allergy');
    await front.page.screenshot({
      path: test.info().outputPath('patient-changed-elsewhere.png'),
      fullPage: true,
    });

    // Load theirs: the form shows the back office's save; the front desk types its change again.
    await alert.getByRole('button', { name: 'Load theirs' }).click();
    await expect(alert).toBeHidden();
    await expect(frontForm.getByLabel('Phone')).toHaveValue('555-0177');
    await expect(frontForm.getByLabel('Address')).toHaveValue('');
    await frontForm.getByLabel('Address').fill('12 Elm Street');
    await frontForm.getByRole('button', { name: 'Save Changes' }).click();
    await expect(front.page.getByText(`${name} was saved`)).toBeVisible();
    expect(await patientByApi(front, id)).toMatchObject({ phone: '555-0177', address: '12 Elm Street' });

    // Again: the back office saves while the front desk is still typing, and the front desk saves after.
    const again = await editPatient(front.page, name);
    await again.getByLabel('Medical History').fill('Latex allergy; takes warfarin');
    const backAgain = await editPatient(back.page, name);
    await backAgain.getByLabel('Phone').fill('555-0188');
    await backAgain.getByRole('button', { name: 'Save Changes' }).click();
    await expect(back.page.getByText(`${name} was saved`)).toBeVisible();
    // The front desk hears of it, then saves without choosing: the Save is refused (412), never silently
    // over theirs. (Clicking while the notice slides in beside Save could miss the button.)
    await expect(again.getByRole('alert').filter({ hasText: CHANGED })).toBeVisible();
    await again.getByRole('button', { name: 'Save Changes' }).click();
    const stale = again.getByRole('alert').filter({ hasText: CHANGED });
    await expect(stale.getByRole('button', { name: 'Save mine over it' })).toBeVisible();
    await expect(again.getByLabel('Medical History')).toHaveValue('Latex allergy; takes warfarin');
    await front.page.screenshot({ path: test.info().outputPath('patient-save-refused.png'), fullPage: true });
    await stale.getByRole('button', { name: 'Save mine over it' }).click();
    await expect(front.page.getByText(`${name} was saved`)).toBeVisible();
    // Saving over theirs was chosen: the front desk's form, whole, is what the server keeps.
    expect(await patientByApi(front, id)).toMatchObject({
      phone: '555-0177',
      medicalHistory: 'Latex allergy; takes warfarin',
    });
  } finally {
    await front.close();
    await back.close();
  }
});

test('a patient deleted at another desk of the same account: the open form says so at once and cannot save', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  // One account signed in at two desks is still two desks.
  const front = await openDesk(browser, baseURL ?? '', 'admin');
  const back = await openDesk(browser, baseURL ?? '', 'admin');
  try {
    const name = uniqueName('Hal');
    const created = await back.page.request.post('/api/patients', {
      headers: { authorization: `Bearer ${back.token}` },
      data: { name, phone: '555-0151', email: `hal.${Date.now()}@mail.example`, dateOfBirth: '1979-11-20' },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: number };

    const form = await editPatient(front.page, name);
    await form.getByLabel('Address').fill('4 Quay Road');
    const deleted = await back.page.request.delete(`/api/patients/${id}`, {
      headers: { authorization: `Bearer ${back.token}` },
    });
    expect(deleted.status()).toBe(200);

    // Without pressing anything: the alert beside Save, Save off, what was typed still there.
    await expect(form.getByRole('alert')).toContainText(
      'This record was deleted at another desk since you opened it.',
    );
    await expect(form.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
    await expect(form.getByLabel('Address')).toHaveValue('4 Quay Road');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await expect(form).toBeHidden();
  } finally {
    await front.close();
    await back.close();
  }
});
