import type { WaitlistMatch } from '@dental/shared';
import {
  createFakeApi,
  type FakeApi,
  findDialog,
  pageOf,
  renderScreen,
  waitlistEntry,
} from '@dental/shared/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { CHAIRS, MIA, MICHAEL, SARAH, SETTINGS, TOM_VISIT } from '../testing/fixtures';
import AppointmentsPage from './AppointmentsPage';

/** Tom's 14:00 checkup with Dr. Sarah Johnson: the visit whose time is freed. */
const FREED = { ...TOM_VISIT, duration: 60, end_time: '15:00' };

const MIA_WAITING: WaitlistMatch = {
  entry: waitlistEntry({
    weekdays: [1, 2, 3, 4, 5],
    part_of_day: 'afternoon',
    earliest_on: '2099-12-01',
    latest_on: '2099-12-31',
  }),
  offer: { dentist_id: 1, dentist_name: 'Dr. Sarah Johnson', date: FREED.date, time: '14:00', duration: 60 },
  wants_this_dentist: true,
  unfilled_minutes: 0,
  told: null,
};

let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
  api.onGet('/api/dentists').reply(200, pageOf([SARAH, MICHAEL]));
  api.onGet('/api/chairs').reply(200, { data: CHAIRS });
  api.onGet('/api/settings').reply(200, SETTINGS);
  api.onGet('/api/appointments/overlapping').reply(200, { data: [], total: 0 });
  api.onGet('/api/appointments').reply(200, pageOf([FREED], 1));
});
afterEach(() => api.restore());

describe('AppointmentsPage: Fill this time', () => {
  it('after a cancel offers the freed time to the waitlist, and books the best match off it', async () => {
    api.onPatch('/api/appointments/32/status').reply(200, { ...FREED, status: 'cancelled', version: 2 });
    api.onGet('/api/waitlist/matches').reply(200, { data: [MIA_WAITING] });
    api.onGet('/api/patients/7').reply(200, MIA);
    api.onGet('/api/dentists/1/free-times').reply(200, {
      date: FREED.date,
      duration: 60,
      times: ['14:00', '15:00'],
      open: [{ start: '09:00', end: '17:00' }],
      reason: null,
      message: null,
    });
    api.onPost('/api/appointments').reply(201, {
      ...FREED,
      id: 40,
      patient: 'Mia Martin',
      patient_id: 7,
      treatment: 'Regular Cleaning',
    });
    const view = renderScreen(<AppointmentsPage />, { url: '/appointments' });
    await view.user.click(await screen.findByLabelText('Cancel appointment of Tom Baker'));

    const panel = (await screen.findByText(/^Fill this time:/)).closest('.ant-alert') as HTMLElement;
    expect(panel).toHaveTextContent('14:00–15:00 with Dr. Sarah Johnson');
    expect(api.lastParams('/api/waitlist/matches')).toEqual({
      dentist_id: 1,
      date: FREED.date,
      time: '14:00',
      duration: 60,
    });
    const list = await within(panel).findByRole('list', { name: 'Waitlisted patients for this time' });
    expect(list).toHaveTextContent('Mia Martin · Regular Cleaning');
    expect(list).toHaveTextContent('(asked for Dr. Sarah Johnson)');

    await view.user.click(within(panel).getByRole('button', { name: 'Book Mia Martin at 14:00' }));
    expect(Object.fromEntries(view.currentParams())).toEqual({
      new: '1',
      patient: '7',
      dentist: '1',
      date: FREED.date,
      time: '14:00',
      treatment: 'Regular Cleaning',
      waitlist: '4',
    });
    const form = await findDialog('New Appointment');
    await waitFor(() => expect(within(form).getByLabelText('Patient Name')).toHaveValue('Mia Martin'));
    await waitFor(() => expect(within(form).getByTitle('14:00–15:00')).toBeInTheDocument());
    await view.user.click(within(form).getByRole('button', { name: 'Book Appointment' }));

    await waitFor(() => expect(api.sent('post', '/api/appointments')).toHaveLength(1));
    expect(api.sent('post', '/api/appointments')[0]?.body).toMatchObject({
      patient_id: 7,
      dentist_id: 1,
      date: FREED.date,
      time: '14:00',
      treatment: 'Regular Cleaning',
      waitlist_entry_id: 4,
    });
    // The time is filled: the panel goes.
    await waitFor(() => expect(screen.queryByText(/^Fill this time:/)).not.toBeInTheDocument());
  });

  it('after a delete says so when no one on the waitlist wants the time', async () => {
    api.onDelete('/api/appointments/32').reply(200, { message: 'Appointment deleted' });
    api.onGet('/api/waitlist/matches').reply(200, { data: [] });
    const view = renderScreen(<AppointmentsPage />, { url: '/appointments' });
    await view.user.click(await screen.findByLabelText('Delete appointment of Tom Baker'));
    await view.user.click(await screen.findByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('No one on the waitlist wants this time.')).toBeInTheDocument();
    await view.user.click(screen.getByRole('button', { name: 'Close Fill this time' }));
    await waitFor(() => expect(screen.queryByText(/^Fill this time:/)).not.toBeInTheDocument());
  });

  it('an edit opened from the calendar that frees time goes back there with that time, for it to offer', async () => {
    api.onGet('/api/appointments/32').reply(200, FREED);
    api.onGet('/api/dentists/1/free-times').reply(200, {
      date: FREED.date,
      duration: 60,
      times: ['14:00'],
      open: [{ start: '09:00', end: '17:00' }],
      reason: null,
      message: null,
    });
    api.onPut('/api/appointments/32').reply(200, { ...FREED, status: 'cancelled', version: 2 });
    const back = `/calendar?day=${FREED.date}`;
    const view = renderScreen(<AppointmentsPage />, {
      url: `/appointments?appointment=32&returnTo=${encodeURIComponent(back)}`,
    });
    const form = await findDialog('Edit Appointment');
    await view.user.click(within(form).getByText('Save Changes'));

    await waitFor(() => expect(window.location.pathname).toBe('/calendar'));
    expect(Object.fromEntries(view.currentParams())).toEqual({
      day: FREED.date,
      freed: `1.${FREED.date}.14:00.60`,
    });
    // The calendar offers it: not this screen as well.
    expect(api.sent('get', '/api/waitlist/matches')).toHaveLength(0);
  });
});
