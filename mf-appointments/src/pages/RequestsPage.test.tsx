import type { BookingRequest } from '@dental/shared';
import {
  createFakeApi,
  type FakeApi,
  findDialog,
  pageOf,
  refusal,
  renderScreen,
  screenWidth,
} from '@dental/shared/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import RequestsPage from './RequestsPage';

const UNMATCHED: BookingRequest = {
  id: 3,
  kind: 'unmatched',
  state: 'open',
  closed_how: null,
  created_at: '2027-03-01T09:12:00.000Z',
  closed_at: null,
  contact: { name: 'Mia Marten', phone: '555-0107', email: 'mia@example.com', date_of_birth: '1990-04-12' },
  appointment: {
    id: 41,
    date: '2027-03-08',
    time: '09:00',
    treatment: 'Dental Checkup',
    dentist_id: 1,
    dentist_name: 'Dr. Sarah Johnson',
    duration: 30,
    status: 'pending',
  },
  freed: null,
  patient_id: 90,
  candidates: [
    { id: 7, name: 'Mia Martin', phone: '555-0107', date_of_birth: '1990-04-21' },
    { id: 8, name: 'Mia Martin-Lee', phone: '555-0199', date_of_birth: null },
  ],
};
const CALL: BookingRequest = {
  ...UNMATCHED,
  id: 4,
  kind: 'call_back',
  contact: { name: 'Tom Baker', phone: '555-0108', email: null, wanted: 'cancel' },
  candidates: [],
};

let api: FakeApi;
let restoreWidth: () => void;
beforeEach(() => {
  restoreWidth = screenWidth(1280);
  api = createFakeApi();
});
afterEach(() => {
  api.restore();
  restoreWidth();
});

/** The time a visit left when it was cancelled or moved online: Dr. Johnson's 09:00-09:30 on Mar 8. */
const FREED_TIME: BookingRequest['freed'] = {
  dentist_id: 1,
  dentist_name: 'Dr. Sarah Johnson',
  date: '2027-03-08',
  time: '09:00',
  duration: 30,
};
const row = (name: string) => screen.getByText(name).closest('.ant-card') as HTMLElement;

describe('RequestsPage', () => {
  it('lists open requests with who asked and the visit, and links an unmatched visit to the chosen patient', async () => {
    api.onGet('/api/booking-requests').reply(200, pageOf([UNMATCHED, CALL]));
    api
      .onPost('/api/booking-requests/3/link')
      .reply(200, { ...UNMATCHED, state: 'closed', closed_how: 'linked' });
    renderScreen(<RequestsPage />, { url: '/requests' });

    expect(await screen.findByText('Mia Marten')).toBeInTheDocument();
    expect(api.lastParams('/api/booking-requests')).toMatchObject({ state: 'open', page: 1 });
    const mia = row('Mia Marten');
    expect(within(mia).getByText('Booked online, patient not matched')).toBeInTheDocument();
    expect(within(mia).getByText(/555-0107 · mia@example.com · born 1990-04-12/)).toBeInTheDocument();
    expect(within(mia).getByText(/Dental Checkup with Dr. Sarah Johnson \(pending\)/)).toBeInTheDocument();
    expect(within(row('Tom Baker')).getByText(/Wanted to cancel/)).toBeInTheDocument();

    fireEvent.click(within(mia).getByRole('button', { name: 'Link the visit of Mia Marten to a patient' }));
    const dialog = await findDialog('Link the visit of Mia Marten');
    fireEvent.click(within(dialog).getByRole('radio', { name: /Mia Martin-Lee/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Link' }));
    await waitFor(() => expect(api.sent('post', '/api/booking-requests/3/link')).toHaveLength(1));
    expect(api.sent('post', '/api/booking-requests/3/link')[0]?.body).toEqual({ patient_id: 8 });
  });

  it('closes a call once called back, says a refusal in the banner, and shows closed requests with how', async () => {
    api
      .onGet('/api/booking-requests', { params: { state: 'open', page: 1, limit: 20 } })
      .reply(200, pageOf([CALL]));
    api.onPost('/api/booking-requests/4/called-back').reply(409, refusal('This request is already closed'));
    api
      .onGet('/api/booking-requests', { params: { state: 'closed', page: 1, limit: 20 } })
      .reply(200, pageOf([{ ...UNMATCHED, state: 'closed', closed_how: 'new_patient' }]));
    renderScreen(<RequestsPage />, { url: '/requests' });

    fireEvent.click(await screen.findByRole('button', { name: 'Tom Baker was called back' }));
    expect(await screen.findByText('This request is already closed')).toBeInTheDocument();

    fireEvent.click(screen.getByText('Closed'));
    expect(await screen.findByText(/Kept as a new patient/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Link the visit/ })).not.toBeInTheDocument();
  });

  it('offers a time freed online to the waitlist (Fill this time), and closes it when done', async () => {
    const FREED: BookingRequest = {
      ...CALL,
      id: 5,
      kind: 'freed',
      contact: { name: 'Ada Byron', phone: '555-0109', email: 'ada@example.com', wanted: 'cancel' },
      appointment: {
        ...(UNMATCHED.appointment as NonNullable<BookingRequest['appointment']>),
        status: 'cancelled',
      },
      freed: FREED_TIME,
    };
    api.onGet('/api/booking-requests').reply(200, pageOf([FREED]));
    api.onGet('/api/waitlist/matches').reply(200, { data: [] });
    api.onPost('/api/booking-requests/5/done').reply(200, { ...FREED, state: 'closed', closed_how: 'done' });
    renderScreen(<RequestsPage />, { url: '/requests' });

    await screen.findByText('Ada Byron');
    const ada = row('Ada Byron');
    expect(within(ada).getByText('Freed online: a time to fill')).toBeInTheDocument();
    expect(within(ada).getByText('Free time')).toBeInTheDocument();
    expect(
      within(ada).getByText('Free: Mon, Mar 8, 2027, 09:00–09:30 with Dr. Sarah Johnson'),
    ).toBeInTheDocument();
    expect(within(ada).getByText(/Dental Checkup with Dr. Sarah Johnson \(cancelled\)/)).toBeInTheDocument();

    fireEvent.click(within(ada).getByRole('button', { name: 'Fill the time Ada Byron freed' }));
    expect(await screen.findByText('No one on the waitlist wants this time.')).toBeInTheDocument();
    expect(api.lastParams('/api/waitlist/matches')).toMatchObject({
      dentist_id: 1,
      date: '2027-03-08',
      time: '09:00',
      duration: 30,
    });

    fireEvent.click(within(ada).getByRole('button', { name: 'Done with the time Ada Byron freed' }));
    await waitFor(() => expect(api.sent('post', '/api/booking-requests/5/done')).toHaveLength(1));
    expect(await screen.findByText('Ada Byron: done')).toBeInTheDocument();
  });

  it('offers the time a visit moved online left, not the time it moved to', async () => {
    const MOVED: BookingRequest = {
      ...CALL,
      id: 6,
      kind: 'freed',
      contact: { name: 'Max Moss', phone: '555-0111', email: null, wanted: 'move to 2027-03-10 11:00' },
      appointment: {
        ...(UNMATCHED.appointment as NonNullable<BookingRequest['appointment']>),
        date: '2027-03-10',
        time: '11:00',
      },
      freed: FREED_TIME,
    };
    api.onGet('/api/booking-requests').reply(200, pageOf([MOVED]));
    api.onGet('/api/waitlist/matches').reply(200, { data: [] });
    renderScreen(<RequestsPage />, { url: '/requests' });

    await screen.findByText('Max Moss');
    const max = row('Max Moss');
    expect(within(max).getByText(/Wanted to move to 2027-03-10 11:00/)).toBeInTheDocument();
    expect(
      within(max).getByText('Free: Mon, Mar 8, 2027, 09:00–09:30 with Dr. Sarah Johnson'),
    ).toBeInTheDocument();
    fireEvent.click(within(max).getByRole('button', { name: 'Fill the time Max Moss freed' }));
    await waitFor(() =>
      expect(api.lastParams('/api/waitlist/matches')).toMatchObject({ date: '2027-03-08', time: '09:00' }),
    );
  });

  it('says when nothing waits for the desk', async () => {
    api.onGet('/api/booking-requests').reply(200, pageOf([]));
    renderScreen(<RequestsPage />, { url: '/requests' });
    expect(await screen.findByText('No open requests: nothing waits for the desk')).toBeInTheDocument();
  });
});
