import type { FreeTimes, SeriesCheckAnswer } from '@dental/shared';
import { createFakeApi, type FakeApi, findDialog, pageOf, renderScreen } from '@dental/shared/testing';
import { screen, waitFor, within } from '@testing-library/react';
import AppointmentsPage from '../pages/AppointmentsPage';
import { CHAIRS, MIA_VISIT, MICHAEL, SARAH, SETTINGS } from '../testing/fixtures';
import { AppointmentForm } from './AppointmentForm';

let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
  api.onGet('/api/dentists').reply(200, pageOf([SARAH, MICHAEL]));
  api.onGet('/api/chairs').reply(200, { data: CHAIRS });
  api.onGet('/api/settings').reply(200, SETTINGS);
  api.onGet('/api/patients').reply(200, pageOf([]));
  api.onGet('/api/appointments/overlapping').reply(200, { data: [], total: 0 });
});
afterEach(() => api.restore());

const DAY = '2099-03-02';
const weekAfter = (weeks: number) => new Date(Date.UTC(2099, 2, 2 + 7 * weeks)).toISOString().slice(0, 10);

const FREE: FreeTimes = {
  date: DAY,
  duration: 30,
  times: ['09:00', '09:30'],
  open: [{ start: '09:00', end: '17:00' }],
  reason: null,
  message: null,
};

/** Six Mondays: the third clashes (09:30 is free), the fifth is a closed day with no time near. */
const CHECKED: SeriesCheckAnswer = {
  duration: 30,
  occurrences: [0, 1, 2, 3, 4, 5].map((week) => ({
    date: weekAfter(week),
    time: '09:00',
    state: week === 2 || week === 4 ? 'refused' : 'ok',
    message:
      week === 2
        ? `Dr. Sarah Johnson already has an appointment on ${weekAfter(2)} at 09:00–09:30 (Robin Inway)`
        : week === 4
          ? 'Dr. Sarah Johnson is not available on that day'
          : null,
    nearest: week === 2 ? { date: weekAfter(2), time: '09:30' } : null,
  })),
};

/** Fills a weekly booking of six from DAY at 09:00 and asks for its check. */
async function fillWeeklySix() {
  const onSaved = jest.fn();
  const view = renderScreen(
    <AppointmentForm open appointment={null} onClose={jest.fn()} onSaved={onSaved} />,
    {
      url: '/appointments?new=1',
    },
  );
  const dialog = await findDialog('New Appointment');
  const choose = async (field: string, title: string) => {
    await view.user.click(within(dialog).getByLabelText(field));
    await view.user.click(await screen.findByTitle(title));
  };
  await view.user.type(within(dialog).getByLabelText('Patient Name'), 'Sasha Weekly');
  await view.user.type(within(dialog).getByLabelText('Phone'), '555 222 3344');
  await choose('Dentist', 'Dr. Sarah Johnson');
  await view.user.type(within(dialog).getByLabelText('Date'), DAY);
  await choose('Treatment', 'Dental Checkup');
  await choose('Time', '09:00–09:30');
  await choose('Repeat', 'Every N weeks');
  expect(await within(dialog).findByLabelText('Visits in all')).toHaveValue('6');
  return { view, dialog, onSaved };
}

describe('AppointmentForm: a series of visits', () => {
  it('offers no repeat when booking a waitlisted patient: the waitlist offers one freed time', async () => {
    renderScreen(
      <AppointmentForm open appointment={null} waitlistEntryId={7} onClose={jest.fn()} onSaved={jest.fn()} />,
      { url: '/appointments?new=1' },
    );
    const dialog = await findDialog('New Appointment');
    expect(within(dialog).getByLabelText('Patient Name')).toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Repeat')).not.toBeInTheDocument();
  });

  it('checks every visit first, then books them as moved and skipped, all at once', async () => {
    api.onGet('/api/dentists/1/free-times').reply(200, FREE);
    api.onPost('/api/appointments/series/check').reply(200, CHECKED);
    api.onPost('/api/appointments/series').reply(201, {
      series_id: 9,
      data: [{ ...MIA_VISIT, id: 70, date: DAY, series: { id: 9, position: 1, size: 5 } }],
    });
    const { view, dialog, onSaved } = await fillWeeklySix();

    await view.user.click(within(dialog).getByText('Check dates'));
    const list = await within(dialog).findByRole('region', { name: 'Visits of the series' });
    expect(api.sent('post', '/api/appointments/series/check')[0]?.body).toMatchObject({
      visit: { patient: 'Sasha Weekly', date: DAY, time: '09:00', dentist_id: 1 },
      repeat: { every: 1, unit: 'week', count: 6 },
    });
    expect(within(list).getAllByText('Free')).toHaveLength(4);
    expect(within(list).getAllByText('Cannot be booked')).toHaveLength(2);
    expect(within(list).getByText(/already has an appointment .* \(Robin Inway\)/)).toBeInTheDocument();

    // An undecided visit is not booked silently.
    await view.user.click(within(dialog).getByText('Book 4 visits'));
    expect(
      await within(list).findByText('Move or skip each visit that cannot be booked'),
    ).toBeInTheDocument();
    expect(api.sent('post', '/api/appointments/series')).toHaveLength(0);

    await view.user.click(within(list).getByText('Move to 09:30'));
    expect(within(list).getByText(/^Moved to .* at 09:30$/)).toBeInTheDocument();
    const skips = within(list).getAllByText('Skip');
    await view.user.click(skips[skips.length - 1] as HTMLElement);
    expect(within(list).getByText('Skipped')).toBeInTheDocument();

    await view.user.click(within(dialog).getByText('Book 5 visits'));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(api.sent('post', '/api/appointments/series')[0]?.body).toMatchObject({
      repeat: { every: 1, unit: 'week', count: 6 },
      occurrences: [
        { date: weekAfter(0), time: '09:00' },
        { date: weekAfter(1), time: '09:00' },
        { date: weekAfter(2), time: '09:30' },
        { date: weekAfter(3), time: '09:00' },
        { date: weekAfter(5), time: '09:00' },
      ],
    });
  });

  it('a visit refused at the final booking is marked in the list, and nothing is booked', async () => {
    api.onGet('/api/dentists/1/free-times').reply(200, FREE);
    api.onPost('/api/appointments/series/check').reply(200, {
      ...CHECKED,
      occurrences: CHECKED.occurrences.map((each) => ({
        ...each,
        state: 'ok',
        message: null,
        nearest: null,
      })),
    });
    const why = `Dr. Sarah Johnson already has an appointment on ${weekAfter(1)} at 09:00–09:30 (Kim Late)`;
    api.onPost('/api/appointments/series').reply(409, {
      message: `Visit 2 of 6 (${weekAfter(1)} at 09:00) cannot be booked: ${why}`,
      errors: [{ field: 'occurrences.1.time', message: why }],
    });
    const { view, dialog, onSaved } = await fillWeeklySix();
    await view.user.click(within(dialog).getByText('Check dates'));
    const list = await within(dialog).findByRole('region', { name: 'Visits of the series' });
    await view.user.click(within(dialog).getByText('Book 6 visits'));

    expect(await within(dialog).findByText(/^Visit 2 of 6 .* cannot be booked/)).toBeInTheDocument();
    expect(await within(list).findByText('Cannot be booked')).toBeInTheDocument();
    expect(within(list).getByText(why)).toBeInTheDocument();
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('a change to the booking after the check checks again', async () => {
    api.onGet('/api/dentists/1/free-times').reply(200, FREE);
    api.onPost('/api/appointments/series/check').reply(200, CHECKED);
    const { view, dialog } = await fillWeeklySix();
    await view.user.click(within(dialog).getByText('Check dates'));
    await within(dialog).findByRole('region', { name: 'Visits of the series' });
    await view.user.clear(within(dialog).getByLabelText('Visits in all'));
    await view.user.type(within(dialog).getByLabelText('Visits in all'), '4');
    expect(within(dialog).queryByRole('region', { name: 'Visits of the series' })).not.toBeInTheDocument();
    expect(within(dialog).getByText('Check dates')).toBeInTheDocument();
  });
});

describe('a visit of a series on the Appointments list', () => {
  const FOURTH = { ...MIA_VISIT, series: { id: 9, position: 4, size: 6 } };

  it('shows its place in the series, and Cancel asks: this visit, or this and the following', async () => {
    api.onGet('/api/appointments').reply(200, pageOf([FOURTH], 1));
    api.onPatch(`/api/appointments/${FOURTH.id}/status`).reply(200, { ...FOURTH, status: 'cancelled' });
    const view = renderScreen(<AppointmentsPage />, { url: '/appointments' });
    expect(await screen.findByText('Series 4 of 6')).toBeInTheDocument();

    await view.user.click(screen.getByLabelText('Cancel appointment of Mia Martin'));
    const question = await findDialog('Cancel a visit of a series');
    expect(within(question).getByText(/This visit is series 4 of 6/)).toBeInTheDocument();
    // Back changes nothing.
    await view.user.click(within(question).getByText('Back'));
    await waitFor(() => expect(screen.queryByText('Cancel a visit of a series')).not.toBeInTheDocument());
    expect(api.sent('patch')).toHaveLength(0);

    await view.user.click(screen.getByLabelText('Cancel appointment of Mia Martin'));
    const again = await findDialog('Cancel a visit of a series');
    await view.user.click(within(again).getByLabelText('This and the following visits'));
    await view.user.click(within(again).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(api.sent('patch')).toHaveLength(1));
    expect(api.sent('patch')[0]).toMatchObject({
      body: { status: 'cancelled' },
      params: { scope: 'following' },
      ifMatch: `"${FOURTH.version}"`,
    });
  });

  it('a visit outside a series is cancelled at once, as ever', async () => {
    api.onGet('/api/appointments').reply(200, pageOf([{ ...MIA_VISIT, series: null }], 1));
    api.onPatch(`/api/appointments/${MIA_VISIT.id}/status`).reply(200, { ...MIA_VISIT, status: 'cancelled' });
    const view = renderScreen(<AppointmentsPage />, { url: '/appointments' });
    await view.user.click(await screen.findByLabelText('Cancel appointment of Mia Martin'));
    await waitFor(() => expect(api.sent('patch')).toHaveLength(1));
    expect(api.sent('patch')[0]?.params).toEqual({});
    expect(screen.queryByText(/Series \d/)).not.toBeInTheDocument();
  });
});
