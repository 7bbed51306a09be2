import { endTimeOf, type FreeTimes } from '@dental/shared';
import {
  createFakeApi,
  type FakeApi,
  findDialog,
  pageOf,
  refusal,
  renderScreen,
  staffMember,
  waitlistMatch,
} from '@dental/shared/testing';
import { createEvent, fireEvent, screen, waitFor, within } from '@testing-library/react';
import CalendarPage from './CalendarPage';

function visit(
  id: number,
  date: string,
  time: string,
  patient: string,
  overrides: Record<string, unknown> = {},
) {
  return {
    id,
    patient,
    patient_id: id + 100,
    phone: '555-0107',
    dentist_id: 1,
    dentist_name: 'Dr. Sarah Johnson',
    date,
    time,
    duration: 60,
    end_time: endTimeOf(time, 60),
    treatment: 'Root Canal',
    status: 'confirmed',
    notes: null,
    outside_hours: false,
    outside_hours_reason: null,
    overlapping: false,
    created_at: '2099-01-01T00:00:00Z',
    updated_at: '2099-01-01T00:00:00Z',
    ...overrides,
  };
}

/** A dentist's day as GET /api/dentists/:id/free-times answers it: open 09:00-12:00 and 14:00-17:00. */
function openDay(date: string): FreeTimes {
  return {
    date,
    duration: 5,
    times: [],
    open: [
      { start: '09:00', end: '12:00' },
      { start: '14:00', end: '17:00' },
    ],
    reason: null,
    message: null,
  };
}

/** A drop at a height of the target (jsdom's drag events carry no pointer position of their own). */
function dropAtY(target: HTMLElement, dataTransfer: ReturnType<typeof carrier>, clientY: number) {
  const drop = createEvent.drop(target, { dataTransfer });
  Object.defineProperty(drop, 'clientY', { value: clientY });
  fireEvent(target, drop);
}

/** A drag's data as the browser carries it from dragstart to drop. */
function carrier() {
  const carried = new Map<string, string>();
  return {
    types: ['application/x-appointment'],
    setData: (type: string, value: string) => carried.set(type, value),
    getData: (type: string) => carried.get(type) ?? '',
    effectAllowed: 'all',
    dropEffect: 'none',
  };
}
const MAY_6 = [
  visit(1, '2099-05-06', '09:00', 'Mia Martin'),
  visit(2, '2099-05-06', '10:00', 'Tom Baker', { treatment: 'Dental Checkup' }),
  visit(3, '2099-05-06', '11:00', 'Ada Byron'),
  visit(4, '2099-05-06', '14:00', 'Leo Grant'),
];
const MONTH = [...MAY_6, visit(5, '2099-05-20', '15:00', 'Zoe Hart', { status: 'pending' })];
const SARAH = { id: 1, name: 'Dr. Sarah Johnson', status: 'active' };
const OMAR = { id: 2, name: 'Dr. Omar Reyes', status: 'active' };

let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
  api.onGet('/api/dentists').reply(200, pageOf([SARAH, OMAR]));
});
afterEach(() => api.restore());

const day = (label: RegExp) => screen.getByRole('button', { name: label });

/** Tom Baker's 10:00 visit moved to Dr. Omar Reyes through the day's Move form; `check` sees the form first. */
async function moveTomToOmar(check: (dialog: HTMLElement) => void = () => {}) {
  const view = renderScreen(<CalendarPage />, { url: '/calendar?month=2099-05&day=2099-05-06' });
  const dayList = () => screen.getByRole('list', { name: /^Appointments on / });
  await screen.findByText('10:00 - Tom Baker');
  await view.user.click(
    within(dayList()).getByRole('button', { name: 'Move appointment of Tom Baker at 10:00' }),
  );
  const dialog = await findDialog('Move Appointment');
  check(dialog);
  await view.user.click(within(dialog).getByLabelText('Dentist'));
  await view.user.click(await screen.findByTitle('Dr. Omar Reyes'));
  await view.user.click(within(dialog).getByRole('button', { name: 'Move' }));
  return view;
}

describe('CalendarPage (docs/product.md, Screens: Calendar)', () => {
  it('draws the month Sunday to Saturday, two appointments a day and +N more, in one request', async () => {
    api.onGet('/api/calendar/appointments').reply(200, pageOf(MONTH, MONTH.length, 1, 5000));
    renderScreen(<CalendarPage />, { url: '/calendar?month=2099-05&day=2099-05-06' });

    expect(await screen.findByText('09:00 - Mia Martin')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'May 2099' })).toBeInTheDocument();
    const headers = screen.getAllByRole('columnheader').map((header) => header.getAttribute('abbr'));
    expect(headers).toEqual(['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']);
    // May 1st 2099 is a Friday: the first row starts with five empty days.
    const firstRow = screen.getAllByRole('row')[1] as HTMLElement;
    // A grid to assistive technology: its cells are grid cells, the selected day marked.
    expect(screen.getByRole('grid', { name: 'Month' })).toBeInTheDocument();
    expect(within(firstRow).getAllByRole('gridcell')[5]).toHaveTextContent('1');
    expect(within(firstRow).getAllByRole('gridcell')[5]).toHaveAttribute('aria-selected', 'false');
    expect(screen.getByText('10:00 - Tom Baker')).toBeInTheDocument();
    expect(screen.queryByText('11:00 - Ada Byron')).not.toBeInTheDocument();
    expect(screen.getByText('+2 more')).toBeInTheDocument();
    expect(api.sent('get', '/api/calendar/appointments')).toHaveLength(1);
    expect(api.lastParams('/api/calendar/appointments')).toEqual({ month: 5, year: 2099 });
  });

  it('while the month is read, the day is not called free', async () => {
    api.onGet('/api/calendar/appointments').reply(() => new Promise(() => {}));
    renderScreen(<CalendarPage />, { url: '/calendar?month=2099-05&day=2099-05-06' });
    expect(await screen.findByText("Loading the day's appointments...")).toBeInTheDocument();
    expect(screen.queryByText('This day is free')).not.toBeInTheDocument();
  });

  it('the side panel lists the selected day; a free day says so; the day goes into the URL', async () => {
    api.onGet('/api/calendar/appointments').reply(200, pageOf(MONTH, MONTH.length, 1, 5000));
    const view = renderScreen(<CalendarPage />, { url: '/calendar?month=2099-05&day=2099-05-06' });
    await screen.findByText('09:00 - Mia Martin');
    const list = screen.getByRole('list', { name: /^Appointments on / });
    expect(within(list).getAllByRole('listitem')).toHaveLength(4);
    expect(within(list).getByText('Tom Baker')).toBeInTheDocument();
    expect(within(list).getByText(/Dental Checkup/)).toBeInTheDocument();

    await view.user.click(day(/^7\b.*no appointments, Thursday, May 7, 2099$/));
    expect(await screen.findByText('No appointments')).toBeInTheDocument();
    expect(screen.getByText('This day is free')).toBeInTheDocument();
    expect(view.currentParams().get('day')).toBe('2099-05-07');
  });

  it('previous and next month ask the server for that month; arrow keys move between days', async () => {
    api.onGet('/api/calendar/appointments').reply(200, pageOf([], 0, 1, 5000));
    const view = renderScreen(<CalendarPage />, { url: '/calendar?month=2099-05&day=2099-05-06' });
    await screen.findByRole('heading', { name: 'May 2099' });
    await view.user.click(screen.getByRole('button', { name: 'Next month' }));
    expect(await screen.findByRole('heading', { name: 'June 2099' })).toBeInTheDocument();
    await waitFor(() =>
      expect(api.lastParams('/api/calendar/appointments')).toEqual({ month: 6, year: 2099 }),
    );
    expect(view.currentParams().get('month')).toBe('2099-06');

    day(/June 1, 2099/).focus();
    await view.user.keyboard('{ArrowRight}');
    await waitFor(() => expect(view.currentParams().get('day')).toBe('2099-06-02'));
    await waitFor(() => expect(day(/June 2, 2099/)).toHaveFocus());
  });

  it("a dentist sees their own appointments by default, and may choose all dentists'", async () => {
    api.onGet('/api/calendar/appointments').reply(200, pageOf([], 0, 1, 5000));
    const view = renderScreen(<CalendarPage />, {
      url: '/calendar?month=2099-05',
      staff: { ...staffMember('dentist'), dentistId: 1 },
    });
    await waitFor(() =>
      expect(api.lastParams('/api/calendar/appointments')).toEqual({ month: 5, year: 2099, dentist_id: 1 }),
    );
    await view.user.click(screen.getByRole('combobox', { name: 'Dentist' }));
    await view.user.click(await screen.findByTitle('All dentists'));
    await waitFor(() =>
      expect(api.lastParams('/api/calendar/appointments')).toEqual({ month: 5, year: 2099 }),
    );
    expect(view.currentParams().get('dentist')).toBe('all');
  });

  it('a failed month shows the red banner with Retry', async () => {
    api.onGet('/api/calendar/appointments').replyOnce(500, refusal('Database unavailable'));
    api.onGet('/api/calendar/appointments').reply(200, pageOf(MONTH, MONTH.length, 1, 5000));
    const view = renderScreen(<CalendarPage />, { url: '/calendar?month=2099-05&day=2099-05-06' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Database unavailable');
    // Not read is not free.
    expect(screen.getByText("The day's appointments could not be loaded.")).toBeInTheDocument();
    expect(screen.queryByText('This day is free')).not.toBeInTheDocument();
    await view.user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('09:00 - Mia Martin')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('New Appointment opens the booking form for the selected day and comes back here', async () => {
    api.onGet('/api/calendar/appointments').reply(200, pageOf([], 0, 1, 5000));
    const view = renderScreen(<CalendarPage />, { url: '/calendar?month=2099-05&day=2099-05-07' });
    await screen.findByText('This day is free');
    await view.user.click(screen.getByRole('button', { name: 'New Appointment' }));
    const params = view.currentParams();
    expect(window.location.pathname).toBe('/appointments');
    expect(params.get('new')).toBe('1');
    expect(params.get('date')).toBe('2099-05-07');
    expect(params.get('returnTo')).toBe('/calendar?month=2099-05&day=2099-05-07');
  });

  it('Move sends the appointment to another day; a clash shows the server message and nothing moves', async () => {
    api.onGet('/api/calendar/appointments').reply(200, pageOf(MONTH, MONTH.length, 1, 5000));
    api
      .onPut('/api/appointments/2')
      .replyOnce(409, refusal('Dr. Sarah Johnson already has an appointment on 2099-05-20 at 15:00'));
    api.onPut('/api/appointments/2').reply(200, visit(2, '2099-05-21', '10:00', 'Tom Baker'));
    const view = renderScreen(<CalendarPage />, { url: '/calendar?month=2099-05&day=2099-05-06' });

    // The day's list is searched, not the whole month: role queries over 500 cells are slow.
    const dayList = () => screen.getByRole('list', { name: /^Appointments on / });
    await screen.findByText('10:00 - Tom Baker');
    await view.user.click(
      within(dayList()).getByRole('button', { name: 'Move appointment of Tom Baker at 10:00' }),
    );
    let dialog = await findDialog('Move Appointment');
    await view.user.clear(within(dialog).getByLabelText('New date'));
    await view.user.type(within(dialog).getByLabelText('New date'), '2099-05-20');
    await view.user.clear(within(dialog).getByLabelText('New time'));
    await view.user.type(within(dialog).getByLabelText('New time'), '15:00');
    await view.user.click(within(dialog).getByRole('button', { name: 'Move' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'already has an appointment on 2099-05-20 at 15:00',
    );
    expect(screen.getByText('10:00 - Tom Baker')).toBeInTheDocument();
    expect(api.sent('put')[0]?.body).toMatchObject({
      patient: 'Tom Baker',
      patient_id: 102,
      dentist_id: 1,
      treatment: 'Dental Checkup',
      date: '2099-05-20',
      time: '15:00',
      status: 'confirmed',
    });

    await view.user.click(
      within(dayList()).getByRole('button', { name: 'Move appointment of Tom Baker at 10:00' }),
    );
    dialog = await findDialog('Move Appointment');
    await view.user.clear(within(dialog).getByLabelText('New date'));
    await view.user.type(within(dialog).getByLabelText('New date'), '2099-05-21');
    await view.user.click(within(dialog).getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(view.currentParams().get('day')).toBe('2099-05-21'));
    expect(api.sent('put')).toHaveLength(2);
    // The month is read again from the server, which says where the appointment is now.
    await waitFor(() => expect(api.sent('get', '/api/calendar/appointments').length).toBeGreaterThan(1));
  });

  it('an appointment dropped on another day is moved there at the same time', async () => {
    api.onGet('/api/calendar/appointments').reply(200, pageOf(MONTH, MONTH.length, 1, 5000));
    api.onPut('/api/appointments/1').reply(200, visit(1, '2099-05-12', '09:00', 'Mia Martin'));
    renderScreen(<CalendarPage />, { url: '/calendar?month=2099-05&day=2099-05-06' });
    const entry = await screen.findByText('09:00 - Mia Martin');
    const dataTransfer = carrier();
    fireEvent.dragStart(entry, { dataTransfer });
    const target = day(/May 12, 2099|12 May 2099/).closest('td') as HTMLElement;
    fireEvent.dragOver(target, { dataTransfer });
    fireEvent.drop(target, { dataTransfer });
    await waitFor(() => expect(api.sent('put')).toHaveLength(1));
    expect(api.sent('put')[0]?.body).toMatchObject({
      date: '2099-05-12',
      time: '09:00',
      patient: 'Mia Martin',
    });
  });

  it('the Day view shows each dentist a column of blocks from start to end, and their closed time shaded', async () => {
    api.onGet('/api/calendar/appointments').reply(200, pageOf(MONTH, MONTH.length, 1, 5000));
    api
      .onGet(/\/api\/dentists\/\d+\/free-times/)
      .reply((config) => [200, openDay(String(config.params.date))]);
    const view = renderScreen(<CalendarPage />, { url: '/calendar?view=day&day=2099-05-06' });

    const sarah = await screen.findByRole('group', { name: /^Dr. Sarah Johnson, / });
    expect(screen.getByRole('group', { name: /^Dr. Omar Reyes, / })).toBeInTheDocument();
    expect(
      within(sarah).getByRole('button', { name: '10:00–11:00 Tom Baker, Dental Checkup, confirmed' }),
    ).toBeInTheDocument();
    expect(within(sarah).getAllByRole('button', { name: /^\d\d:\d\d–/ })).toHaveLength(4);
    expect(screen.getByRole('heading', { name: /May 6, 2099/ })).toBeInTheDocument();
    expect(api.lastParams('/api/dentists/1/free-times')).toMatchObject({ date: '2099-05-06' });
    // Open time is free to book; the lunch hour is not offered, nor a time a visit holds.
    await waitFor(() =>
      expect(within(sarah).queryByRole('button', { name: /^Book at 12:30,/ })).not.toBeInTheDocument(),
    );
    expect(within(sarah).queryByRole('button', { name: /^Book at 10:15,/ })).not.toBeInTheDocument();
    await view.user.click(within(sarah).getByRole('button', { name: /^Book at 16:15,/ }));
    await waitFor(() => expect(window.location.pathname).toBe('/appointments'));
    const asked = new URLSearchParams(window.location.search);
    expect(Object.fromEntries(asked)).toMatchObject({
      new: '1',
      date: '2099-05-06',
      time: '16:15',
      dentist: '1',
    });
    expect(asked.get('returnTo')).toBe('/calendar?view=day&day=2099-05-06');
  });

  it("the Day view says when the dentists' open hours could not be read, and reads them again on Retry", async () => {
    api.onGet('/api/calendar/appointments').reply(200, pageOf(MONTH, MONTH.length, 1, 5000));
    api.onGet(/\/api\/dentists\/\d+\/free-times/).replyOnce(500, refusal('Database unavailable'));
    api
      .onGet(/\/api\/dentists\/\d+\/free-times/)
      .reply((config) => [200, openDay(String(config.params.date))]);
    const view = renderScreen(<CalendarPage />, { url: '/calendar?view=day&day=2099-05-06' });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "The dentists' open hours could not be read: the times are shown without their closed hours shaded.",
    );
    await view.user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    const sarah = screen.getByRole('group', { name: /^Dr. Sarah Johnson, / });
    await waitFor(() =>
      expect(within(sarah).queryByRole('button', { name: /^Book at 12:30,/ })).not.toBeInTheDocument(),
    );
  });

  it('a visit dragged to another dentist and time in the Day view is moved there; a refusal leaves it', async () => {
    api.onGet('/api/calendar/appointments').reply(200, pageOf(MONTH, MONTH.length, 1, 5000));
    api
      .onGet(/\/api\/dentists\/\d+\/free-times/)
      .reply((config) => [200, openDay(String(config.params.date))]);
    api
      .onPut('/api/appointments/2')
      .replyOnce(
        409,
        refusal('Dr. Omar Reyes already has an appointment on 2099-05-06 at 09:30–10:30 (Ann Lee)'),
      );
    api
      .onPut('/api/appointments/2')
      .reply(200, visit(2, '2099-05-06', '15:00', 'Tom Baker', { dentist_id: 2 }));
    renderScreen(<CalendarPage />, { url: '/calendar?view=day&day=2099-05-06' });
    const block = await screen.findByRole('button', { name: /^10:00–11:00 Tom Baker/ });
    const omar = screen.getByRole('group', { name: /^Dr. Omar Reyes, / });
    // The grid starts at 08:00, a row every 15 minutes, 20 pixels each: 160 pixels down is 10:00.
    let dataTransfer = carrier();
    fireEvent.dragStart(block, { dataTransfer });
    fireEvent.dragOver(omar, { dataTransfer });
    dropAtY(omar, dataTransfer, 165);
    await waitFor(() => expect(api.sent('put')).toHaveLength(1));
    expect(api.sent('put')[0]?.body).toMatchObject({
      date: '2099-05-06',
      time: '10:00',
      dentist_id: 2,
      duration: 60,
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Dr. Omar Reyes already has an appointment');
    expect(screen.getByRole('button', { name: /^10:00–11:00 Tom Baker/ })).toBeInTheDocument();
    dataTransfer = carrier();
    fireEvent.dragStart(block, { dataTransfer });
    dropAtY(omar, dataTransfer, 20 * 28 + 5);
    await waitFor(() => expect(api.sent('put')).toHaveLength(2));
    expect(api.sent('put')[1]?.body).toMatchObject({ time: '15:00', dentist_id: 2 });
  });

  it('the Week view shows a column a day, reads both months a week spans, and its day opens the Day view', async () => {
    api.onGet('/api/calendar/appointments').reply((config) => [
      200,
      config.params.month === 5
        ? pageOf([visit(9, '2099-05-31', '09:00', 'Ivy Stone')], 1, 1, 5000)
        : pageOf(
            [
              visit(8, '2099-06-02', '14:00', 'Jon Park', {
                dentist_id: 2,
                dentist_name: 'Dr. Omar Reyes',
                source: 'online',
                confirmed_by: 'patient',
              }),
            ],
            1,
            1,
            5000,
          ),
    ]);
    const view = renderScreen(<CalendarPage />, { url: '/calendar?view=week&day=2099-06-02' });
    expect(await screen.findByRole('heading', { name: 'May 31 – Jun 6, 2099' })).toBeInTheDocument();
    expect(screen.getAllByRole('group', { name: /, 2099$/ })).toHaveLength(7);
    const atTheDesk = await screen.findByRole('button', {
      name: '09:00–10:00 Ivy Stone, Root Canal, Dr. Sarah Johnson, confirmed',
    });
    expect(within(atTheDesk).queryByText('Online')).not.toBeInTheDocument();
    // A visit the patient booked on the booking page carries the lists' "Online" mark in its block.
    const online = screen.getByRole('button', {
      name: '14:00–15:00 Jon Park, Root Canal, Dr. Omar Reyes, confirmed, booked and confirmed by the patient online',
    });
    expect(within(online).getByText('Online')).toBeInTheDocument();
    expect(
      api
        .sent('get', '/api/calendar/appointments')
        .map((request) => request.params.month)
        .sort(),
    ).toEqual([5, 6]);
    await view.user.click(screen.getByRole('button', { name: 'Next week' }));
    expect(await screen.findByRole('heading', { name: 'Jun 7 – Jun 13, 2099' })).toBeInTheDocument();
    await view.user.click(screen.getByText('Wed, Jun 10'));
    await waitFor(() => expect(view.currentParams().get('view')).toBe('day'));
    expect(view.currentParams().get('day')).toBe('2099-06-10');
  });

  it('Move in the side panel takes a visit to another dentist too', async () => {
    api.onGet('/api/calendar/appointments').reply(200, pageOf(MONTH, MONTH.length, 1, 5000));
    api
      .onPut('/api/appointments/2')
      .reply(200, visit(2, '2099-05-06', '10:00', 'Tom Baker', { dentist_id: 2 }));
    await moveTomToOmar((dialog) =>
      expect(dialog).toHaveTextContent('Tom Baker, Dental Checkup (60 minutes) with Dr. Sarah Johnson'),
    );
    await waitFor(() => expect(api.sent('put')).toHaveLength(1));
    expect(api.sent('put')[0]?.body).toMatchObject({ date: '2099-05-06', time: '10:00', dentist_id: 2 });
  });

  it("a dentist makes their calendar feed's private address; a receptionist has no feed button", async () => {
    api.onGet('/api/calendar/appointments').reply(200, pageOf([], 0, 1, 5000));
    api.onGet('/api/calendar/feeds/1').reply(200, { dentist_id: 1, active: false, created_at: null });
    api.onPost('/api/calendar/feeds/1').reply(201, {
      dentist_id: 1,
      url: 'http://localhost/feeds/abcdefghijklmnopqrstuvwxyz012345.ics',
      created_at: '2099-05-01T10:00:00Z',
    });
    const view = renderScreen(<CalendarPage />, {
      url: '/calendar?month=2099-05',
      staff: { ...staffMember('dentist'), dentistId: 1 },
    });
    // The button comes once the dentists are read: the feed is of the dentist shown.
    await screen.findByTitle('Dr. Sarah Johnson');
    await view.user.click(await screen.findByRole('button', { name: /Calendar Feed/ }));
    const dialog = await findDialog('Calendar feed of Dr. Sarah Johnson');
    expect(await within(dialog).findByText('No feed address is in use.')).toBeInTheDocument();
    await view.user.click(within(dialog).getByRole('button', { name: 'Make a feed address' }));
    expect(await within(dialog).findByLabelText(/Feed address/)).toHaveValue(
      'http://localhost/feeds/abcdefghijklmnopqrstuvwxyz012345.ics',
    );
    expect(api.sent('post')).toHaveLength(1);
    view.unmount();

    renderScreen(<CalendarPage />, { url: '/calendar?month=2099-05&dentist=1' });
    await screen.findByRole('heading', { name: /May 2099/ });
    expect(screen.queryByRole('button', { name: /Calendar Feed/ })).not.toBeInTheDocument();
  });

  it('a dentist turns their feed off: the address stops, and a refusal is said in the dialog', async () => {
    api.onGet('/api/calendar/appointments').reply(200, pageOf([], 0, 1, 5000));
    api
      .onGet('/api/calendar/feeds/1')
      .reply(200, { dentist_id: 1, active: true, created_at: '2099-04-01T10:00:00Z' });
    api.onDelete('/api/calendar/feeds/1').replyOnce(500, refusal('The server failed'));
    api.onDelete('/api/calendar/feeds/1').reply(200, { dentist_id: 1, active: false, created_at: null });
    const view = renderScreen(<CalendarPage />, {
      url: '/calendar?month=2099-05',
      staff: { ...staffMember('dentist'), dentistId: 1 },
    });
    await screen.findByTitle('Dr. Sarah Johnson');
    await view.user.click(await screen.findByRole('button', { name: /Calendar Feed/ }));
    const dialog = await findDialog('Calendar feed of Dr. Sarah Johnson');
    await view.user.click(await within(dialog).findByRole('button', { name: 'Turn the feed off' }));
    expect(await within(dialog).findByText('The server failed')).toBeInTheDocument();
    await view.user.click(within(dialog).getByRole('button', { name: 'Turn the feed off' }));
    expect(await within(dialog).findByText('No feed address is in use.')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Turn the feed off' })).not.toBeInTheDocument();
    expect(api.sent('delete')).toHaveLength(2);
  });

  it('a feed that cannot be read says so, offers no address to make, and reads again on Retry', async () => {
    api.onGet('/api/calendar/appointments').reply(200, pageOf([], 0, 1, 5000));
    api.onGet('/api/calendar/feeds/1').replyOnce(500, refusal('The server failed'));
    api
      .onGet('/api/calendar/feeds/1')
      .reply(200, { dentist_id: 1, active: true, created_at: '2099-04-01T10:00:00Z' });
    const view = renderScreen(<CalendarPage />, {
      url: '/calendar?month=2099-05',
      staff: { ...staffMember('dentist'), dentistId: 1 },
    });
    await screen.findByTitle('Dr. Sarah Johnson');
    await view.user.click(await screen.findByRole('button', { name: /Calendar Feed/ }));
    const dialog = await findDialog('Calendar feed of Dr. Sarah Johnson');
    expect(
      await within(dialog).findByText('The feed could not be read: The server failed'),
    ).toBeInTheDocument();
    expect(within(dialog).queryByText('No feed address is in use.')).not.toBeInTheDocument();
    expect(
      within(dialog).queryByRole('button', { name: /feed address|new address/ }),
    ).not.toBeInTheDocument();
    await view.user.click(within(dialog).getByRole('button', { name: 'Retry' }));
    expect(await within(dialog).findByRole('button', { name: 'Turn the feed off' })).toBeInTheDocument();
    expect(within(dialog).getByText(/A feed address has been in use since/)).toBeInTheDocument();
  });

  it('a move offers the time it freed to the waitlist ("Fill this time"); Book opens the form, back here', async () => {
    api.onGet('/api/calendar/appointments').reply(200, pageOf(MONTH, MONTH.length, 1, 5000));
    api
      .onPut('/api/appointments/2')
      .reply(
        200,
        visit(2, '2099-05-06', '10:00', 'Tom Baker', { dentist_id: 2, dentist_name: 'Dr. Omar Reyes' }),
      );
    const mia = waitlistMatch(
      {
        dentist_id: null,
        dentist_name: null,
        weekdays: [3],
        earliest_on: '2099-05-01',
        latest_on: '2099-05-31',
      },
      { date: '2099-05-06', time: '10:00' },
    );
    api.onGet('/api/waitlist/matches').reply(200, { data: [mia] });
    const view = await moveTomToOmar();

    // Dr. Sarah Johnson's 10:00-11:00 is free now: it stays offered while the calendar is browsed.
    const panel = (await screen.findByText(/^Fill this time:/)).closest('.ant-alert') as HTMLElement;
    expect(panel).toHaveTextContent('10:00–11:00 with Dr. Sarah Johnson');
    expect(view.currentParams().get('freed')).toBe('1.2099-05-06.10:00.60');
    expect(api.lastParams('/api/waitlist/matches')).toEqual({
      dentist_id: 1,
      date: '2099-05-06',
      time: '10:00',
      duration: 60,
    });
    await view.user.click(await within(panel).findByRole('button', { name: 'Book Mia Martin at 10:00' }));
    expect(window.location.pathname).toBe('/appointments');
    const params = view.currentParams();
    expect(params.get('waitlist')).toBe('4');
    expect(params.get('dentist')).toBe('1');
    // Booked from the waitlist, the time is filled: back here without it.
    expect(params.get('returnTo')).toBe('/calendar?month=2099-05&day=2099-05-06');
  });

  it('the time a visit edited in the appointment form freed comes back in the URL and is offered; Close ends it', async () => {
    api.onGet('/api/calendar/appointments').reply(200, pageOf(MONTH, MONTH.length, 1, 5000));
    api.onGet('/api/waitlist/matches').reply(200, { data: [] });
    const view = renderScreen(<CalendarPage />, {
      url: '/calendar?month=2099-05&day=2099-05-06&freed=1.2099-05-06.14:00.60',
    });
    const panel = (await screen.findByText(/^Fill this time:/)).closest('.ant-alert') as HTMLElement;
    expect(await within(panel).findByText('No one on the waitlist wants this time.')).toBeInTheDocument();
    await waitFor(() => expect(panel).toHaveTextContent('14:00–15:00 with Dr. Sarah Johnson'));
    await view.user.click(within(panel).getByRole('button', { name: 'Close Fill this time' }));
    await waitFor(() => expect(screen.queryByText(/^Fill this time:/)).not.toBeInTheDocument());
    expect(view.currentParams().get('freed')).toBeNull();
  });

  it('a malformed freed time in the URL offers nothing', async () => {
    api.onGet('/api/calendar/appointments').reply(200, pageOf(MONTH, MONTH.length, 1, 5000));
    renderScreen(<CalendarPage />, {
      url: '/calendar?month=2099-05&day=2099-05-06&freed=1.2099-13-40.99:00.x',
    });
    await screen.findByText('10:00 - Tom Baker');
    expect(screen.queryByText(/^Fill this time:/)).not.toBeInTheDocument();
    expect(api.sent('get', '/api/waitlist/matches')).toHaveLength(0);
  });
});

describe('CalendarPage: the Day view by chair (docs/product.md, Chairs)', () => {
  /** The clinic's chairs: Sarah's, Omar's, and one out of service. */
  const CHAIRS = [
    { id: 1, name: 'Chair 1', default_dentist_id: 1, default_dentist_name: 'Dr. Sarah Johnson' },
    { id: 2, name: 'Chair 2', default_dentist_id: 2, default_dentist_name: 'Dr. Omar Reyes' },
    { id: 3, name: 'Chair 3', default_dentist_id: null, default_dentist_name: null, in_service: false },
  ].map((chair, index) => ({
    in_service: true,
    bookable_online: true,
    position: index + 1,
    version: 1,
    ...chair,
  }));
  const inChair = (chair: number) => ({ chair_id: chair, chair_name: `Chair ${chair}`, turnover: 0 });
  /**
   * Dr. Sarah Johnson runs two chairs: a filling in Chair 1 (her part 09:10–09:50) and another in
   * Chair 2 (09:55–10:35); Dr. Omar Reyes has a whole-visit root canal in Chair 2 after it.
   */
  const MIA_FILLING = visit(1, '2099-05-06', '09:00', 'Mia Martin', {
    treatment: 'Cavity Filling',
    dentist_from: 10,
    dentist_to: 50,
    ...inChair(1),
  });
  const FILLINGS = [
    MIA_FILLING,
    visit(2, '2099-05-06', '09:45', 'Tom Baker', {
      treatment: 'Cavity Filling',
      dentist_from: 10,
      dentist_to: 50,
      ...inChair(2),
    }),
    visit(3, '2099-05-06', '11:00', 'Ada Byron', {
      dentist_id: 2,
      dentist_name: 'Dr. Omar Reyes',
      dentist_from: null,
      dentist_to: null,
      ...inChair(2),
    }),
  ];
  const BY_CHAIR = '/calendar?view=day&day=2099-05-06&by=chair';
  const chairColumn = (name: string) => screen.getByRole('group', { name: new RegExp(`^${name}, `) });

  beforeEach(() => {
    api.onGet('/api/chairs').reply(200, { data: CHAIRS });
    api
      .onGet(/\/api\/dentists\/\d+\/free-times/)
      .reply((config) => [200, openDay(String(config.params.date))]);
  });

  it('shows a column a chair, each visit in its chair with its dentist and their part; one out of service is closed', async () => {
    api.onGet('/api/calendar/appointments').reply(200, pageOf(FILLINGS, FILLINGS.length, 1, 5000));
    const view = renderScreen(<CalendarPage />, { url: BY_CHAIR });

    const chair1 = await screen.findByRole('group', { name: /^Chair 1, .*May 6, 2099/ });
    const chair2 = chairColumn('Chair 2');
    const chair3 = chairColumn('Chair 3 \\(out of service\\)');
    expect(screen.getByRole('radio', { name: 'By chair' })).toBeChecked();
    expect(screen.queryByRole('group', { name: /^Dr. Sarah Johnson, / })).not.toBeInTheDocument();
    // Dr. Sarah Johnson's two fillings, side by side in two chairs, each naming her and her part.
    expect(
      within(chair1).getByRole('button', {
        name: '09:00–10:00 Mia Martin, Cavity Filling, Dr. Sarah Johnson, dentist 09:10–09:50, confirmed',
      }),
    ).toBeInTheDocument();
    expect(within(chair1).getAllByRole('button', { name: /^\d\d:\d\d–/ })).toHaveLength(1);
    expect(
      within(chair2).getByRole('button', {
        name: '09:45–10:45 Tom Baker, Cavity Filling, Dr. Sarah Johnson, dentist 09:55–10:35, confirmed',
      }),
    ).toBeInTheDocument();
    // A visit needing its dentist throughout says no part.
    expect(
      within(chair2).getByRole('button', {
        name: '11:00–12:00 Ada Byron, Root Canal, Dr. Omar Reyes, confirmed',
      }),
    ).toBeInTheDocument();
    expect(within(chair3).queryAllByRole('button')).toHaveLength(0);
    // A chair in service offers its free time, not the time its visits hold.
    expect(within(chair1).getByRole('button', { name: /^Book at 16:15,/ })).toBeInTheDocument();
    expect(within(chair1).queryByRole('button', { name: /^Book at 09:30,/ })).not.toBeInTheDocument();

    // Free time in a chair books in that chair, with its own dentist, and comes back here.
    await view.user.click(within(chair2).getByRole('button', { name: /^Book at 16:00,/ }));
    await waitFor(() => expect(window.location.pathname).toBe('/appointments'));
    const asked = view.currentParams();
    expect(Object.fromEntries(asked)).toMatchObject({
      new: '1',
      date: '2099-05-06',
      time: '16:00',
      dentist: '2',
      chair: '2',
    });
    expect(asked.get('returnTo')).toBe(BY_CHAIR);
  });

  it('shows a time held on the booking page in its chair, counting down and not bookable', async () => {
    const inFourMinutes = new Date(Date.now() + 3.5 * 60_000).toISOString();
    api.onGet('/api/calendar/appointments').reply(200, pageOf(FILLINGS, FILLINGS.length, 1, 5000));
    api.onGet('/api/held-times').reply((config) => [
      200,
      {
        data:
          config.params.date === '2099-05-06'
            ? [
                {
                  id: 7,
                  date: '2099-05-06',
                  time: '14:00',
                  end_time: '14:30',
                  duration: 30,
                  treatment: 'Dental Checkup',
                  dentist_id: 1,
                  dentist_name: 'Dr. Sarah Johnson',
                  chair_id: 1,
                  expires_at: inFourMinutes,
                },
              ]
            : [],
      },
    ]);
    renderScreen(<CalendarPage />, { url: BY_CHAIR });
    const chair1 = await screen.findByRole('group', { name: /^Chair 1, .*May 6, 2099/ });
    expect(await within(chair1).findByText('Held online, 4 min left', { exact: false })).toHaveTextContent(
      '14:00–14:30 Held online, 4 min left',
    );
    expect(within(chair1).getByText(/Dental Checkup, Dr. Sarah Johnson/)).toBeInTheDocument();
    // Nobody at the desk books into it meanwhile; the other chairs' same time is free.
    expect(within(chair1).queryByRole('button', { name: /^Book at 14:00,/ })).not.toBeInTheDocument();
    expect(within(chair1).queryByRole('button', { name: /^Book at 14:15,/ })).not.toBeInTheDocument();
    expect(
      within(chairColumn('Chair 2')).getByRole('button', { name: /^Book at 14:00,/ }),
    ).toBeInTheDocument();
    expect(api.history.get.some((call) => call.url === '/api/held-times')).toBe(true);
  });

  it("opens a chair's column in the practice's hours of the day only", async () => {
    const day = { start: '09:00', end: '12:00', closed: false };
    const workingHours = Object.fromEntries(
      ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((weekday) => [
        weekday,
        weekday === 'wednesday' ? day : { ...day, closed: true },
      ]),
    );
    api.onGet('/api/settings').reply(200, { workingHours });
    api.onGet('/api/calendar/appointments').reply(200, pageOf(FILLINGS, FILLINGS.length, 1, 5000));
    renderScreen(<CalendarPage />, { url: BY_CHAIR });
    const chair1 = await screen.findByRole('group', { name: /^Chair 1, .*May 6, 2099/ });
    // Wednesday, May 6, 2099: open 09:00-12:00.
    expect(await within(chair1).findByRole('button', { name: /^Book at 11:45,/ })).toBeInTheDocument();
    expect(within(chair1).queryByRole('button', { name: /^Book at 12:00,/ })).not.toBeInTheDocument();
    expect(within(chair1).queryByRole('button', { name: /^Book at 08:45,/ })).not.toBeInTheDocument();
  });

  it('"By dentist" takes the columns back to the dentists, and off the URL', async () => {
    api.onGet('/api/calendar/appointments').reply(200, pageOf(FILLINGS, FILLINGS.length, 1, 5000));
    const view = renderScreen(<CalendarPage />, { url: BY_CHAIR });
    await screen.findByRole('group', { name: /^Chair 1, / });
    const columnsBy = screen.getByRole('radiogroup', { name: 'Columns of the day' });

    await view.user.click(within(columnsBy).getByRole('radio', { name: 'By dentist' }));
    const sarah = await screen.findByRole('group', { name: /^Dr. Sarah Johnson, / });
    expect(view.currentParams().get('by')).toBeNull();
    expect(view.currentParams().get('view')).toBe('day');
    expect(screen.queryByRole('group', { name: /^Chair \d/ })).not.toBeInTheDocument();
    // Both of her fillings are in her column, wherever their chairs.
    expect(within(sarah).getAllByRole('button', { name: /^\d\d:\d\d–/ })).toHaveLength(2);

    await view.user.click(within(columnsBy).getByRole('radio', { name: 'By chair' }));
    expect(await screen.findByRole('group', { name: /^Chair 2, / })).toBeInTheDocument();
    expect(view.currentParams().get('by')).toBe('chair');
  });

  it("a visit dropped on another chair's column moves there with its own dentist; a refusal leaves it", async () => {
    let shown = FILLINGS;
    api.onGet('/api/calendar/appointments').reply(() => [200, pageOf(shown, shown.length, 1, 5000)]);
    api.onPut('/api/appointments/1').replyOnce(409, refusal('Chair 2 is taken 09:45–10:45'));
    api.onPut('/api/appointments/1').reply(() => {
      const moved = { ...MIA_FILLING, time: '14:00', end_time: '15:00', ...inChair(2) };
      shown = [moved, ...FILLINGS.slice(1)];
      return [200, moved];
    });
    renderScreen(<CalendarPage />, { url: BY_CHAIR });
    const mia = /^09:00–10:00 Mia Martin/;
    await screen.findByRole('group', { name: /^Chair 1, / });
    const block = within(chairColumn('Chair 1')).getByRole('button', { name: mia });

    // The grid starts at 08:00, a row every 15 minutes, 20 pixels each: 125 pixels down is 09:30,
    // where Tom Baker's visit holds Chair 2.
    let dataTransfer = carrier();
    fireEvent.dragStart(block, { dataTransfer });
    fireEvent.dragOver(chairColumn('Chair 2'), { dataTransfer });
    dropAtY(chairColumn('Chair 2'), dataTransfer, 125);
    await waitFor(() => expect(api.sent('put')).toHaveLength(1));
    expect(api.sent('put')[0]?.body).toMatchObject({
      date: '2099-05-06',
      time: '09:30',
      dentist_id: 1,
      chair_id: 2,
      duration: 60,
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Chair 2 is taken 09:45–10:45');
    expect(within(chairColumn('Chair 1')).getByRole('button', { name: mia })).toBeInTheDocument();

    // 480 pixels down is 14:00: Chair 2 is free then; the visit keeps Dr. Sarah Johnson, not the chair's own dentist.
    dataTransfer = carrier();
    fireEvent.dragStart(block, { dataTransfer });
    dropAtY(chairColumn('Chair 2'), dataTransfer, 485);
    await waitFor(() => expect(api.sent('put')).toHaveLength(2));
    expect(api.sent('put')[1]?.body).toMatchObject({ time: '14:00', dentist_id: 1, chair_id: 2 });
    expect(
      await within(chairColumn('Chair 2')).findByRole('button', { name: /^14:00–15:00 Mia Martin/ }),
    ).toBeInTheDocument();
    expect(
      within(chairColumn('Chair 1')).queryByRole('button', { name: /Mia Martin/ }),
    ).not.toBeInTheDocument();
  });
});
