import {
  DEFAULT_NOTIFICATIONS,
  DEFAULT_ONLINE_BOOKING,
  DEFAULT_PRACTICE_HOURS,
  DEFAULT_TREATMENT_MINUTES,
  type PracticeSettings,
  STALE_WRITE_MESSAGE,
  settingsQueries,
  wholeVisitParts,
} from '@dental/shared';
import {
  createFakeApi,
  createFakeLiveEvents,
  type FakeApi,
  type FakeLiveEvents,
  pageOf,
  renderScreen,
  staffMember,
  staleWrite,
} from '@dental/shared/testing';
import { act, screen, waitFor, within } from '@testing-library/react';
import SettingsPage, { SAVED_MESSAGE } from './SettingsPage';

/** The settings as this desk read them. */
const SAVED: PracticeSettings = {
  practiceName: 'Bright Smile Dental',
  workingHours: JSON.parse(JSON.stringify(DEFAULT_PRACTICE_HOURS)) as typeof DEFAULT_PRACTICE_HOURS,
  notifications: { ...DEFAULT_NOTIFICATIONS },
  timeZone: 'Europe/London',
  idleTimeoutMinutes: 30,
  reminderLeadHours: 24,
  recallRemindersEnabled: false,
  recallReminderDaysBefore: 14,
  address: '120 Harbour Street',
  phone: '555-0100',
  email: 'info@brightsmile.example',
  treatmentMinutes: { ...DEFAULT_TREATMENT_MINUTES },
  bookingGridMinutes: 15,
  turnoverMinutes: 0,
  dentistParts: wholeVisitParts(DEFAULT_TREATMENT_MINUTES),
  mfaRequired: 'none',
  onlineBooking: { ...DEFAULT_ONLINE_BOOKING, visitTypes: [] },
  slug: 'bright-smile-dental',
  version: 3,
};
/** As another admin saved them meanwhile. */
const THEIRS: PracticeSettings = { ...SAVED, phone: '555-0999', version: 4 };
const ADMIN = staffMember('admin', { id: 1 });

let api: FakeApi;
let events: FakeLiveEvents;
beforeEach(() => {
  api = createFakeApi();
  events = createFakeLiveEvents();
  api.onGet('/api/settings').replyOnce(200, SAVED);
  api.onGet('/api/backup').reply(200, { last_export: null });
  api.onGet('/api/outbox').reply(200, pageOf([]));
});
afterEach(() => api.restore());

async function renderWithName(name: string) {
  const view = renderScreen(<SettingsPage />, { url: '/settings', staff: ADMIN, events });
  const field = await screen.findByLabelText('Practice name', {}, { timeout: 5000 });
  await waitFor(() => expect(field).toHaveValue('Bright Smile Dental'));
  await view.user.clear(field);
  await view.user.type(field, name);
  return view;
}

const saveButton = () => screen.getByRole('button', { name: 'Save Settings' });

describe('SettingsPage: no edit is silently lost', () => {
  it('saves with If-Match naming the version it showed; the next save names the saved one', async () => {
    api.onPut('/api/settings').replyOnce(200, { ...SAVED, practiceName: 'Bright Smile Care', version: 4 });
    api.onPut('/api/settings').replyOnce(200, { ...SAVED, practiceName: 'Bright Smile Care', version: 5 });
    const view = await renderWithName('Bright Smile Care');
    await view.user.click(saveButton());
    expect(await screen.findAllByText(SAVED_MESSAGE)).not.toHaveLength(0);
    await view.user.click(saveButton());
    await waitFor(() => expect(api.sent('put', '/api/settings')).toHaveLength(2));
    const puts = api.sent('put', '/api/settings');
    expect(puts.map((put) => put.ifMatch)).toEqual(['"3"', '"4"']);
    expect(puts[0]?.body).toMatchObject({ practiceName: 'Bright Smile Care' });
    expect(puts[0]?.body).not.toHaveProperty('version');
  });

  it('a stale Save (412) shows the alert; Load theirs fills their settings', async () => {
    api.onPut('/api/settings').reply(412, staleWrite(THEIRS));
    const view = await renderWithName('Bright Smile Care');
    await view.user.click(saveButton());
    const alert = await screen.findByText(STALE_WRITE_MESSAGE);
    const box = alert.closest('[role="alert"]') as HTMLElement;
    expect(screen.getByLabelText('Practice name')).toHaveValue('Bright Smile Care');
    await view.user.click(within(box).getByRole('button', { name: 'Load theirs' }));
    await waitFor(() => expect(screen.getByLabelText('Practice name')).toHaveValue('Bright Smile Dental'));
    expect(screen.getByLabelText('Phone')).toHaveValue('555-0999');
  });

  it("another admin's save: the alert shows, and reading the settings again leaves the typing alone", async () => {
    api.onGet('/api/settings').reply(200, THEIRS);
    const view = await renderWithName('Bright Smile Care');
    // The clinic's one row: its events may name the clinic, or nothing.
    events.emit({ resource: 'settings', id: 1, action: 'updated', by: 2 });
    expect(await screen.findByText(STALE_WRITE_MESSAGE)).toBeInTheDocument();
    // The shell's invalidation reads the settings again: the form keeps what is typed.
    await act(() => view.queryClient.invalidateQueries({ queryKey: settingsQueries.key }));
    expect(screen.getByLabelText('Practice name')).toHaveValue('Bright Smile Care');
    expect(screen.getByLabelText('Phone')).toHaveValue('555-0100');
  });
});
