import { type FreeTimes, PAST_BOOKING_MESSAGE } from '@dental/shared';
import { todayDay } from '@dental/shared/kit';
import {
  createFakeApi,
  type FakeApi,
  findDialog,
  pageOf,
  refusal,
  renderScreen,
  staffMember,
} from '@dental/shared/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CHAIRS, MIA, MIA_VISIT, MICHAEL, RETIRED, SARAH, SETTINGS } from '../testing/fixtures';
import { dayBefore } from './AppointmentFilters';
import { AppointmentForm } from './AppointmentForm';

let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
  api.onGet('/api/dentists').reply(200, pageOf([SARAH, MICHAEL, RETIRED]));
  api.onGet('/api/chairs').reply(200, { data: CHAIRS });
  api.onGet('/api/settings').reply(200, SETTINGS);
});

/** A free-times answer (GET /api/dentists/:id/free-times) for DAY. */
function freeTimes(times: string[], overrides: Partial<FreeTimes> = {}): FreeTimes {
  return {
    date: DAY,
    duration: 30,
    times,
    open: [{ start: '09:00', end: '17:00' }],
    reason: times.length ? null : 'fully_booked',
    message: times.length ? null : 'Fully booked',
    ...overrides,
  };
}
afterEach(() => api.restore());

function renderForm() {
  const onSaved = jest.fn();
  const onClose = jest.fn();
  const view = renderScreen(<AppointmentForm open appointment={null} onClose={onClose} onSaved={onSaved} />, {
    url: '/appointments?new=1',
  });
  return { ...view, onSaved, onClose };
}

/** The options of the open antd Select: title and whether it can be chosen. */
const openOptions = () =>
  Array.from(
    document.querySelectorAll(
      '.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option',
    ),
  ).map((option) => ({
    title: option.getAttribute('title'),
    disabled: option.getAttribute('aria-disabled') === 'true',
  }));

async function choose(
  view: ReturnType<typeof renderForm>,
  dialog: HTMLElement,
  field: string,
  title: string,
) {
  await view.user.click(within(dialog).getByLabelText(field));
  await view.user.click(await screen.findByTitle(title));
}

const DAY = '2099-03-04';

describe('AppointmentForm (docs/product.md, Validation rules: Appointment form)', () => {
  it('requires every field but notes and checks the phone and date before anything is sent', async () => {
    const view = renderForm();
    const dialog = await findDialog('New Appointment');
    expect(within(dialog).getByLabelText('Phone')).toHaveAttribute('type', 'tel');
    await view.user.click(within(dialog).getByText('Book Appointment'));
    // Patient name, phone, dentist, date, time, treatment; and the length.
    await waitFor(() => expect(within(dialog).getAllByText('This field is required')).toHaveLength(6));
    expect(within(dialog).getByText('Give the length in minutes')).toBeInTheDocument();

    await view.user.type(within(dialog).getByLabelText('Phone'), 'call me');
    expect(await within(dialog).findByText('Use digits, spaces and + ( ) - . only')).toBeInTheDocument();
    await view.user.clear(within(dialog).getByLabelText('Phone'));
    await view.user.type(within(dialog).getByLabelText('Phone'), '12-34');
    expect(await within(dialog).findByText('A phone number has 7 to 15 digits')).toBeInTheDocument();
    await view.user.type(within(dialog).getByLabelText('Date'), dayBefore(todayDay()));
    expect(await within(dialog).findByText(PAST_BOOKING_MESSAGE)).toBeInTheDocument();
    // The dentists offered are the clinic's active ones.
    await view.user.click(within(dialog).getByLabelText('Dentist'));
    await waitFor(() =>
      expect(openOptions().map((option) => option.title)).toEqual(['Dr. Sarah Johnson', 'Dr. Michael Chen']),
    );

    expect(api.sent('post')).toHaveLength(0);
  });

  it('offers no time on a day the dentist does not work, and says why', async () => {
    api.onGet('/api/dentists/2/free-times').reply(
      200,
      freeTimes([], {
        reason: 'day_inactive',
        message: `Dr. Michael Chen is not available on ${DAY}: the day is marked inactive`,
      }),
    );
    const view = renderForm();
    const dialog = await findDialog('New Appointment');
    await choose(view, dialog, 'Dentist', 'Dr. Michael Chen');
    await view.user.type(within(dialog).getByLabelText('Date'), DAY);
    await choose(view, dialog, 'Treatment', 'Dental Checkup');
    expect(
      await within(dialog).findByText(
        `Dr. Michael Chen is not available on ${DAY}: the day is marked inactive: choose another day or dentist.`,
      ),
    ).toBeInTheDocument();
    await view.user.click(within(dialog).getByLabelText('Time'));
    await waitFor(() => expect(openOptions()).toEqual([]));
  });

  it("fills the length from the treatment and offers the dentist's free times for it", async () => {
    api
      .onGet('/api/dentists/2/free-times')
      .reply((config) =>
        config.params.duration === 90
          ? [200, freeTimes(['09:00', '14:00'], { duration: 90 })]
          : [200, freeTimes(['09:00', '09:15', '14:00'], { duration: Number(config.params.duration) })],
      );
    const view = renderForm();
    const dialog = await findDialog('New Appointment');
    expect(
      within(dialog).getByText('Choose the dentist and date to see the free times.'),
    ).toBeInTheDocument();
    await choose(view, dialog, 'Dentist', 'Dr. Michael Chen');
    await view.user.type(within(dialog).getByLabelText('Date'), DAY);
    await choose(view, dialog, 'Treatment', 'Root Canal');
    // The Root Canal's length from Settings.
    expect(within(dialog).getByLabelText('Duration')).toHaveValue('90');
    expect(
      await within(dialog).findByText(/^2 start times free for Dr. Michael Chen on .+ for 90 minutes.$/),
    ).toBeInTheDocument();
    expect(api.lastParams('/api/dentists/2/free-times')).toEqual({
      date: DAY,
      duration: 90,
      treatment: 'Root Canal',
    });
    await view.user.click(within(dialog).getByLabelText('Time'));
    await waitFor(() =>
      expect(openOptions()).toEqual([
        { title: '09:00–10:30', disabled: false },
        { title: '14:00–15:30', disabled: false },
      ]),
    );
    await view.user.click(screen.getByTitle('09:00–10:30'));
    // A length typed by hand asks again, and keeps the time it still offers.
    await view.user.clear(within(dialog).getByLabelText('Duration'));
    await view.user.type(within(dialog).getByLabelText('Duration'), '45');
    expect(await within(dialog).findByText(/^3 start times free .+ for 45 minutes.$/)).toBeInTheDocument();
    expect(api.lastParams('/api/dentists/2/free-times')).toEqual({
      date: DAY,
      duration: 45,
      treatment: 'Root Canal',
    });
    // A length off the 5-minute steps asks for a valid one instead of free times.
    await view.user.clear(within(dialog).getByLabelText('Duration'));
    await view.user.type(within(dialog).getByLabelText('Duration'), '47');
    expect(
      await within(dialog).findByText(
        'Give a length of 5 to 480 minutes in steps of 5 to see the free times.',
      ),
    ).toBeInTheDocument();
    await view.user.clear(within(dialog).getByLabelText('Duration'));
    await view.user.type(within(dialog).getByLabelText('Duration'), '45');
    expect(await within(dialog).findByText(/^3 start times free .+ for 45 minutes.$/)).toBeInTheDocument();
    // A treatment chosen after a typed length leaves the length alone.
    await choose(view, dialog, 'Treatment', 'Dental Checkup');
    expect(within(dialog).getByLabelText('Duration')).toHaveValue('45');
  });

  it("a new appointment opened with a treatment starts with it and the clinic's length for it", async () => {
    api
      .onGet('/api/settings')
      .reply(200, { ...SETTINGS, treatmentMinutes: { ...SETTINGS.treatmentMinutes, 'Dental Checkup': 40 } });
    const view = renderScreen(
      <AppointmentForm
        open
        appointment={null}
        treatment="Dental Checkup"
        onClose={jest.fn()}
        onSaved={jest.fn()}
      />,
      { url: '/appointments?new=1&treatment=Dental+Checkup' },
    );
    const dialog = await findDialog('New Appointment');
    expect(within(dialog).getByTitle('Dental Checkup')).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getByLabelText('Duration')).toHaveValue('40'));
    // Another treatment chosen by hand brings its own length, as ever.
    await choose(view as ReturnType<typeof renderForm>, dialog, 'Treatment', 'Root Canal');
    expect(within(dialog).getByLabelText('Duration')).toHaveValue('90');
  });

  it('books outside open hours only with a reason, for an admin or receptionist', async () => {
    api.onGet('/api/dentists/1/free-times').reply(200, freeTimes(['09:00']));
    api.onGet('/api/patients').reply(200, pageOf([]));
    api.onPost('/api/appointments').reply(201, { ...MIA_VISIT, id: 41, date: DAY, time: '18:30' });
    const view = renderForm();
    const dialog = await findDialog('New Appointment');
    await view.user.type(within(dialog).getByLabelText('Patient Name'), 'Eve Emergency');
    await view.user.type(within(dialog).getByLabelText('Phone'), '555 0911');
    await choose(view, dialog, 'Dentist', 'Dr. Sarah Johnson');
    await view.user.type(within(dialog).getByLabelText('Date'), DAY);
    await choose(view, dialog, 'Treatment', 'Tooth Extraction');
    await view.user.click(within(dialog).getByLabelText('Book outside open hours (emergency)'));
    // Any time: the list of free times gives way to a time field, which takes a whole time at once
    // (jsdom drops the characters typed one by one).
    await waitFor(() => expect(within(dialog).getByLabelText('Time')).toHaveAttribute('type', 'time'));
    fireEvent.change(within(dialog).getByLabelText('Time'), { target: { value: '18:30' } });
    await view.user.click(within(dialog).getByText('Book Appointment'));
    expect(
      await within(dialog).findByText('Say why this visit is booked outside open hours'),
    ).toBeInTheDocument();
    expect(api.sent('post')).toHaveLength(0);
    await view.user.type(
      within(dialog).getByLabelText('Reason for booking outside open hours'),
      'Knocked-out tooth',
    );
    await view.user.click(within(dialog).getByText('Book Appointment'));
    await waitFor(() => expect(view.onSaved).toHaveBeenCalledTimes(1));
    expect(api.sent('post')[0]?.body).toMatchObject({
      time: '18:30',
      duration: 60,
      outside_hours: true,
      outside_hours_reason: 'Knocked-out tooth',
    });
  });

  it('offers a dentist no way to book outside open hours', async () => {
    const onSaved = jest.fn();
    renderScreen(<AppointmentForm open appointment={null} onClose={jest.fn()} onSaved={onSaved} />, {
      url: '/appointments?new=1',
      staff: staffMember('dentist'),
    });
    const dialog = await findDialog('New Appointment');
    expect(within(dialog).queryByLabelText('Book outside open hours (emergency)')).not.toBeInTheDocument();
  });

  it('finds the patient by name, fills the phone and books for that patient', async () => {
    api.onGet('/api/patients').reply(200, pageOf([MIA]));
    api.onGet(/\/api\/dentists\/\d+\/free-times/).reply(200, freeTimes(['14:00'], { duration: 90 }));
    api.onPost('/api/appointments').reply(201, { ...MIA_VISIT, id: 40, date: DAY, time: '14:00' });
    const view = renderForm();
    const invalidated = jest.spyOn(view.queryClient, 'invalidateQueries');
    const dialog = await findDialog('New Appointment');

    await view.user.type(within(dialog).getByLabelText('Patient Name'), 'mia');
    await view.user.click(await screen.findByText('555-0107'));
    expect(within(dialog).getByLabelText('Patient Name')).toHaveValue('Mia Martin');
    expect(within(dialog).getByLabelText('Phone')).toHaveValue('555-0107');
    expect(api.lastParams('/api/patients')).toMatchObject({ search: 'mia' });

    await choose(view, dialog, 'Dentist', 'Dr. Michael Chen');
    await view.user.type(within(dialog).getByLabelText('Date'), DAY);
    await choose(view, dialog, 'Treatment', 'Root Canal');
    await choose(view, dialog, 'Time', '14:00–15:30');
    await view.user.type(within(dialog).getByLabelText('Notes'), 'Prefers mornings');
    await view.user.click(within(dialog).getByText('Book Appointment'));

    await waitFor(() => expect(view.onSaved).toHaveBeenCalledTimes(1));
    expect(api.sent('post')[0]?.body).toEqual({
      patient: 'Mia Martin',
      phone: '555-0107',
      patient_id: 7,
      date: DAY,
      time: '14:00',
      dentist_id: 2,
      treatment: 'Root Canal',
      duration: 90,
      notes: 'Prefers mornings',
    });
    const keys = invalidated.mock.calls.map(([filters]) => filters?.queryKey?.[0]);
    expect(keys).toEqual(expect.arrayContaining(['appointments', 'patients', 'dashboard']));
  });

  it('a clash is shown in the form with the server message; nothing is saved', async () => {
    api.onGet(/\/api\/dentists\/\d+\/free-times/).reply(200, freeTimes(['09:00']));
    api.onGet('/api/patients').reply(200, pageOf([]));
    api
      .onPost('/api/appointments')
      .reply(
        409,
        refusal('Dr. Sarah Johnson already has an appointment on 2099-03-04 at 09:00–10:30 (Mia Martin)', [
          { field: 'time', message: 'This time is taken' },
        ]),
      );
    const view = renderForm();
    const dialog = await findDialog('New Appointment');
    await view.user.type(within(dialog).getByLabelText('Patient Name'), 'Noah New');
    await view.user.type(within(dialog).getByLabelText('Phone'), '555 0199');
    await choose(view, dialog, 'Dentist', 'Dr. Sarah Johnson');
    await view.user.type(within(dialog).getByLabelText('Date'), DAY);
    await choose(view, dialog, 'Treatment', 'Dental Checkup');
    await choose(view, dialog, 'Time', '09:00–09:30');
    await view.user.click(within(dialog).getByText('Book Appointment'));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Dr. Sarah Johnson already has an appointment on 2099-03-04 at 09:00–10:30 (Mia Martin)',
    );
    expect(within(dialog).getByText('This time is taken')).toBeInTheDocument();
    expect(api.sent('post')).toHaveLength(1);
    expect(api.sent('post')[0]?.body).toMatchObject({
      patient: 'Noah New',
      phone: '555 0199',
      patient_id: null,
    });
    expect(view.onSaved).not.toHaveBeenCalled();
    expect(view.onClose).not.toHaveBeenCalled();
    expect(within(dialog).getByLabelText('Patient Name')).toHaveValue('Noah New');
  });
});

describe('AppointmentForm: the Chair field (docs/product.md, Chairs)', () => {
  /** The hint under the Chair field. */
  const chairHintOf = (dialog: HTMLElement) =>
    within(dialog).getByLabelText('Chair').closest('.ant-form-item')?.querySelector('.ant-form-item-extra')
      ?.textContent;

  it('offers any free chair and the chairs in service; with any chair, says which one the chosen time takes', async () => {
    api.onGet('/api/dentists/2/free-times').reply(
      200,
      freeTimes(['09:00', '09:30'], {
        slots: [
          { time: '09:00', chair_id: 2 },
          { time: '09:30', chair_id: 1 },
        ],
      }),
    );
    const view = renderForm();
    const dialog = await findDialog('New Appointment');
    // Any free chair unless one is chosen; Chair 3 is out of service and not offered.
    expect(within(dialog).getByTitle('Any free chair')).toBeInTheDocument();
    await view.user.click(within(dialog).getByLabelText('Chair'));
    await waitFor(() =>
      expect(openOptions().map((option) => option.title)).toEqual(['Any free chair', 'Chair 1', 'Chair 2']),
    );
    await view.user.keyboard('{Escape}');
    expect(chairHintOf(dialog)).toBe('The first free chair is taken: the dentist’s own first.');

    await choose(view, dialog, 'Dentist', 'Dr. Michael Chen');
    await view.user.type(within(dialog).getByLabelText('Date'), DAY);
    await choose(view, dialog, 'Treatment', 'Dental Checkup');
    expect(await within(dialog).findByText(/^2 start times free for Dr. Michael Chen/)).toBeInTheDocument();
    // No chair asked for: every free time, each with the chair it would take.
    expect(api.lastParams('/api/dentists/2/free-times')).toEqual({
      date: DAY,
      duration: 30,
      treatment: 'Dental Checkup',
    });
    await choose(view, dialog, 'Time', '09:00–09:30');
    await waitFor(() => expect(chairHintOf(dialog)).toBe('Chair 2 will be taken.'));
    await choose(view, dialog, 'Time', '09:30–10:00');
    await waitFor(() => expect(chairHintOf(dialog)).toBe('Chair 1 will be taken.'));
  });

  it('a chair chosen asks for its free times only, and the booking holds that chair', async () => {
    api.onGet('/api/dentists/2/free-times').reply((config) =>
      config.params.chair_id === 2
        ? [200, freeTimes(['10:00'], { slots: [{ time: '10:00', chair_id: 2 }] })]
        : [
            200,
            freeTimes(['09:00', '10:00'], {
              slots: [
                { time: '09:00', chair_id: 1 },
                { time: '10:00', chair_id: 1 },
              ],
            }),
          ],
    );
    api.onGet('/api/patients').reply(200, pageOf([]));
    api
      .onPost('/api/appointments')
      .reply(201, { ...MIA_VISIT, id: 42, date: DAY, time: '10:00', chair_id: 2, chair_name: 'Chair 2' });
    const view = renderForm();
    const dialog = await findDialog('New Appointment');
    await view.user.type(within(dialog).getByLabelText('Patient Name'), 'Noah New');
    await view.user.type(within(dialog).getByLabelText('Phone'), '555 0199');
    await choose(view, dialog, 'Dentist', 'Dr. Michael Chen');
    await view.user.type(within(dialog).getByLabelText('Date'), DAY);
    await choose(view, dialog, 'Treatment', 'Dental Checkup');
    expect(await within(dialog).findByText(/^2 start times free for Dr. Michael Chen/)).toBeInTheDocument();

    await choose(view, dialog, 'Chair', 'Chair 2');
    await waitFor(() => expect(chairHintOf(dialog)).toBe('Only the times this chair is free are offered.'));
    expect(await within(dialog).findByText(/^1 start time free for Dr. Michael Chen/)).toBeInTheDocument();
    expect(api.lastParams('/api/dentists/2/free-times')).toEqual({
      date: DAY,
      duration: 30,
      treatment: 'Dental Checkup',
      chair_id: 2,
    });
    await view.user.click(within(dialog).getByLabelText('Time'));
    await waitFor(() => expect(openOptions()).toEqual([{ title: '10:00–10:30', disabled: false }]));
    await view.user.click(screen.getByTitle('10:00–10:30'));
    await view.user.click(within(dialog).getByText('Book Appointment'));

    await waitFor(() => expect(view.onSaved).toHaveBeenCalledTimes(1));
    expect(api.sent('post')).toHaveLength(1);
    expect(api.sent('post')[0]?.body).toMatchObject({
      patient: 'Noah New',
      dentist_id: 2,
      date: DAY,
      time: '10:00',
      treatment: 'Dental Checkup',
      chair_id: 2,
    });
  });

  it('a chair named in the link is chosen, and only its free times are asked for', async () => {
    api
      .onGet('/api/dentists/1/free-times')
      .reply(200, freeTimes(['14:00'], { slots: [{ time: '14:00', chair_id: 2 }] }));
    renderScreen(
      <AppointmentForm
        open
        appointment={null}
        dentistId={1}
        date={DAY}
        time="14:00"
        treatment="Dental Checkup"
        chairId={2}
        onClose={jest.fn()}
        onSaved={jest.fn()}
      />,
      { url: `/appointments?new=1&date=${DAY}&time=14:00&dentist=1&treatment=Dental+Checkup&chair=2` },
    );
    const dialog = await findDialog('New Appointment');
    expect(await within(dialog).findByTitle('Chair 2')).toBeInTheDocument();
    expect(within(dialog).queryByTitle('Any free chair')).not.toBeInTheDocument();
    expect(chairHintOf(dialog)).toBe('Only the times this chair is free are offered.');
    await waitFor(() =>
      expect(api.lastParams('/api/dentists/1/free-times')).toEqual({
        date: DAY,
        duration: 30,
        treatment: 'Dental Checkup',
        chair_id: 2,
      }),
    );
    expect(within(dialog).getByTitle('14:00–14:30')).toBeInTheDocument();
  });
});
