import {
  DEFAULT_NOTIFICATIONS,
  DEFAULT_ONLINE_BOOKING,
  DEFAULT_PRACTICE_HOURS,
  DEFAULT_TREATMENT_MINUTES,
  type PracticeSettings,
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
  treatmentMinutes: { ...DEFAULT_TREATMENT_MINUTES },
  bookingGridMinutes: 15,
  turnoverMinutes: 0,
  dentistParts: wholeVisitParts(DEFAULT_TREATMENT_MINUTES),
  mfaRequired: 'none',
  onlineBooking: { ...DEFAULT_ONLINE_BOOKING, visitTypes: [] },
  slug: 'bright-smile-dental',
  version: 1,
};

/** Online booking on, with a check-up for everyone and root canals for returning patients. */
const OFFERED: PracticeSettings = {
  ...SAVED,
  onlineBooking: {
    ...DEFAULT_ONLINE_BOOKING,
    enabled: true,
    visitTypes: [
      { treatment: 'Dental Checkup', newPatients: true, returningPatients: true },
      { treatment: 'Root Canal', newPatients: false, returningPatients: true },
    ],
  },
};

let api: FakeApi;
function answer(settings: PracticeSettings) {
  api.onGet('/api/settings').reply(200, settings);
  api.onGet('/api/backup').reply(200, { last_export: null });
  api.onGet('/api/outbox').reply(200, pageOf([]));
}
beforeEach(() => {
  api = createFakeApi();
});
afterEach(() => api.restore());

const renderOnline = (role: 'admin' | 'receptionist' | 'dentist' = 'admin') =>
  renderScreen(<SettingsPage />, { url: '/settings', staff: staffMember(role) });

/** The form item (label, control and its messages) of the field with this label. */
const fieldOf = (label: string) => screen.getByLabelText(label).closest('.ant-form-item') as HTMLElement;
/** A treatment's row of the visit types, and its checkbox for new or returning patients. */
const rowOf = (treatment: string) => screen.getByRole('group', { name: treatment });
const boxOf = (treatment: string, who: 'New patients' | 'Returning patients') =>
  within(rowOf(treatment)).getByRole('checkbox', { name: who });
const visitTypes = () => screen.getByRole('group', { name: 'Visit types offered online' });
const ADDRESS = `${window.location.origin}/book/bright-smile-dental`;
/**
 * The tab's switch, once the page is drawn: every tab's form renders first, which on a machine busy
 * with other suites takes longer than the usual two seconds.
 */
const findSwitch = () => screen.findByRole('switch', { name: 'Online booking' }, { timeout: 10_000 });

describe('Settings > Online booking', () => {
  it('is part of General, off to start with, every treatment listed and none offered', async () => {
    answer(SAVED);
    renderOnline();
    const enabled = await findSwitch();
    expect(enabled).not.toBeChecked();
    expect(screen.getByText(ADDRESS)).toBeInTheDocument();
    expect(
      screen.getByText('While online booking is off, this page tells patients it is not available.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Notice')).toHaveValue('2');
    expect(screen.getByLabelText('Horizon')).toHaveValue('60');
    expect(screen.getByLabelText('Cut-off')).toHaveValue('24');
    expect(screen.getByLabelText('Visits per contact')).toHaveValue('2');
    expect(within(fieldOf('Horizon')).getByText('days')).toBeInTheDocument();
    // All five treatments, in their usual order, none ticked.
    const rows = within(visitTypes()).getAllByRole('group');
    expect(rows.map((row) => row.querySelector('legend')?.textContent)).toEqual([
      'Regular Cleaning',
      'Dental Checkup',
      'Cavity Filling',
      'Tooth Extraction',
      'Root Canal',
    ]);
    expect(within(visitTypes()).getAllByRole('checkbox')).toHaveLength(10);
    for (const box of within(visitTypes()).getAllByRole('checkbox')) expect(box).not.toBeChecked();
    expect(within(visitTypes()).getAllByText('Not offered online')).toHaveLength(5);
  });

  it('an admin turns it on, offers Regular Cleaning to returning patients and changes the notice; Save sends exactly that', async () => {
    answer(SAVED);
    api.onPut('/api/settings').reply(200, SAVED);
    const view = renderOnline();
    await view.user.click(await findSwitch());
    // On with nothing offered: the admin is told patients cannot book yet.
    expect(
      await screen.findByText('No visit type is offered online yet: patients cannot book until one is.'),
    ).toBeInTheDocument();
    expect(
      screen.getByText("Give patients this address, or link to it from the clinic's website."),
    ).toBeInTheDocument();

    await view.user.click(boxOf('Regular Cleaning', 'Returning patients'));
    expect(boxOf('Regular Cleaning', 'Returning patients')).toBeChecked();
    expect(boxOf('Regular Cleaning', 'New patients')).not.toBeChecked();
    expect(within(rowOf('Regular Cleaning')).queryByText('Not offered online')).not.toBeInTheDocument();
    await waitFor(() =>
      expect(
        screen.queryByText('No visit type is offered online yet: patients cannot book until one is.'),
      ).not.toBeInTheDocument(),
    );
    const notice = screen.getByLabelText('Notice');
    await view.user.clear(notice);
    await view.user.type(notice, '4');
    await view.user.click(screen.getByRole('button', { name: 'Save Settings' }));

    expect(await screen.findByText(SAVED_MESSAGE)).toBeInTheDocument();
    expect(api.sent('put')).toHaveLength(1);
    const body = api.sent('put')[0]?.body as PracticeSettings;
    expect(body.onlineBooking).toEqual({
      enabled: true,
      noticeHours: 4,
      horizonDays: 60,
      cutoffHours: 24,
      maxOpenPerContact: 2,
      visitTypes: [{ treatment: 'Regular Cleaning', newPatients: false, returningPatients: true }],
    });
    // The rest of the settings go back as they were read.
    expect(body.practiceName).toBe('Bright Smile Dental');
    expect(body.treatmentMinutes).toEqual(DEFAULT_TREATMENT_MINUTES);
  });

  it('shows what is offered to whom; unticking both boxes of a treatment takes it off', async () => {
    answer(OFFERED);
    api.onPut('/api/settings').reply(200, OFFERED);
    const view = renderOnline();
    expect(await findSwitch()).toBeChecked();
    expect(boxOf('Dental Checkup', 'New patients')).toBeChecked();
    expect(boxOf('Dental Checkup', 'Returning patients')).toBeChecked();
    expect(boxOf('Root Canal', 'New patients')).not.toBeChecked();
    expect(boxOf('Root Canal', 'Returning patients')).toBeChecked();
    expect(within(visitTypes()).getAllByText('Not offered online')).toHaveLength(3);
    expect(screen.getByRole('button', { name: "Copy the booking page's address" })).toBeInTheDocument();

    await view.user.click(boxOf('Dental Checkup', 'New patients'));
    await view.user.click(boxOf('Dental Checkup', 'Returning patients'));
    expect(within(rowOf('Dental Checkup')).getByText('Not offered online')).toBeInTheDocument();
    await view.user.click(boxOf('Root Canal', 'New patients'));
    await view.user.click(screen.getByRole('button', { name: 'Save Settings' }));

    await waitFor(() => expect(api.sent('put')).toHaveLength(1));
    const body = api.sent('put')[0]?.body as PracticeSettings;
    expect(body.onlineBooking.visitTypes).toEqual([
      { treatment: 'Root Canal', newPatients: true, returningPatients: true },
    ]);
  });

  it('a number out of range is refused beside its field, and nothing is sent', async () => {
    answer(SAVED);
    const view = renderOnline();
    await findSwitch();
    const cutoff = screen.getByLabelText('Cut-off');
    await view.user.clear(cutoff);
    await view.user.type(cutoff, '200');
    await view.user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await within(fieldOf('Cut-off')).findByText('At most 168 hours (a week)')).toBeInTheDocument();
    expect(cutoff).toHaveValue('200');
    expect(screen.getByText('Some settings need correcting: see the marked fields.')).toBeInTheDocument();
    expect(api.sent('put')).toHaveLength(0);
  });

  it("puts the server's refusal of the horizon beside that field", async () => {
    answer(SAVED);
    api
      .onPut('/api/settings')
      .reply(
        400,
        refusal('Invalid onlineBooking.horizonDays: At least 1 day', [
          { field: 'onlineBooking.horizonDays', message: 'At least 1 day' },
        ]),
      );
    const view = renderOnline();
    await findSwitch();
    await view.user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await within(fieldOf('Horizon')).findByText('At least 1 day')).toBeInTheDocument();
    expect(screen.getByLabelText('Horizon')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Invalid onlineBooking.horizonDays: At least 1 day')).toBeInTheDocument();
    // Nothing offered online yet is no reason to hold the save back: the server was asked.
    expect(api.sent('put')).toHaveLength(1);
  });

  it("puts the server's refusal of a visit type under the visit types, naming its treatment", async () => {
    answer(OFFERED);
    const message = 'Offer it to new patients, returning patients or both';
    api
      .onPut('/api/settings')
      .reply(
        400,
        refusal(`Invalid onlineBooking.visitTypes.1.newPatients: ${message}`, [
          { field: 'onlineBooking.visitTypes.1.newPatients', message },
        ]),
      );
    const view = renderOnline();
    await findSwitch();
    await view.user.click(screen.getByRole('button', { name: 'Save Settings' }));
    const item = visitTypes().closest('.ant-form-item') as HTMLElement;
    expect(await within(item).findByText(`Root Canal: ${message}`)).toBeInTheDocument();
    expect(visitTypes()).toHaveAttribute('aria-invalid', 'true');
    // A change to the visit types takes the refusal away.
    await view.user.click(boxOf('Root Canal', 'New patients'));
    await waitFor(() => expect(within(item).queryByText(`Root Canal: ${message}`)).not.toBeInTheDocument());
  });

  it('others read the rules and the address but cannot change them', async () => {
    answer(OFFERED);
    renderOnline('receptionist');
    expect(await findSwitch()).toBeDisabled();
    expect(screen.getByRole('switch', { name: 'Online booking' })).toBeChecked();
    for (const label of ['Notice', 'Horizon', 'Cut-off', 'Visits per contact']) {
      expect(screen.getByLabelText(label)).toBeDisabled();
    }
    for (const box of within(visitTypes()).getAllByRole('checkbox')) expect(box).toBeDisabled();
    expect(boxOf('Root Canal', 'Returning patients')).toBeChecked();
    expect(screen.getByText(ADDRESS)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save Settings' })).not.toBeInTheDocument();
  });
});
