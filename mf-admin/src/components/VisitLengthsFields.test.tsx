import {
  DEFAULT_NOTIFICATIONS,
  DEFAULT_PRACTICE_HOURS,
  DEFAULT_TREATMENT_MINUTES,
  type PracticeSettings,
} from '@dental/shared';
import { createFakeApi, type FakeApi, pageOf, renderScreen, staffMember } from '@dental/shared/testing';
import { screen, waitFor, within } from '@testing-library/react';
import SettingsPage, { SAVED_MESSAGE } from '../pages/SettingsPage';

const SAVED: PracticeSettings = {
  practiceName: 'Bright Smile Dental',
  address: '120 Harbour Street',
  phone: '555-0100',
  email: 'info@brightsmile.example',
  workingHours: JSON.parse(JSON.stringify(DEFAULT_PRACTICE_HOURS)) as typeof DEFAULT_PRACTICE_HOURS,
  notifications: { ...DEFAULT_NOTIFICATIONS },
  timeZone: 'Europe/London',
  idleTimeoutMinutes: 30,
  reminderLeadHours: 24,
  recallRemindersEnabled: false,
  recallReminderDaysBefore: 14,
  treatmentMinutes: { ...DEFAULT_TREATMENT_MINUTES, 'Dental Checkup': 45 },
  bookingGridMinutes: 10,
  mfaRequired: 'none',
  version: 1,
};

let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
  api.onGet('/api/settings').reply(200, SAVED);
  api.onGet('/api/backup').reply(200, { last_export: null });
  api.onGet('/api/outbox').reply(200, pageOf([]));
});
afterEach(() => api.restore());

const renderSettings = () =>
  renderScreen(<SettingsPage />, { url: '/settings', staff: staffMember('admin') });

/** The form item (label, control and its messages) of the field with this label. */
const fieldOf = (label: string) => screen.getByLabelText(label).closest('.ant-form-item') as HTMLElement;

describe('Settings > General > Visit lengths', () => {
  it("shows each treatment's saved length and the booking grid", async () => {
    renderSettings();
    expect(await screen.findByLabelText('Dental Checkup')).toHaveValue('45');
    expect(screen.getByLabelText('Regular Cleaning')).toHaveValue('60');
    expect(screen.getByLabelText('Cavity Filling')).toHaveValue('60');
    expect(screen.getByLabelText('Tooth Extraction')).toHaveValue('60');
    expect(screen.getByLabelText('Root Canal')).toHaveValue('90');
    expect(within(fieldOf('Root Canal')).getByText('minutes')).toBeInTheDocument();
    expect(within(fieldOf('Booking grid')).getByTitle('10 minutes')).toBeInTheDocument();
    expect(screen.getByText('The start times a day offers are this many minutes apart.')).toBeInTheDocument();
  });

  it('sends a changed length and grid with the rest of the settings', async () => {
    api.onPut('/api/settings').reply(200, {
      ...SAVED,
      treatmentMinutes: { ...SAVED.treatmentMinutes, 'Root Canal': 120 },
      bookingGridMinutes: 30,
    });
    const view = renderSettings();
    const rootCanal = await screen.findByLabelText('Root Canal');
    await view.user.clear(rootCanal);
    await view.user.type(rootCanal, '120');
    await view.user.click(screen.getByRole('combobox', { name: 'Booking grid' }));
    await view.user.click(await screen.findByTitle('30 minutes'));
    await view.user.click(screen.getByRole('button', { name: 'Save Settings' }));

    expect(await screen.findByText(SAVED_MESSAGE)).toBeInTheDocument();
    expect(api.sent('put')).toHaveLength(1);
    const body = api.sent('put')[0]?.body as PracticeSettings;
    expect(body.treatmentMinutes).toEqual({
      ...DEFAULT_TREATMENT_MINUTES,
      'Dental Checkup': 45,
      'Root Canal': 120,
    });
    expect(body.bookingGridMinutes).toBe(30);
    expect(body.practiceName).toBe('Bright Smile Dental');
  });

  it.each([
    ['7', 'Use steps of 5 minutes'],
    ['500', 'At most 480 minutes (8 hours)'],
  ])('a length of %s is refused beside its field, and nothing is sent', async (typed, message) => {
    api.onPut('/api/settings').reply(200, SAVED);
    const view = renderSettings();
    const extraction = await screen.findByLabelText('Tooth Extraction');
    await view.user.clear(extraction);
    await view.user.type(extraction, typed);
    await view.user.click(screen.getByRole('button', { name: 'Save Settings' }));

    expect(await within(fieldOf('Tooth Extraction')).findByText(message)).toBeInTheDocument();
    // The number is left as typed, not changed into one that would pass.
    expect(extraction).toHaveValue(typed);
    expect(within(fieldOf('Root Canal')).queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText('Some settings need correcting: see the marked fields.')).toBeInTheDocument();
    await waitFor(() => expect(api.sent('put')).toHaveLength(0));
  });

  it('an empty length is refused too', async () => {
    const view = renderSettings();
    const checkup = await screen.findByLabelText('Dental Checkup');
    await view.user.clear(checkup);
    await view.user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await within(fieldOf('Dental Checkup')).findByText('This field is required')).toBeInTheDocument();
    expect(api.sent('put')).toHaveLength(0);
  });

  it('others read the lengths and the grid but cannot change them', async () => {
    renderScreen(<SettingsPage />, { url: '/settings', staff: staffMember('dentist') });
    expect(await screen.findByLabelText('Root Canal')).toBeDisabled();
    expect(screen.getByLabelText('Dental Checkup')).toHaveValue('45');
    expect(screen.getByRole('combobox', { name: 'Booking grid' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save Settings' })).not.toBeInTheDocument();
  });
});
