import {
  createFakeApi,
  type FakeApi,
  findDialog,
  pageOf,
  renderScreen,
  screenWidth,
  waitlistEntry,
} from '@dental/shared/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { weekdaysText } from '../components/waitlistColumns';
import { CHAIRS, MICHAEL, SARAH } from '../testing/fixtures';
import WaitlistPage from './WaitlistPage';

const MIA = waitlistEntry({ note: 'Prefers early' });
const TOM = waitlistEntry({
  id: 5,
  patient_id: 8,
  patient_name: 'Tom Baker',
  phone: '555-0108',
  treatment: 'Dental Checkup',
  duration: 30,
  dentist_id: null,
  dentist_name: null,
  weekdays: [1, 2, 3, 4, 5],
  part_of_day: 'any',
});

let api: FakeApi;
let restoreWidth: () => void;
beforeEach(() => {
  restoreWidth = screenWidth(1280);
  api = createFakeApi();
  api.onGet('/api/dentists').reply(200, pageOf([SARAH, MICHAEL]));
  api.onGet('/api/chairs').reply(200, { data: CHAIRS });
  api.onGet('/api/waitlist/4/free-times').reply(200, {
    data: [
      { dentist_id: 1, dentist_name: 'Dr. Sarah Johnson', date: '2027-03-01', time: '09:00', duration: 60 },
      { dentist_id: 1, dentist_name: 'Dr. Sarah Johnson', date: '2027-03-03', time: '10:15', duration: 60 },
    ],
    searched_until: '2027-03-28',
  });
  api.onGet('/api/waitlist/5/free-times').reply(200, { data: [], searched_until: '2027-03-28' });
});
afterEach(() => {
  api.restore();
  restoreWidth();
});

const row = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;

describe('WaitlistPage', () => {
  it('lists who waits for what, oldest first, with the earliest free times to book', async () => {
    api.onGet('/api/waitlist').reply(200, pageOf([MIA, TOM], 2));
    renderScreen(<WaitlistPage />, { url: '/waitlist' });

    expect(await screen.findByText('Mia Martin')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Waitlist' })).toBeInTheDocument();
    const mia = row('Mia Martin');
    expect(within(mia).getByText(/Regular Cleaning \(60 min\), Dr. Sarah Johnson/)).toBeInTheDocument();
    expect(within(mia).getByText(/Mon, Wed, morning/)).toBeInTheDocument();
    const book = await within(mia).findByRole('link', { name: /^Book Mia Martin on .*09:00–10:00/ });
    const target = new URL(book.getAttribute('href') ?? '', 'http://localhost');
    expect(target.pathname).toBe('/appointments');
    expect(Object.fromEntries(target.searchParams)).toEqual({
      new: '1',
      patient: '7',
      dentist: '1',
      date: '2027-03-01',
      time: '09:00',
      treatment: 'Regular Cleaning',
      waitlist: '4',
      returnTo: '/waitlist',
    });
    expect(within(mia).getAllByRole('link', { name: /^Book Mia Martin/ })).toHaveLength(2);
    const tom = row('Tom Baker');
    expect(within(tom).getByText(/any dentist/)).toBeInTheDocument();
    expect(await within(tom).findByText(/^No free time until/)).toBeInTheDocument();
    expect(api.lastParams('/api/waitlist')).toEqual({ page: 1, limit: 20 });
  });

  it("says when one entry's free times could not be read, and reads them again on Retry", async () => {
    let reads = 0;
    api.onGet('/api/waitlist/5/free-times').reply(() => {
      reads += 1;
      return reads === 1
        ? [500, { message: 'The server failed' }]
        : [200, { data: [], searched_until: '2027-03-28' }];
    });
    api.onGet('/api/waitlist').reply(200, pageOf([MIA, TOM], 2));
    renderScreen(<WaitlistPage />, { url: '/waitlist' });

    const tom = await screen.findByText('Tom Baker').then(() => row('Tom Baker'));
    expect(await within(tom).findByText('The server failed')).toBeInTheDocument();
    // The other entries are read on their own: Mia's free times are there.
    expect(await within(row('Mia Martin')).findAllByRole('link', { name: /^Book Mia Martin/ })).toHaveLength(
      2,
    );
    fireEvent.click(within(tom).getByRole('button', { name: 'Retry the free times of Tom Baker' }));
    expect(await within(tom).findByText(/^No free time until/)).toBeInTheDocument();
    expect(within(tom).queryByText('The server failed')).toBeNull();
    expect(reads).toBe(2);
  });

  it('on a phone keeps who, their free times and the actions', async () => {
    restoreWidth();
    restoreWidth = screenWidth(360);
    api.onGet('/api/waitlist').reply(200, pageOf([MIA], 1));
    renderScreen(<WaitlistPage />, { url: '/waitlist' });
    expect(await screen.findByText('Mia Martin')).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'Patient',
      'Free times',
      'Actions',
    ]);
  });

  it('adds a patient to the waitlist with their wishes', async () => {
    api.onGet('/api/waitlist').reply(200, pageOf([]));
    api.onGet('/api/patients').reply(200, pageOf([{ id: 7, name: 'Mia Martin', phone: '555-0107' }]));
    api.onPost('/api/waitlist').reply(201, MIA);
    const view = renderScreen(<WaitlistPage />, { url: '/waitlist' });
    expect(await screen.findByText('No one is on the waitlist')).toBeInTheDocument();

    await view.user.click(screen.getByRole('button', { name: 'Add to Waitlist' }));
    const dialog = await findDialog('Add to Waitlist');
    await view.user.type(within(dialog).getByRole('combobox', { name: 'Patient' }), 'Mia');
    await view.user.click(await screen.findByText('Mia Martin · 555-0107'));
    await view.user.click(within(dialog).getByRole('combobox', { name: 'Treatment' }));
    await view.user.click(await screen.findByTitle('Regular Cleaning'));
    // Monday to Friday to start with: the clinic's working week; Friday off, Saturday on.
    await view.user.click(within(dialog).getByRole('checkbox', { name: 'Fri' }));
    await view.user.click(within(dialog).getByRole('checkbox', { name: 'Sat' }));
    fireEvent.change(within(dialog).getByLabelText('Earliest date'), { target: { value: '2027-03-01' } });
    fireEvent.change(within(dialog).getByLabelText('Latest date'), { target: { value: '2027-03-31' } });
    await view.user.click(within(dialog).getByRole('button', { name: 'Add to Waitlist' }));

    await waitFor(() => expect(api.sent('post', '/api/waitlist')).toHaveLength(1));
    expect(api.sent('post', '/api/waitlist')[0]?.body).toEqual({
      patient_id: 7,
      treatment: 'Regular Cleaning',
      dentist_id: null,
      weekdays: [1, 2, 3, 4, 6],
      part_of_day: 'any',
      earliest_on: '2027-03-01',
      latest_on: '2027-03-31',
      note: '',
    });
    expect(await screen.findByText('Mia Martin is on the waitlist')).toBeInTheDocument();
  });

  it('refuses dates that run backwards before asking the server', async () => {
    api.onGet('/api/waitlist').reply(200, pageOf([MIA], 1));
    const view = renderScreen(<WaitlistPage />, { url: '/waitlist' });
    await screen.findByText('Mia Martin');
    await view.user.click(screen.getByRole('button', { name: 'Edit waitlist entry of Mia Martin' }));
    const dialog = await findDialog('Edit Waitlist Entry');
    fireEvent.change(within(dialog).getByLabelText('Latest date'), { target: { value: '2027-02-01' } });
    await view.user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(
      await within(dialog).findByText('The end date must not be before the start date'),
    ).toBeInTheDocument();
    expect(api.sent('put')).toHaveLength(0);
  });

  it('edits an entry as shown (If-Match) and takes one off the list after asking', async () => {
    api.onGet('/api/waitlist').reply(200, pageOf([MIA], 1));
    api.onPut('/api/waitlist/4').reply(200, { ...MIA, note: 'Mornings only', version: 3 });
    api.onDelete('/api/waitlist/4').reply(200, { message: 'Taken off the waitlist' });
    const view = renderScreen(<WaitlistPage />, { url: '/waitlist' });
    await screen.findByText('Mia Martin');

    await view.user.click(screen.getByRole('button', { name: 'Edit waitlist entry of Mia Martin' }));
    const dialog = await findDialog('Edit Waitlist Entry');
    const note = within(dialog).getByLabelText('Note');
    await view.user.clear(note);
    await view.user.type(note, 'Mornings only');
    await view.user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(api.sent('put', '/api/waitlist/4')).toHaveLength(1));
    const [put] = api.sent('put', '/api/waitlist/4');
    expect(put?.ifMatch).toBe('"2"');
    expect(put?.body).toMatchObject({
      patient_id: 7,
      dentist_id: 1,
      weekdays: [1, 3],
      note: 'Mornings only',
    });

    await view.user.click(screen.getByRole('button', { name: 'Delete waitlist entry of Mia Martin' }));
    await view.user.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.sent('delete', '/api/waitlist/4')).toHaveLength(1));
    expect(api.sent('delete', '/api/waitlist/4')[0]?.ifMatch).toBe('"2"');
    expect(await screen.findByText('Mia Martin was taken off the waitlist')).toBeInTheDocument();
  });

  it('says weekdays the short way', () => {
    expect(weekdaysText([1, 2, 3, 4, 5])).toBe('Mon–Fri');
    expect(weekdaysText([3, 1])).toBe('Mon, Wed');
    expect(weekdaysText([1, 2, 3, 4, 5, 6, 7])).toBe('Any day');
  });
});
