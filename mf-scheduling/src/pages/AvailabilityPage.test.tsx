import { DATE_RANGE_MESSAGE } from '@dental/shared';
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
import AvailabilityPage from './AvailabilityPage';

const SARAH = { id: 1, name: 'Dr. Sarah Johnson', status: 'active', working_days: '135' };
const OMAR = { id: 2, name: 'Dr. Omar Reyes', status: 'active', working_days: '12345' };

function dayOf(id: number, dentist: { id: number; name: string }, date: string, overrides: object = {}) {
  return {
    id,
    dentist_id: dentist.id,
    dentist_name: dentist.name,
    date,
    time_slots: [
      { start: '09:00', end: '10:00', available: false },
      { start: '10:00', end: '11:00', available: true },
      { start: '14:00', end: '15:00', available: true },
    ],
    status: 'active',
    created_at: '2099-01-01T00:00:00Z',
    updated_at: '2099-01-01T00:00:00Z',
    ...overrides,
  };
}
const SARAH_DAY = dayOf(11, SARAH, '2099-03-04');
const OMAR_DAY = dayOf(12, OMAR, '2099-03-04', {
  time_slots: [{ start: '09:00', end: '10:00', available: true }],
});

let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
  api.onGet('/api/dentists').reply(200, pageOf([SARAH, OMAR]));
});
afterEach(() => api.restore());

const cardOf = (name: string) =>
  within(
    screen
      .getByRole('list', { name: new RegExp(`^Slots of ${name}`) })
      .closest('.availability-card') as HTMLElement,
  );
const admin = staffMember('admin');

describe('AvailabilityPage (docs/product.md, Screens: Availability)', () => {
  it('shows a card per dentist and date with available/total and chips marked Available or Booked', async () => {
    api.onGet('/api/availability').reply(200, pageOf([SARAH_DAY, OMAR_DAY]));
    renderScreen(<AvailabilityPage />, { url: '/availability', staff: admin });

    expect(await screen.findByText('Dr. Sarah Johnson')).toBeInTheDocument();
    const sarah = cardOf('Dr. Sarah Johnson');
    expect(sarah.getByText('2/3 slots available')).toBeInTheDocument();
    expect(sarah.getByRole('button', { name: '09:00-10:00 Booked: reopen this slot' })).toHaveTextContent(
      '09:00-10:00 · Booked',
    );
    expect(sarah.getByRole('button', { name: '10:00-11:00 Available: close this slot' })).toBeInTheDocument();
    expect(cardOf('Dr. Omar Reyes').getByText('1/1 slots available')).toBeInTheDocument();
    // From today on, by date, unless a date is chosen.
    expect(api.lastParams('/api/availability')).toMatchObject({ from: todayDay(), sort: 'date', page: 1 });
  });

  it('reads dentist and date from the URL, and Clear Filters goes back to every dentist from today', async () => {
    api.onGet('/api/availability').reply(200, pageOf([OMAR_DAY]));
    const view = renderScreen(<AvailabilityPage />, {
      url: '/availability?dentist=2&date=2099-03-04',
      staff: admin,
    });
    expect(await screen.findByRole('list', { name: /^Slots of Dr. Omar Reyes/ })).toBeInTheDocument();
    expect(api.lastParams('/api/availability')).toMatchObject({ dentist_id: 2, date: '2099-03-04' });
    expect(api.lastParams('/api/availability')).not.toHaveProperty('from');
    expect(screen.getByLabelText('Date')).toHaveValue('2099-03-04');

    await view.user.click(screen.getByRole('button', { name: 'Clear Filters' }));
    await waitFor(() => expect(view.currentParams().toString()).toBe(''));
    await waitFor(() => expect(api.lastParams('/api/availability')).toMatchObject({ from: todayDay() }));
    expect(api.lastParams('/api/availability')?.dentist_id).toBeUndefined();
  });

  it('a date chosen goes into the URL and to the server', async () => {
    api.onGet('/api/availability').reply(200, pageOf([SARAH_DAY]));
    const view = renderScreen(<AvailabilityPage />, { url: '/availability', staff: admin });
    await screen.findByText('Dr. Sarah Johnson');
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: '2099-03-04' } });
    await waitFor(() => expect(view.currentParams().get('date')).toBe('2099-03-04'));
    await waitFor(() => expect(api.lastParams('/api/availability')).toMatchObject({ date: '2099-03-04' }));
  });

  it('a chip closes its slot on the server; a refusal is said in the banner', async () => {
    api.onGet('/api/availability').reply(200, pageOf([SARAH_DAY]));
    api.onPatch('/api/availability/11/slot').replyOnce(200, SARAH_DAY);
    api
      .onPatch('/api/availability/11/slot')
      .replyOnce(409, refusal('The slot 09:00-10:00 holds an appointment at 09:00: cancel or move it first'));
    const view = renderScreen(<AvailabilityPage />, { url: '/availability', staff: admin });
    await screen.findByText('Dr. Sarah Johnson');

    await view.user.click(screen.getByRole('button', { name: '10:00-11:00 Available: close this slot' }));
    await waitFor(() => expect(api.sent('patch')).toHaveLength(1));
    expect(api.sent('patch')[0]?.body).toEqual({ start: '10:00', end: '11:00', available: false });

    await view.user.click(screen.getByRole('button', { name: '09:00-10:00 Booked: reopen this slot' }));
    expect(
      await screen.findByText('The slot 09:00-10:00 holds an appointment at 09:00: cancel or move it first'),
    ).toBeInTheDocument();
    expect(api.sent('patch')[1]?.body).toEqual({ start: '09:00', end: '10:00', available: true });
  });

  it('Add Availability sends several slots at once, a slot of its own included, and refuses overlaps', async () => {
    api.onGet('/api/availability').reply(200, pageOf([]));
    api.onPost('/api/availability').reply(201, SARAH_DAY);
    const view = renderScreen(<AvailabilityPage />, { url: '/availability', staff: admin });
    expect(await screen.findByText(/No availability set from today on/)).toBeInTheDocument();
    await view.user.click(screen.getByRole('button', { name: 'Add Availability' }));
    const dialog = await findDialog('Add Availability');

    await view.user.click(within(dialog).getByRole('button', { name: 'Add Availability' }));
    await waitFor(() => expect(within(dialog).getAllByText('This field is required')).toHaveLength(2));

    await view.user.click(within(dialog).getByRole('combobox', { name: 'Dentist' }));
    await view.user.click(await screen.findByTitle('Dr. Omar Reyes'));
    fireEvent.change(within(dialog).getByLabelText('Date'), { target: { value: '2099-03-05' } });
    for (const slot of ['11:00-12:00', '14:00-15:00', '15:00-16:00', '16:00-17:00']) {
      await view.user.click(within(dialog).getByRole('checkbox', { name: slot }));
    }
    fireEvent.change(within(dialog).getByLabelText('Start time'), { target: { value: '09:30' } });
    fireEvent.change(within(dialog).getByLabelText('End time'), { target: { value: '10:30' } });
    await view.user.click(within(dialog).getByRole('button', { name: 'Add slot' }));
    expect(within(dialog).getByRole('checkbox', { name: '09:30-10:30' })).toBeChecked();
    await view.user.click(within(dialog).getByRole('button', { name: 'Add Availability' }));
    expect(
      await within(dialog).findByText('Slots must not overlap: 09:30-10:30 overlaps 09:00-10:00'),
    ).toBeInTheDocument();
    expect(api.sent('post')).toHaveLength(0);

    await view.user.click(within(dialog).getByRole('checkbox', { name: '09:00-10:00' }));
    await view.user.click(within(dialog).getByRole('checkbox', { name: '10:00-11:00' }));
    await view.user.click(within(dialog).getByRole('checkbox', { name: '11:00-12:00' }));
    await view.user.click(within(dialog).getByRole('button', { name: 'Add Availability' }));
    await waitFor(() => expect(api.sent('post')).toHaveLength(1));
    expect(api.sent('post')[0]?.body).toEqual({
      dentist_id: 2,
      date: '2099-03-05',
      time_slots: [
        { start: '09:30', end: '10:30', available: true },
        { start: '11:00', end: '12:00', available: true },
      ],
    });
  });

  it('Edit keeps each slot’s state, makes the day inactive, and shows the server’s refusal', async () => {
    api.onGet('/api/availability').reply(200, pageOf([SARAH_DAY]));
    api
      .onPut('/api/availability/11')
      .replyOnce(
        409,
        refusal(
          'This day has an appointment booked (09:00): cancel or move it before making the day inactive',
          [{ field: 'status', message: 'This day holds appointments' }],
        ),
      );
    const view = renderScreen(<AvailabilityPage />, { url: '/availability', staff: admin });
    await screen.findByText('Dr. Sarah Johnson');
    await view.user.click(screen.getByRole('button', { name: /^Edit availability of Dr. Sarah Johnson/ }));
    const dialog = await findDialog('Edit Availability');
    expect(within(dialog).getByRole('checkbox', { name: '09:00-10:00 (booked)' })).toBeChecked();
    await view.user.click(within(dialog).getByRole('checkbox', { name: '14:00-15:00' }));
    await view.user.click(within(dialog).getByRole('combobox', { name: 'Status' }));
    await view.user.click(await screen.findByTitle('inactive'));
    await view.user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    expect(await within(dialog).findByText('This day holds appointments')).toBeInTheDocument();
    expect(api.sent('put')[0]?.body).toEqual({
      dentist_id: 1,
      date: '2099-03-04',
      time_slots: [
        { start: '09:00', end: '10:00', available: false },
        { start: '10:00', end: '11:00', available: true },
      ],
      status: 'inactive',
    });
  });

  it('Delete asks first, then shows the server’s refusal of a day with a booking', async () => {
    api.onGet('/api/availability').reply(200, pageOf([SARAH_DAY]));
    api
      .onDelete('/api/availability/11')
      .reply(
        409,
        refusal('This day has an appointment booked (09:00): cancel or move it before deleting the day'),
      );
    const view = renderScreen(<AvailabilityPage />, { url: '/availability', staff: admin });
    await screen.findByText('Dr. Sarah Johnson');
    await view.user.click(screen.getByRole('button', { name: /^Delete availability of Dr. Sarah Johnson/ }));
    const confirm = await findDialog('Delete availability?');
    expect(api.sent('delete')).toHaveLength(0);
    await view.user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This day has an appointment booked (09:00): cancel or move it before deleting the day',
    );
    expect(api.sent('delete')).toHaveLength(1);
  });

  it('a dentist sees their own days first and changes only those', async () => {
    api.onGet('/api/availability').reply(200, pageOf([SARAH_DAY, OMAR_DAY]));
    renderScreen(<AvailabilityPage />, {
      url: '/availability',
      staff: staffMember('dentist', { dentistId: 1 }),
    });
    await screen.findByRole('list', { name: /^Slots of Dr. Sarah Johnson/ });
    expect(api.lastParams('/api/availability')).toMatchObject({ dentist_id: 1 });
    expect(
      cardOf('Dr. Sarah Johnson').getByRole('button', { name: /^Edit availability/ }),
    ).toBeInTheDocument();
    const omar = cardOf('Dr. Omar Reyes');
    expect(omar.queryByRole('button')).not.toBeInTheDocument();
    expect(omar.getByText('09:00-10:00 · Available')).toBeInTheDocument();
  });

  it('Fill Dates sends the dentist and range and says what it added and kept', async () => {
    api.onGet('/api/availability').reply(200, pageOf([]));
    api.onPost('/api/availability/fill').reply(201, {
      created: [SARAH_DAY, dayOf(13, SARAH, '2099-03-06')],
      kept: ['2099-03-02'],
    });
    const view = renderScreen(<AvailabilityPage />, { url: '/availability?dentist=1', staff: admin });
    await screen.findByText(/No availability matches/);
    await view.user.click(screen.getByRole('button', { name: 'Fill Dates' }));
    const dialog = await findDialog('Fill Dates');
    expect(within(dialog).getByText('Works Monday, Wednesday, Friday.')).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText('From'), { target: { value: '2099-03-01' } });
    fireEvent.change(within(dialog).getByLabelText('To'), { target: { value: '2099-02-01' } });
    await view.user.click(within(dialog).getByRole('button', { name: 'Fill Dates' }));
    expect(await within(dialog).findByText(DATE_RANGE_MESSAGE)).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText('To'), { target: { value: '2099-03-07' } });
    await view.user.click(within(dialog).getByRole('checkbox', { name: '16:00-17:00' }));
    await view.user.click(within(dialog).getByRole('button', { name: 'Fill Dates' }));
    expect(
      await screen.findByText('Dr. Sarah Johnson: 2 days added, 1 already set and kept'),
    ).toBeInTheDocument();
    const body = api.sent('post')[0]?.body as {
      dentist_id: number;
      from: string;
      to: string;
      time_slots: unknown[];
    };
    expect(body).toMatchObject({ dentist_id: 1, from: '2099-03-01', to: '2099-03-07' });
    expect(body.time_slots).toHaveLength(5);
  });
});
