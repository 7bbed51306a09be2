import {
  DEFAULT_NOTIFICATIONS,
  DEFAULT_ONLINE_BOOKING,
  DEFAULT_PRACTICE_HOURS,
  DEFAULT_TREATMENT_MINUTES,
  useAuthStore,
  wholeVisitParts,
} from '@dental/shared';
import {
  createFakeApi,
  type FakeApi,
  pageOf,
  refusal,
  renderScreen,
  staffMember,
} from '@dental/shared/testing';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import SettingsPage, { SAVED_MESSAGE } from './SettingsPage';

const SAVED = {
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
  onlineBooking: { ...DEFAULT_ONLINE_BOOKING, visitTypes: [] },
  slug: 'bright-smile-dental',
};

let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
  api.onGet('/api/settings').reply(200, SAVED);
  api.onGet('/api/backup').reply(200, { last_export: null });
  api.onGet('/api/outbox').reply(200, pageOf([]));
});
afterEach(() => api.restore());

describe('SettingsPage (docs/product.md, Screens: Settings)', () => {
  it('an admin saves the practice settings on the server and is told so', async () => {
    api.onPut('/api/settings').reply(200, { ...SAVED, practiceName: 'Bright Smile Dental Care' });
    const view = renderScreen(<SettingsPage />, { url: '/settings', staff: staffMember('admin') });
    const name = await screen.findByLabelText('Practice name');
    expect(name).toHaveValue('Bright Smile Dental');
    expect(screen.getByLabelText('Monday opens')).toHaveValue('09:00');
    await view.user.clear(name);
    await view.user.type(name, 'Bright Smile Dental Care');
    await view.user.click(screen.getByRole('tab', { name: 'Notifications' }));
    await view.user.click(screen.getByRole('switch', { name: 'SMS reminders' }));
    await view.user.click(screen.getByRole('button', { name: 'Save Settings' }));

    expect(await screen.findAllByText(SAVED_MESSAGE)).not.toHaveLength(0);
    expect(SAVED_MESSAGE).toBe('Settings saved successfully!');
    const body = api.sent('put')[0]?.body as typeof SAVED;
    expect(body.practiceName).toBe('Bright Smile Dental Care');
    expect(body.notifications.smsReminders).toBe(true);
    expect(body.workingHours.monday).toEqual({ start: '09:00', end: '17:00', closed: false });
    expect(body.idleTimeoutMinutes).toBe(30);
    // The visit lengths, untouched, go back as they were read.
    expect(body.treatmentMinutes).toEqual(DEFAULT_TREATMENT_MINUTES);
    expect(body.bookingGridMinutes).toBe(15);
    expect(body.turnoverMinutes).toBe(0);
    expect(body.dentistParts).toEqual(wholeVisitParts(DEFAULT_TREATMENT_MINUTES));
  });

  it('a day ending before it starts is refused beside its field, and nothing is sent', async () => {
    const view = renderScreen(<SettingsPage />, { url: '/settings', staff: staffMember('admin') });
    const closes = await screen.findByLabelText('Tuesday closes');
    fireEvent.change(closes, { target: { value: '08:00' } });
    await view.user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('The end time must be after the start time')).toBeInTheDocument();
    expect(api.sent('put')).toHaveLength(0);
  });

  it('puts a server refusal beside the field it names', async () => {
    api
      .onPut('/api/settings')
      .reply(400, refusal('Invalid email', [{ field: 'email', message: 'Enter a valid e-mail address' }]));
    const view = renderScreen(<SettingsPage />, { url: '/settings', staff: staffMember('admin') });
    await screen.findByLabelText('Practice name');
    await view.user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Enter a valid e-mail address')).toBeInTheDocument();
  });

  it('others read the settings without a Save button', async () => {
    renderScreen(<SettingsPage />, { url: '/settings', staff: staffMember('receptionist') });
    expect(await screen.findByLabelText('Practice name')).toBeDisabled();
    expect(screen.getByLabelText('Root Canal')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save Settings' })).not.toBeInTheDocument();
    expect(screen.getByText(/Only an administrator can change the practice settings/)).toBeInTheDocument();
  });

  it('changes your own password, checking the confirmation, and keeps the session with the new token', async () => {
    api
      .onPost('/auth/change-password')
      .replyOnce(
        400,
        refusal('Invalid current_password: The current password is not right', [
          { field: 'current_password', message: 'The current password is not right' },
        ]),
      );
    api.onPost('/auth/change-password').reply(200, {
      access_token: 'new-token',
      user: {
        id: 1,
        username: 'receptionist',
        email: 'receptionist@brightsmile.example',
        name: 'Sam receptionist',
        role: 'receptionist',
        is_active: true,
        last_login: null,
        created_at: '2025-01-01T00:00:00.000Z',
        updated_at: '2025-01-01T00:00:00.000Z',
        dentist_id: null,
        clinic_id: 1,
        clinic_name: 'Bright Smile Dental',
        version: 1,
      },
      message: 'Your password was changed. Your other sessions have been signed out.',
    });
    const view = renderScreen(<SettingsPage />, {
      url: '/settings?tab=security',
      staff: staffMember('receptionist'),
    });
    const current = await screen.findByLabelText('Current password');
    await view.user.type(current, 'wrong-one');
    await view.user.type(screen.getByLabelText('New password'), 'a-new-long-secret');
    await view.user.type(screen.getByLabelText('Confirm new password'), 'a-new-long-secreT');
    await view.user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('The passwords do not match')).toBeInTheDocument();
    expect(api.sent('post')).toHaveLength(0);

    await view.user.clear(screen.getByLabelText('Confirm new password'));
    await view.user.type(screen.getByLabelText('Confirm new password'), 'a-new-long-secret');
    await view.user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('The current password is not right')).toBeInTheDocument();

    await view.user.clear(current);
    await view.user.type(current, 'receptionist123');
    await view.user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(
      await screen.findByText('Your password was changed. Your other sessions have been signed out.'),
    ).toBeInTheDocument();
    expect(api.sent('post')[1]?.body).toEqual({
      current_password: 'receptionist123',
      new_password: 'a-new-long-secret',
    });
    await waitFor(() => expect(useAuthStore.getState().token).toBe('new-token'));
  });

  it('Backup shows the last export, and an admin’s Export downloads the clinic’s data', async () => {
    // A handler set again replaces the first one in place: start afresh so the order holds.
    api.resetHandlers();
    api.onGet('/api/settings').reply(200, SAVED);
    api.onGet('/api/outbox').reply(200, pageOf([]));
    api.onGet('/api/backup').replyOnce(200, { last_export: null });
    api.onGet('/api/backup').reply(200, { last_export: { at: '2026-11-24T10:00:00Z', by: 'Alex Morgan' } });
    api.onGet('/api/backup/export').reply(200, {
      format: 'dental-clinic-export',
      exported_at: '2026-11-24T10:00:00Z',
      clinic: { name: 'Bright Smile Dental' },
      patients: [{}, {}],
      appointments: [{}],
    });
    const created: string[] = [];
    URL.createObjectURL = jest.fn(() => 'blob:export');
    URL.revokeObjectURL = jest.fn();
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      created.push(this.download);
    });
    const view = renderScreen(<SettingsPage />, { url: '/settings?tab=backup', staff: staffMember('admin') });
    expect(await screen.findByText(/Never: the clinic's data has not been exported yet/)).toBeInTheDocument();
    await view.user.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('Exported 2 patients and 1 appointments')).toBeInTheDocument();
    expect(created).toEqual(['bright-smile-dental-2026-11-24.json']);
    expect(await screen.findByText(/by Alex Morgan/)).toBeInTheDocument();
    click.mockRestore();
    // The Backup tab has nothing to save.
    expect(screen.queryByRole('button', { name: 'Save Settings' })).not.toBeInTheDocument();
  });

  it("an admin sets the reminders' lead time and sees the outbox, sending a failed message again", async () => {
    const failed = {
      id: 41,
      kind: 'sms_reminder',
      channel: 'sms',
      recipient: '555-0142',
      subject: null,
      body: 'Hello Nora, this is a reminder',
      appointment_id: 9,
      patient_id: 3,
      due_at: '2026-11-24T10:00:00Z',
      state: 'failed',
      reason: null,
      attempts: 5,
      last_error: 'The SMS gateway answered 502 Bad Gateway',
      sent_at: null,
      created_at: '2026-11-23T10:00:00Z',
    };
    api.resetHandlers();
    api.onGet('/api/settings').reply(200, SAVED);
    let retried = false;
    const again = { ...failed, state: 'pending', attempts: 0, last_error: null };
    api.onGet('/api/outbox').reply(() => [200, pageOf([retried ? again : failed])]);
    api.onPost('/api/outbox/41/retry').reply(() => {
      retried = true;
      return [200, again];
    });
    api.onPut('/api/settings').reply(200, { ...SAVED, reminderLeadHours: 48 });
    const view = renderScreen(<SettingsPage />, {
      url: '/settings?tab=notifications',
      staff: staffMember('admin'),
    });
    // The whole page renders first (every tab's form): on a machine busy with other suites that took
    // longer than the usual two seconds.
    expect(
      await screen.findByText('The SMS gateway answered 502 Bad Gateway', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    // The box the table scrolls in on a phone is reached from the keyboard.
    expect(screen.getByRole('region', { name: 'Outbox messages' })).toHaveAttribute('tabindex', '0');
    await view.user.click(screen.getByRole('button', { name: 'Send again the sms reminder to 555-0142' }));
    await waitFor(() => expect(api.sent('post', '/api/outbox/41/retry')).toHaveLength(1));
    expect(await screen.findByText('pending')).toBeInTheDocument();

    const lead = screen.getByLabelText('Send reminders this many hours before the visit');
    await view.user.clear(lead);
    await view.user.type(lead, '48');
    await view.user.click(screen.getByRole('button', { name: 'Save Settings' }));
    await waitFor(() => expect(api.sent('put')).toHaveLength(1));
    expect(api.sent('put')[0]?.body).toMatchObject({ reminderLeadHours: 48 });
  });

  it('an admin turns automatic recall reminders on with their days, a wrong number marked beside its field', async () => {
    api
      .onPut('/api/settings')
      .reply(200, { ...SAVED, recallRemindersEnabled: true, recallReminderDaysBefore: 10 });
    const view = renderScreen(<SettingsPage />, {
      url: '/settings?tab=notifications',
      staff: staffMember('admin'),
    });
    const enabled = await screen.findByRole('switch', { name: 'Automatic recall reminders' });
    expect(enabled).not.toBeChecked();
    const days = screen.getByLabelText('Send them this many days before the due date');
    expect(days).toHaveValue('14');
    await view.user.click(enabled);
    await view.user.clear(days);
    await view.user.type(days, '91');
    await view.user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('At most 90 days')).toBeInTheDocument();
    expect(api.sent('put')).toHaveLength(0);

    await view.user.clear(days);
    await view.user.type(days, '10');
    await view.user.click(screen.getByRole('button', { name: 'Save Settings' }));
    await waitFor(() => expect(api.sent('put')).toHaveLength(1));
    expect(api.sent('put')[0]?.body).toMatchObject({
      recallRemindersEnabled: true,
      recallReminderDaysBefore: 10,
    });
  });

  it("puts the server's refusal of the recall reminders' days beside that field", async () => {
    api
      .onPut('/api/settings')
      .reply(
        400,
        refusal('recallReminderDaysBefore: At least 1 day', [
          { field: 'recallReminderDaysBefore', message: 'At least 1 day' },
        ]),
      );
    const view = renderScreen(<SettingsPage />, {
      url: '/settings?tab=notifications',
      staff: staffMember('admin'),
    });
    await screen.findByRole('switch', { name: 'Automatic recall reminders' });
    await view.user.click(screen.getByRole('button', { name: 'Save Settings' }));
    const days = screen.getByLabelText('Send them this many days before the due date');
    expect(await screen.findByText('At least 1 day')).toBeInTheDocument();
    expect(days).toHaveAttribute('aria-invalid', 'true');
  });
});
