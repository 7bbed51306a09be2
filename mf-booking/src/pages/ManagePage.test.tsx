import {
  cutoffMessage,
  MANAGE_LINK_UNKNOWN,
  ONLINE_TIME_TAKEN,
  type PublicManagedVisit,
} from '@dental/shared/domain';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type FakeServer, fakeServer } from '../testing/fakeServer';
import ManagePage from './ManagePage';

// Monday 1 March 2027, 08:00 UTC: the visit is nine days ahead, well before the cut-off.
const NOW = new Date('2027-03-01T08:00:00Z');
const MANAGE_PATH = '/public/manage/tok-41';
const TIMES_PATH = '/public/clinics/bright-smile/free-times';

const VISIT: PublicManagedVisit = {
  first_name: 'Mia',
  clinic: {
    name: 'Bright Smile Dental',
    address: '12 High Street, Springfield',
    phone: '+1 555-0100',
    slug: 'bright-smile',
    timeZone: 'UTC',
  },
  appointment: {
    date: '2027-03-10',
    time: '09:00',
    end_time: '09:30',
    dentist_name: 'Dr. Sarah Johnson',
    treatment: 'Dental Checkup',
    status: 'pending',
    visit_type_id: 'dental-checkup',
    dentist_id: 1,
  },
  cutoff_hours: 24,
  can_confirm: true,
  can_change: true,
};
const withVisit = (
  changes: Partial<PublicManagedVisit['appointment']>,
  rights: Partial<PublicManagedVisit> = {},
): PublicManagedVisit => ({ ...VISIT, ...rights, appointment: { ...VISIT.appointment, ...changes } });
const INSIDE_CUTOFF = { ...VISIT, can_change: false };

let server: FakeServer;
beforeEach(() => {
  jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
  server = fakeServer();
  server.onGet(MANAGE_PATH, { status: 200, body: VISIT });
  server.onGet(TIMES_PATH, ({ query }) => ({
    status: 200,
    body: {
      date: query.date,
      times: [
        { time: '10:00', end_time: '10:30', dentist_id: 1, dentist_name: 'Dr. Sarah Johnson' },
        { time: '14:00', end_time: '14:30', dentist_id: 1, dentist_name: 'Dr. Sarah Johnson' },
      ],
    },
  }));
});
afterEach(() => {
  jest.useRealTimers();
  server.restore();
});

function renderPage() {
  const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
  render(<ManagePage token="tok-41" />);
  return user;
}

const visitCard = () => screen.getByRole('region', { name: 'Your visit' });
/** The visit's facts as the patient reads them: each term with its value. */
const visitFacts = () => {
  const terms = within(visitCard()).getAllByRole('term');
  const values = within(visitCard()).getAllByRole('definition');
  return Object.fromEntries(terms.map((term, index) => [term.textContent, values[index]?.textContent]));
};

describe('ManagePage', () => {
  it('greets the patient by first name and shows the visit with its status', async () => {
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Hello Mia' })).toBeInTheDocument();
    expect(screen.getByText('Bright Smile Dental')).toBeInTheDocument();
    expect(screen.getByText('12 High Street, Springfield')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '+1 555-0100' })).toHaveAttribute('href', 'tel:+15550100');
    expect(visitFacts()).toEqual({
      Visit: 'Dental Checkup',
      Day: 'Wednesday, 10 March 2027',
      Time: '09:00 to 09:30',
      Dentist: 'Dr. Sarah Johnson',
      Status: 'Booked, not yet confirmed',
    });
    expect(document.title).toBe('Your visit: Bright Smile Dental');
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Move' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
  });

  it('Confirm confirms the visit and thanks the patient', async () => {
    server.onPost(`${MANAGE_PATH}/confirm`, {
      status: 200,
      body: withVisit({ status: 'confirmed' }, { can_confirm: false }),
    });
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Thank you: your visit is confirmed');
    expect(server.sent('POST', `${MANAGE_PATH}/confirm`)).toHaveLength(1);
    expect(visitFacts().Status).toBe('Confirmed');
    expect(screen.queryByRole('button', { name: 'Confirm' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Move' })).toBeInTheDocument();
  });

  it('Move lists the free times with the same dentist for the same visit, asks, then moves it', async () => {
    server.onPost(`${MANAGE_PATH}/move`, {
      status: 200,
      body: withVisit({ time: '14:00', end_time: '14:30' }),
    });
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Move' }));
    const move = screen.getByRole('region', { name: 'Move the visit' });
    expect(
      within(move).getByRole('heading', { name: 'Free times on Wednesday, 10 March 2027' }),
    ).toBeInTheDocument();
    expect(await within(move).findByRole('button', { name: '14:00' })).toBeInTheDocument();
    expect(within(move).getByRole('button', { name: '10:00' })).toBeInTheDocument();
    expect(server.sent('GET', TIMES_PATH).map((request) => request.query)).toEqual([
      { visit_type: 'dental-checkup', date: '2027-03-10', dentist_id: '1' },
    ]);
    // The actions wait while another time is chosen.
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();

    await user.click(within(move).getByRole('button', { name: 'Next day' }));
    expect(
      await within(move).findByRole('heading', { name: 'Free times on Thursday, 11 March 2027' }),
    ).toBeInTheDocument();
    await within(move).findByRole('button', { name: '14:00' });
    expect(server.sent('GET', TIMES_PATH).at(-1)?.query).toEqual({
      visit_type: 'dental-checkup',
      date: '2027-03-11',
      dentist_id: '1',
    });
    await user.click(within(move).getByRole('button', { name: 'Previous day' }));
    await within(move).findByRole('heading', { name: 'Free times on Wednesday, 10 March 2027' });

    await user.click(await within(move).findByRole('button', { name: '14:00' }));
    expect(within(move).getByText('Move to Wednesday, 10 March 2027, 14:00 to 14:30?')).toBeInTheDocument();
    expect(server.sent('POST', `${MANAGE_PATH}/move`)).toEqual([]);
    await user.click(within(move).getByRole('button', { name: 'Yes, move my visit' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Your visit is moved');
    expect(server.sent('POST', `${MANAGE_PATH}/move`).map((request) => request.body)).toEqual([
      { date: '2027-03-10', time: '14:00' },
    ]);
    expect(visitFacts().Time).toBe('14:00 to 14:30');
    expect(screen.queryByRole('region', { name: 'Move the visit' })).not.toBeInTheDocument();
  });

  it('Move can be left without changing anything', async () => {
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Move' }));
    const move = screen.getByRole('region', { name: 'Move the visit' });
    await user.click(await within(move).findByRole('button', { name: '10:00' }));
    await user.click(within(move).getByRole('button', { name: 'Choose another time' }));
    expect(within(move).getByRole('button', { name: '14:00' })).toBeInTheDocument();
    await user.click(within(move).getByRole('button', { name: 'Keep the visit as it is' }));
    expect(screen.queryByRole('region', { name: 'Move the visit' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Move' })).toBeInTheDocument();
    expect(server.sent('POST', `${MANAGE_PATH}/move`)).toEqual([]);
  });

  it('a time taken meanwhile: the refusal, and the visit as it is now', async () => {
    server.onPost(`${MANAGE_PATH}/move`, { status: 409, body: { message: ONLINE_TIME_TAKEN } });
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Move' }));
    await user.click(await screen.findByRole('button', { name: '10:00' }));
    await user.click(screen.getByRole('button', { name: 'Yes, move my visit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(ONLINE_TIME_TAKEN);
    expect(visitFacts().Time).toBe('09:00 to 09:30');
    // The visit is read again, in case it changed meanwhile.
    expect(server.sent('GET', MANAGE_PATH)).toHaveLength(2);
  });

  it('Cancel asks first, then cancels and offers to book another visit', async () => {
    server.onPost(`${MANAGE_PATH}/cancel`, {
      status: 200,
      body: withVisit({ status: 'cancelled' }, { can_confirm: false, can_change: false }),
    });
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('Cancel this visit?')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Keep the visit' }));
    expect(screen.queryByText('Cancel this visit?')).not.toBeInTheDocument();
    expect(server.sent('POST', `${MANAGE_PATH}/cancel`)).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Yes, cancel the visit' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Your visit is cancelled');
    expect(server.sent('POST', `${MANAGE_PATH}/cancel`)).toHaveLength(1);
    expect(visitFacts().Status).toBe('Cancelled');
    expect(screen.getByRole('link', { name: 'Book another visit' })).toHaveAttribute(
      'href',
      '/book/bright-smile',
    );
    for (const action of ['Confirm', 'Move', 'Cancel', "I can't come"]) {
      expect(screen.queryByRole('button', { name: action })).not.toBeInTheDocument();
    }
  });

  it('inside the cut-off: no Move, and "I can\'t come" asks the clinic to call', async () => {
    const message = cutoffMessage(24, '+1 555-0100');
    server.onGet(MANAGE_PATH, { status: 200, body: INSIDE_CUTOFF });
    server.onPost(`${MANAGE_PATH}/cancel`, { status: 409, body: { message } });
    const user = renderPage();
    expect(
      await screen.findByText(
        'Visits can be moved or cancelled online up to 24 hours before. To change this one, please call us on +1 555-0100.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Move' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: "I can't come" }));
    expect(screen.getByText('Ask the clinic to call you about this visit?')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Yes, ask them to call me' }));

    // The clinic will call: news for the patient, not a fault.
    expect(await screen.findByRole('status')).toHaveTextContent(message);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(server.sent('POST', `${MANAGE_PATH}/cancel`)).toHaveLength(1);
    expect(visitFacts().Status).toBe('Booked, not yet confirmed');
    expect(screen.queryByRole('link', { name: 'Book another visit' })).not.toBeInTheDocument();
  });

  it('a visit that has taken place shows no actions', async () => {
    server.onGet(MANAGE_PATH, {
      status: 200,
      body: withVisit({ status: 'completed' }, { can_confirm: false, can_change: false }),
    });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Hello Mia' })).toBeInTheDocument();
    expect(visitFacts().Status).toBe('Taken place');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Book another visit' })).toBeInTheDocument();
  });

  it('an unknown link (404) says it opens no visit', async () => {
    server.onGet(MANAGE_PATH, { status: 404, body: { message: MANAGE_LINK_UNKNOWN } });
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: MANAGE_LINK_UNKNOWN })).toBeInTheDocument();
    expect(screen.getByText('Please call the clinic to book or change a visit.')).toBeInTheDocument();
  });

  it('a link that cannot be read offers to try again, and trying again shows the visit', async () => {
    server.onGet(MANAGE_PATH, { offline: true }, { status: 200, body: VISIT });
    const user = renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The clinic could not be reached: check your connection and try again',
    );
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Hello Mia' })).toBeInTheDocument();
  });
});
