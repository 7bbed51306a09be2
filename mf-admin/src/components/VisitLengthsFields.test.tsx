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
  treatmentMinutes: { ...DEFAULT_TREATMENT_MINUTES, 'Dental Checkup': 45 },
  bookingGridMinutes: 10,
  turnoverMinutes: 10,
  dentistParts: {
    ...wholeVisitParts({ ...DEFAULT_TREATMENT_MINUTES, 'Dental Checkup': 45 }),
    'Cavity Filling': { dentistFrom: 10, dentistTo: 50 },
  },
  mfaRequired: 'none',
  onlineBooking: { ...DEFAULT_ONLINE_BOOKING, visitTypes: [] },
  slug: 'bright-smile-dental',
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

describe("Settings > General > turnover and the dentist's part", () => {
  const partField = (treatment: string, end: 'from' | 'to') =>
    screen.getByRole('spinbutton', { name: `${treatment}: dentist ${end} (minute)` });
  /** The chair-time bar drawn under the treatment's fields. */
  const barOf = (treatment: string) =>
    within(screen.getByLabelText(treatment).closest('.treatment-time') as HTMLElement).getByRole('img', {
      name: /^Chair /,
    });
  type View = ReturnType<typeof renderSettings>;
  const save = (view: View) => view.user.click(screen.getByRole('button', { name: 'Save Settings' }));
  async function retype(view: View, field: HTMLElement, typed: string) {
    await view.user.clear(field);
    await view.user.type(field, typed);
  }

  it("shows the saved turnover and parts, and a bar of each treatment's chair time", async () => {
    renderSettings();
    expect(await screen.findByLabelText('Turnover between visits (minutes)')).toHaveValue('10');
    expect(partField('Cavity Filling', 'from')).toHaveValue('10');
    expect(partField('Cavity Filling', 'to')).toHaveValue('50');
    expect(partField('Dental Checkup', 'from')).toHaveValue('0');
    expect(partField('Dental Checkup', 'to')).toHaveValue('45');
    // The bars follow the form's values: drawn once they are in.
    await waitFor(() =>
      expect(barOf('Cavity Filling')).toHaveAccessibleName(
        'Chair 60 min + 10 min turnover; dentist from minute 10 to 50',
      ),
    );
    expect(barOf('Dental Checkup')).toHaveAccessibleName(
      'Chair 45 min + 10 min turnover; dentist throughout the visit',
    );
    expect(barOf('Root Canal')).toHaveAccessibleName(
      'Chair 90 min + 10 min turnover; dentist throughout the visit',
    );
  });

  it('the bars follow the fields as they are typed; a part running to the end follows its length', async () => {
    const view = renderSettings();
    const turnover = await screen.findByLabelText('Turnover between visits (minutes)');
    await retype(view, turnover, '0');
    await waitFor(() =>
      expect(barOf('Cavity Filling')).toHaveAccessibleName(
        'Chair 60 min, no turnover; dentist from minute 10 to 50',
      ),
    );
    await retype(view, partField('Cavity Filling', 'from'), '20');
    await waitFor(() =>
      expect(barOf('Cavity Filling')).toHaveAccessibleName(
        'Chair 60 min, no turnover; dentist from minute 20 to 50',
      ),
    );
    // The dentist needed throughout stays so as the visit is shortened.
    await retype(view, screen.getByLabelText('Regular Cleaning'), '45');
    expect(partField('Regular Cleaning', 'to')).toHaveValue('45');
    await waitFor(() =>
      expect(barOf('Regular Cleaning')).toHaveAccessibleName(
        'Chair 45 min, no turnover; dentist throughout the visit',
      ),
    );
    // A part that does not fit is not drawn, and the bar says so.
    await retype(view, partField('Cavity Filling', 'to'), '15');
    await waitFor(() =>
      expect(barOf('Cavity Filling')).toHaveAccessibleName(
        "Chair 60 min, no turnover; the dentist's part needs correcting",
      ),
    );
  });

  it.each([
    ['Cavity Filling', 'to', '65', "The dentist's part must end within the visit (60 minutes)"],
    ['Cavity Filling', 'to', '10', "The dentist's part must end after it starts"],
    ['Cavity Filling', 'from', '12', 'Use steps of 5 minutes'],
    ['Cavity Filling', 'from', '', 'This field is required'],
  ] as const)(
    'a %s part whose %s is "%s" is refused beside it, and nothing is sent',
    async (treatment, end, typed, message) => {
      api.onPut('/api/settings').reply(200, SAVED);
      const view = renderSettings();
      await screen.findByLabelText('Turnover between visits (minutes)');
      const field = partField(treatment, end);
      await view.user.clear(field);
      if (typed) await view.user.type(field, typed);
      await save(view);
      const item = field.closest('.ant-form-item') as HTMLElement;
      expect(await within(item).findByText(message)).toBeInTheDocument();
      expect(screen.getByText('Some settings need correcting: see the marked fields.')).toBeInTheDocument();
      await waitFor(() => expect(api.sent('put')).toHaveLength(0));
    },
  );

  it("a length shortened below its part's end is refused at the part, as is a turnover of 7", async () => {
    const view = renderSettings();
    await retype(view, await screen.findByLabelText('Cavity Filling'), '40');
    await retype(view, screen.getByLabelText('Turnover between visits (minutes)'), '7');
    await save(view);
    const to = partField('Cavity Filling', 'to').closest('.ant-form-item') as HTMLElement;
    expect(
      await within(to).findByText("The dentist's part must end within the visit (40 minutes)"),
    ).toBeInTheDocument();
    expect(
      within(fieldOf('Turnover between visits (minutes)')).getByText('Use steps of 5 minutes'),
    ).toBeInTheDocument();
    expect(api.sent('put')).toHaveLength(0);
  });

  it('sends the turnover and every part with the rest of the settings', async () => {
    api.onPut('/api/settings').reply(200, SAVED);
    const view = renderSettings();
    await retype(view, await screen.findByLabelText('Turnover between visits (minutes)'), '15');
    await retype(view, partField('Root Canal', 'from'), '30');
    await retype(view, partField('Root Canal', 'to'), '75');
    await save(view);

    expect(await screen.findByText(SAVED_MESSAGE)).toBeInTheDocument();
    const body = api.sent('put')[0]?.body as PracticeSettings;
    expect(body.turnoverMinutes).toBe(15);
    expect(body.dentistParts).toEqual({
      ...SAVED.dentistParts,
      'Root Canal': { dentistFrom: 30, dentistTo: 75 },
    });
  });

  it("puts the server's refusal of a part beside it", async () => {
    api
      .onPut('/api/settings')
      .reply(
        400,
        refusal(
          "Invalid dentistParts.Cavity Filling.dentistTo: The dentist's part must end within the visit (60 minutes)",
          [{ field: 'dentistParts.Cavity Filling.dentistTo', message: 'Refused by the server' }],
        ),
      );
    const view = renderSettings();
    await screen.findByLabelText('Turnover between visits (minutes)');
    await save(view);
    const to = partField('Cavity Filling', 'to').closest('.ant-form-item') as HTMLElement;
    expect(await within(to).findByText('Refused by the server')).toBeInTheDocument();
  });

  it('others read the turnover and parts but cannot change them', async () => {
    renderScreen(<SettingsPage />, { url: '/settings', staff: staffMember('receptionist') });
    expect(await screen.findByLabelText('Turnover between visits (minutes)')).toBeDisabled();
    expect(partField('Cavity Filling', 'from')).toBeDisabled();
    expect(partField('Cavity Filling', 'to')).toHaveValue('50');
    await waitFor(() =>
      expect(barOf('Cavity Filling')).toHaveAccessibleName(
        'Chair 60 min + 10 min turnover; dentist from minute 10 to 50',
      ),
    );
  });
});
