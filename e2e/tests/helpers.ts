import { expect, type Locator, type Page } from '@playwright/test';
import type { Journey } from './journeyData';

export const ACCOUNTS = {
  admin: { username: 'admin', password: 'admin123', name: 'Alex Morgan', role: 'Administrator' },
  receptionist: {
    username: 'receptionist',
    password: 'receptionist123',
    name: 'Riley Chen',
    role: 'Receptionist',
  },
  dentist: { username: 'dentist', password: 'dentist123', name: 'Dr. Sarah Johnson', role: 'Dentist' },
  harborAdmin: {
    username: 'harbor.admin',
    password: 'harbor123',
    name: 'Jordan Harbor',
    role: 'Administrator',
  },
} as const;
export type AccountName = keyof typeof ACCOUNTS;

export async function fillSignIn(page: Page, account: AccountName, remember = false) {
  const { username, password } = ACCOUNTS[account];
  await page.getByLabel('Username or Email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  if (remember) await page.getByLabel('Remember me').check();
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in from the login page and waits for the dashboard. */
export async function signIn(
  page: Page,
  account: AccountName,
  options: { baseURL?: string; remember?: boolean } = {},
) {
  await page.goto(`${options.baseURL ?? ''}/login`);
  await fillSignIn(page, account, options.remember);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
}

export function sidebar(page: Page) {
  return page.getByRole('menu', { name: 'Main navigation' }).first();
}

/** Waits until the sidebar lists exactly these entries (module entries arrive after sign-in). */
export async function expectSidebar(page: Page, entries: readonly string[]) {
  await expect(sidebar(page).getByRole('menuitem')).toHaveText([...entries]);
}

/** The h1 every screen opens with: Dashboard, Patients, Calendar, Modules... */
export function screenHeading(page: Page, name: string) {
  return page.getByRole('heading', { name, level: 1 });
}

/** Waits until the screen of this name shows (for a module: its code has loaded and rendered). */
export async function expectScreen(page: Page, name: string) {
  await expect(screenHeading(page, name)).toBeVisible();
}

/** Opens a path with a full page load and waits for its screen. */
export async function openScreen(page: Page, path: string, name: string) {
  await page.goto(path);
  await expectScreen(page, name);
}

export type ModuleId = 'appointments' | 'patients' | 'dentists' | 'scheduling' | 'admin';

/** The build time of the module description loaded, as the admin's Modules page shows it. */
export function moduleBuildTime(page: Page, moduleId: ModuleId) {
  return page.getByTestId(`module-build-${moduleId}`);
}

/** A sidebar entry of each module (admin's sidebar). */
const MODULE_ENTRY: Record<ModuleId, string> = {
  appointments: 'Appointments',
  patients: 'Patients',
  dentists: 'Dentists',
  scheduling: 'Availability',
  admin: 'Users',
};

/**
 * Reads, on the admin's Modules page, the build time of the module description this page load uses.
 * The page is opened from the sidebar once the sidebar lists the module, not by URL: on a fresh load
 * of /modules the page's own list can arrive before the app's list of modules, and the page then
 * never reads the builds (it stays on "Reading...").
 */
export async function readModuleBuildTime(page: Page, moduleId: ModuleId): Promise<string> {
  await expect(sidebar(page).getByRole('menuitem', { name: MODULE_ENTRY[moduleId] })).toBeVisible();
  await sidebar(page).getByRole('menuitem', { name: 'Modules' }).click();
  await expectScreen(page, 'Modules');
  const buildTime = moduleBuildTime(page, moduleId);
  await expect(buildTime).toBeVisible();
  const value = await buildTime.getAttribute('datetime');
  expect(value).toBeTruthy();
  return value ?? '';
}

/** The top bar's user button, named by the name and role it shows. */
export function userMenu(page: Page): Locator {
  return page.getByRole('banner').getByRole('button', { name: /(Administrator|Receptionist|Dentist)$/ });
}

export async function signOut(page: Page) {
  await userMenu(page).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/** Text to find as it is inside a RegExp (a dentist's "Dr." has a dot). */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Picks an option of an antd Select: its visible list, not the hidden one kept for screen readers. */
export async function choose(page: Page, select: Locator, option: string) {
  await select.click();
  const escaped = escapeRegExp(option);
  await page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
    .filter({ hasText: new RegExp(`^${escaped}$`) })
    .click();
  await expect(selectionOf(select)).toHaveAttribute('title', option);
}

/** What an antd Select shows as chosen: its title is the chosen option's label. */
export function selectionOf(select: Locator): Locator {
  return select.locator('xpath=..');
}

/** A day counted from today in the browser's calendar, as `YYYY-MM-DD`. */
export function dayFromToday(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  return isoDay(date);
}

function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The Calendar's list of the selected day's appointments. */
export const dayList = (page: Page) => page.getByRole('list', { name: /^Appointments on / });

/**
 * Books through the form the calendar opens: a new patient, a Dental Checkup (unless another treatment
 * is named) at the first free time of the dentist; answers its start.
 */
export async function bookFromCalendar(
  page: Page,
  name: string,
  dentist: string,
  treatment = 'Dental Checkup',
): Promise<string> {
  await page.getByRole('button', { name: 'New Appointment', exact: true }).click();
  const form = page.getByRole('dialog', { name: 'New Appointment' });
  await form.getByLabel('Patient Name').fill(name);
  await form.getByLabel('Patient Name').press('Tab');
  await form.getByLabel('Phone').fill('555-0191');
  await choose(page, form.getByRole('combobox', { name: 'Dentist' }), dentist);
  // The treatment gives the visit's length, which the free times are read for.
  await choose(page, form.getByRole('combobox', { name: 'Treatment' }), treatment);
  const time = await chooseFreeTime(page, form);
  await form.getByRole('button', { name: 'Book Appointment' }).click();
  await expect(page.getByText(new RegExp(`Appointment booked for ${name}`))).toBeVisible();
  return time;
}

/** The booking form's hint under Time, once the dentist's free times for the day and length are read. */
export const FREE_TIMES_HINT = /start times? free for .+ minutes\.$|: choose another day or dentist\.$/;

/** The options of the antd Select drop-down open now (its visible list, not the one kept for screen readers). */
export const openOptions = (page: Page) =>
  page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option');

/**
 * In the booking form (dentist, date and treatment chosen), once the dentist's free times for that
 * length are read, picks the first one offered; answers its start.
 */
export async function chooseFreeTime(page: Page, form: Locator): Promise<string> {
  await expect(form.getByText(/start times? free for/)).toBeVisible();
  await form.getByRole('combobox', { name: 'Time' }).click();
  const free = openOptions(page).first();
  const label = (await free.textContent()) ?? '';
  await free.click();
  await expect(selectionOf(form.getByRole('combobox', { name: 'Time' }))).toHaveAttribute('title', label);
  return label.slice(0, 5);
}

/**
 * In the booking form (dentist, date and treatment chosen), picks the free time that starts at
 * `start` (offered as a range, `10:00–11:30`); answers the range.
 */
export async function chooseTime(page: Page, form: Locator, start: string): Promise<string> {
  await expect(form.getByText(/start times? free for/)).toBeVisible();
  await form.getByRole('combobox', { name: 'Time' }).click();
  const option = openOptions(page).filter({ hasText: new RegExp(`^${start}–\\d\\d:\\d\\d$`) });
  const label = (await option.textContent()) ?? '';
  await option.click();
  await expect(selectionOf(form.getByRole('combobox', { name: 'Time' }))).toHaveAttribute('title', label);
  return label;
}

/** Moves a visit of the Calendar's day list with the keyboard's way: its Move button. */
export async function moveTo(page: Page, item: Locator, date: string, time?: string) {
  await item.getByRole('button', { name: /^Move appointment of/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Move Appointment' });
  await dialog.getByLabel('New date').fill(date);
  if (time) await dialog.getByLabel('New time').fill(time);
  await dialog.getByRole('button', { name: 'Move', exact: true }).click();
}

/**
 * Signs in through the API, as a journey that is not about signing in starts: the refresh cookie
 * lands in the page's browser context, so the next page load opens signed in, on the page asked for.
 * Answers the access token, for setting up through the API.
 */
export async function signInByApi(
  page: Page,
  account: AccountName | { username: string; password: string },
): Promise<string> {
  const { username, password } = typeof account === 'string' ? ACCOUNTS[account] : account;
  const response = await page.request.post('/auth/login', { data: { username, password, remember: false } });
  expect(response.status(), `sign-in of ${username}`).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** The first day of this weekday (0 Sunday ... 6 Saturday) at least `days` from today, as `YYYY-MM-DD`. */
export function weekdayFromToday(days: number, weekday: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  while (date.getDay() !== weekday) date.setDate(date.getDate() + 1);
  return isoDay(date);
}

/**
 * The first day at least `days` from today that falls on one of `weekdays` (0 Sunday ... 6 Saturday),
 * as `YYYY-MM-DD`: a day the dentist works whatever today is.
 */
export function workdayFromToday(days: number, weekdays: readonly number[]): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  while (!weekdays.includes(date.getDay())) date.setDate(date.getDate() + 1);
  return isoDay(date);
}

/** The first day after `date` (`YYYY-MM-DD`) that falls on one of `weekdays`, as `YYYY-MM-DD`. */
export function workdayAfter(date: string, weekdays: readonly number[]): string {
  const next = new Date(`${date}T12:00:00`);
  do next.setDate(next.getDate() + 1);
  while (!weekdays.includes(next.getDay()));
  return isoDay(next);
}

/** A day `days` after `date` (`YYYY-MM-DD`), as `YYYY-MM-DD`. */
export function daysAfter(date: string, days: number): string {
  const next = new Date(`${date}T12:00:00`);
  next.setDate(next.getDate() + days);
  return isoDay(next);
}

/** A visit as the API takes it, the dentist by name. */
export interface VisitByApi {
  patient: string;
  phone: string;
  dentist: string;
  date: string;
  time: string;
  treatment: string;
  /** Minutes; the treatment's length from Settings unless given. */
  duration?: number;
  /** An emergency outside the dentist's open hours (admin or receptionist), with its reason. */
  outside_hours?: boolean;
  outside_hours_reason?: string;
}

/** The id of the clinic's dentist of this name, read through the API. */
export async function dentistIdByApi(page: Page, token: string, name: string): Promise<number> {
  const headers = { authorization: `Bearer ${token}` };
  const dentists = await page.request.get('/api/dentists', { headers, params: { search: name } });
  expect(dentists.status()).toBe(200);
  const found = ((await dentists.json()) as { data: Array<{ id: number; name: string }> }).data;
  const dentist = found.find((candidate) => candidate.name === name);
  expect(dentist, `dentist ${name}`).toBeTruthy();
  return dentist?.id ?? 0;
}

/** Asks the API to book a visit (the staff member of `token`); answers the server's status and body. */
export async function tryBookByApi(
  page: Page,
  token: string,
  visit: VisitByApi,
): Promise<{ status: number; body: { id?: number; message?: string } }> {
  const { dentist, ...fields } = visit;
  const dentistId = await dentistIdByApi(page, token, dentist);
  const answer = await page.request.post('/api/appointments', {
    headers: { authorization: `Bearer ${token}` },
    data: { ...fields, dentist_id: dentistId },
  });
  return { status: answer.status(), body: (await answer.json()) as { id?: number; message?: string } };
}

/**
 * Books a visit through the API (the staff member of `token`), for a journey that needs one to exist:
 * at a time the dentist is open and free, or outside open hours with a reason.
 */
export async function bookByApi(page: Page, token: string, visit: VisitByApi): Promise<{ id: number }> {
  const booked = await tryBookByApi(page, token, visit);
  expect(booked.status, booked.body.message).toBe(201);
  return { id: booked.body.id ?? 0 };
}

/** The clinic offers checkups online, to new and returning patients, two hours' notice, 24 hours' cut-off. */
export async function turnOnlineBookingOn(page: Page, journey: Journey) {
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
