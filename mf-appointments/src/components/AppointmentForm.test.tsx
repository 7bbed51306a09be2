import { PAST_BOOKING_MESSAGE } from '@dental/shared';
import { todayDay } from '@dental/shared/kit';
import {
  createFakeApi,
  type FakeApi,
  findDialog,
  pageOf,
  refusal,
  renderScreen,
} from '@dental/shared/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { MIA, MIA_VISIT, MICHAEL, RETIRED, SARAH } from '../testing/fixtures';
import { dayBefore } from './AppointmentFilters';
import { AppointmentForm } from './AppointmentForm';

let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
  api.onGet('/api/dentists').reply(200, pageOf([SARAH, MICHAEL, RETIRED]));
});
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

describe('AppointmentForm (spec §5 Appointment form)', () => {
  it('requires every field but notes and checks the phone and date before anything is sent', async () => {
    const view = renderForm();
    const dialog = await findDialog('New Appointment');
    expect(within(dialog).getByLabelText('Phone')).toHaveAttribute('type', 'tel');
    await view.user.click(within(dialog).getByText('Book Appointment'));
    // Patient name, phone, dentist, date, time, treatment.
    await waitFor(() => expect(within(dialog).getAllByText('This field is required')).toHaveLength(6));

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

  it('offers no time on a day the dentist marked inactive, and says so', async () => {
    api.onGet('/api/availability/dentist/2').reply(
      200,
      pageOf([
        {
          id: 6,
          dentist_id: 2,
          dentist_name: 'Dr. Michael Chen',
          date: DAY,
          time_slots: [{ start: '09:00', end: '10:00', available: true }],
          status: 'inactive',
          created_at: '2026-01-01T00:00:00Z',
          updated_at: '2026-01-01T00:00:00Z',
        },
      ]),
    );
    const view = renderForm();
    const dialog = await findDialog('New Appointment');
    await choose(view, dialog, 'Dentist', 'Dr. Michael Chen');
    await view.user.type(within(dialog).getByLabelText('Date'), DAY);
    expect(
      await within(dialog).findByText(
        /^Dr. Michael Chen is not available on .+: the day is marked inactive: choose another day or dentist.$/,
      ),
    ).toBeInTheDocument();
    await view.user.click(within(dialog).getByLabelText('Time'));
    await waitFor(() => expect(openOptions()).toEqual([]));
  });

  it("offers the dentist's free slots that day, or the suggested slots when none are set", async () => {
    api.onGet('/api/availability/dentist/2').reply(
      200,
      pageOf([
        {
          id: 5,
          dentist_id: 2,
          dentist_name: 'Dr. Michael Chen',
          date: DAY,
          time_slots: [
            { start: '09:00', end: '10:00', available: true },
            { start: '10:00', end: '11:00', available: false },
            { start: '11:00', end: '12:00', available: true },
          ],
          created_at: '2026-01-01T00:00:00Z',
          updated_at: '2026-01-01T00:00:00Z',
        },
      ]),
    );
    api.onGet('/api/availability/dentist/1').reply(200, pageOf([]));
    const view = renderForm();
    const dialog = await findDialog('New Appointment');
    await choose(view, dialog, 'Dentist', 'Dr. Michael Chen');
    await view.user.type(within(dialog).getByLabelText('Date'), DAY);

    expect(await within(dialog).findByText(/2 of 3 slots free for Dr. Michael Chen/)).toBeInTheDocument();
    expect(api.lastParams('/api/availability/dentist/2')).toEqual({ date: DAY });
    await view.user.click(within(dialog).getByLabelText('Time'));
    await waitFor(() =>
      expect(openOptions()).toEqual([
        { title: '09:00-10:00', disabled: false },
        { title: '10:00-11:00 (booked)', disabled: true },
        { title: '11:00-12:00', disabled: false },
      ]),
    );
    await view.user.click(screen.getByTitle('11:00-12:00'));

    await choose(view, dialog, 'Dentist', 'Dr. Sarah Johnson');
    expect(
      await within(dialog).findByText(
        'Suggested times: no availability is set for this dentist on that day.',
      ),
    ).toBeInTheDocument();
    await view.user.click(within(dialog).getByLabelText('Time'));
    await waitFor(() =>
      expect(openOptions().map((option) => option.title)).toEqual([
        '09:00-10:00',
        '10:00-11:00',
        '11:00-12:00',
        '14:00-15:00',
        '15:00-16:00',
        '16:00-17:00',
      ]),
    );
  });

  it('finds the patient by name, fills the phone and books for that patient', async () => {
    api.onGet('/api/patients').reply(200, pageOf([MIA]));
    api.onGet(/\/api\/availability\/dentist\/\d+/).reply(200, pageOf([]));
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
    await choose(view, dialog, 'Time', '14:00-15:00');
    await choose(view, dialog, 'Treatment', 'Root Canal');
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
      notes: 'Prefers mornings',
    });
    const keys = invalidated.mock.calls.map(([filters]) => filters?.queryKey?.[0]);
    expect(keys).toEqual(expect.arrayContaining(['appointments', 'patients', 'dashboard']));
  });

  it('a clash is shown in the form with the server message; nothing is saved', async () => {
    api.onGet(/\/api\/availability\/dentist\/\d+/).reply(200, pageOf([]));
    api.onGet('/api/patients').reply(200, pageOf([]));
    api
      .onPost('/api/appointments')
      .reply(
        409,
        refusal('Dr. Sarah Johnson already has an appointment on 2099-03-04 at 09:00', [
          { field: 'time', message: 'This time is taken' },
        ]),
      );
    const view = renderForm();
    const dialog = await findDialog('New Appointment');
    await view.user.type(within(dialog).getByLabelText('Patient Name'), 'Noah New');
    await view.user.type(within(dialog).getByLabelText('Phone'), '555 0199');
    await choose(view, dialog, 'Dentist', 'Dr. Sarah Johnson');
    await view.user.type(within(dialog).getByLabelText('Date'), DAY);
    await choose(view, dialog, 'Time', '09:00-10:00');
    await choose(view, dialog, 'Treatment', 'Dental Checkup');
    await view.user.click(within(dialog).getByText('Book Appointment'));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Dr. Sarah Johnson already has an appointment on 2099-03-04 at 09:00',
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
