import {
  BIRTH_DATE_FUTURE,
  CODE_SENDS_USED,
  CODE_SENT,
  CODE_TRIES_USED,
  codeWrongMessage,
  HOLD_EXPIRED,
  ONLINE_BOOKING_NOT_HERE,
  ONLINE_TIME_TAKEN,
  type PublicBooked,
  type PublicClinic,
  type PublicFreeTimes,
} from '@dental/shared/domain';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { deferredAnswer, type FakeServer, fakeServer, type SentRequest } from '../testing/fakeServer';
import BookingPage from './BookingPage';

// Monday 1 March 2027, 08:00 at the clinic (UTC): the page's "today".
const NOW = new Date('2027-03-01T08:00:00Z');
const CLINIC_PATH = '/public/clinics/bright-smile';
const TIMES_PATH = `${CLINIC_PATH}/free-times`;
const HOLDS_PATH = `${CLINIC_PATH}/holds`;
const CODE_PATH = '/public/holds/hold-1/code';
const CONFIRM_PATH = '/public/holds/hold-1/confirm';

const CLINIC: PublicClinic = {
  name: 'Bright Smile Dental',
  address: '12 High Street, Springfield',
  phone: '+1 555-0100',
  timeZone: 'UTC',
  visit_types: [
    {
      id: 'dental-checkup',
      name: 'Dental Checkup',
      duration: 30,
      new_patients: true,
      returning_patients: true,
    },
    {
      id: 'cavity-filling',
      name: 'Cavity Filling',
      duration: 45,
      new_patients: true,
      returning_patients: false,
    },
    {
      id: 'regular-cleaning',
      name: 'Regular Cleaning',
      duration: 60,
      new_patients: false,
      returning_patients: true,
    },
  ],
  dentists: [
    { id: 1, name: 'Dr. Sarah Johnson' },
    { id: 2, name: 'Dr. Michael Chen' },
  ],
  rules: { notice_hours: 2, horizon_days: 60, cutoff_hours: 24 },
};

const SARAH_9 = { time: '09:00', end_time: '09:30', dentist_id: 1, dentist_name: 'Dr. Sarah Johnson' };
const MICHAEL_10 = { time: '10:00', end_time: '10:30', dentist_id: 2, dentist_name: 'Dr. Michael Chen' };
const SARAH_11 = { time: '11:00', end_time: '11:30', dentist_id: 1, dentist_name: 'Dr. Sarah Johnson' };

/** The day's free times as the server gives them: by dentist when one is asked for. */
const freeTimes =
  (times: PublicFreeTimes['times']) =>
  ({ query }: SentRequest) => ({
    status: 200,
    body: {
      date: query.date,
      times: query.dentist_id ? times.filter((time) => String(time.dentist_id) === query.dentist_id) : times,
    },
  });

const HOLD = { hold_id: 'hold-1', expires_at: new Date(NOW.getTime() + 5 * 60_000).toISOString() };
/** 202 of a code sent: the server holds the time as long as the code is good, 10 minutes from now. */
const codeSent = () => ({
  status: 202,
  body: { message: CODE_SENT, expires_at: new Date(Date.now() + 10 * 60_000).toISOString() },
});
const MIA = {
  name: 'Mia Martin',
  phone: '+1 555 0199',
  email: 'mia@example.com',
  date_of_birth: '1990-04-12',
};
const BOOKED: PublicBooked = {
  appointment: {
    id: 41,
    date: '2027-03-01',
    time: '09:00',
    end_time: '09:30',
    dentist_name: 'Dr. Sarah Johnson',
    treatment: 'Dental Checkup',
    status: 'pending',
  },
  manage_url: 'http://localhost/book/manage/tok-41',
};

let server: FakeServer;
beforeEach(() => {
  // The clock is the test's: "today" is fixed and a hold runs out only when the test moves time on.
  jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
  server = fakeServer();
  server.onGet(CLINIC_PATH, { status: 200, body: CLINIC });
  server.onGet(TIMES_PATH, freeTimes([SARAH_9, MICHAEL_10, SARAH_11]));
  server.onPost(HOLDS_PATH, { status: 201, body: HOLD });
  server.onPost(CODE_PATH, codeSent);
  server.onPost(CONFIRM_PATH, { status: 201, body: BOOKED });
});
afterEach(() => {
  jest.useRealTimers();
  server.restore();
});

function renderPage() {
  const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
  render(<BookingPage slug="bright-smile" />);
  return user;
}

const timesSection = () => screen.getByRole('region', { name: /^Free times on/ });
const timeButton = (time: string) =>
  within(timesSection()).getByRole('button', { name: new RegExp(`^${time}`) });
const shownTimes = () =>
  within(timesSection())
    .queryAllByRole('button')
    .map((button) => button.textContent);
const visitOptions = () =>
  within(screen.getByRole('group', { name: 'Visit' }))
    .getAllByRole('radio')
    .map((radio) => radio.closest('label')?.textContent);
const lastQuery = () => server.sent('GET', TIMES_PATH).at(-1)?.query;

/** Opens the page and picks 09:00 with Dr. Sarah Johnson (any dentist). */
async function pickNine(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: /^09:00/ }));
  return screen.findByRole('form', { name: 'Your details' });
}

async function fillDetails(user: ReturnType<typeof userEvent.setup>, contact = MIA) {
  await user.type(screen.getByLabelText('Full name'), contact.name);
  await user.type(screen.getByLabelText('Phone'), contact.phone);
  await user.type(screen.getByLabelText('E-mail'), contact.email);
  await user.type(screen.getByLabelText('Date of birth'), contact.date_of_birth);
}

async function reachCode(user: ReturnType<typeof userEvent.setup>) {
  await pickNine(user);
  await fillDetails(user);
  await user.click(screen.getByRole('button', { name: 'Send me a code' }));
  return screen.findByRole('form', { name: 'Enter your code' });
}

describe('BookingPage: choosing a visit and a time', () => {
  it("names the clinic with its address and phone, and offers new patients' visits first", async () => {
    renderPage();
    expect(await screen.findByText('Bright Smile Dental')).toBeInTheDocument();
    expect(screen.getByText('12 High Street, Springfield')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '+1 555-0100' })).toHaveAttribute('href', 'tel:+15550100');
    expect(screen.getByRole('heading', { level: 1, name: 'Book a visit' })).toBeInTheDocument();
    expect(document.title).toBe('Book a visit: Bright Smile Dental');

    expect(screen.getByRole('radio', { name: 'No, I am a new patient' })).toBeChecked();
    expect(visitOptions()).toEqual(['Dental Checkup (30 min)', 'Cavity Filling (45 min)']);
    expect(screen.getByRole('radio', { name: 'Dental Checkup (30 min)' })).toBeChecked();
  });

  it("switching to a returning patient lists the returning patients' visits and reads their times", async () => {
    const user = renderPage();
    await user.click(await screen.findByRole('radio', { name: 'Cavity Filling (45 min)' }));
    await screen.findByRole('button', { name: /^09:00/ });
    expect(lastQuery()).toEqual({ visit_type: 'cavity-filling', date: '2027-03-01' });

    await user.click(screen.getByRole('radio', { name: 'Yes, I have been here before' }));
    expect(visitOptions()).toEqual(['Dental Checkup (30 min)', 'Regular Cleaning (60 min)']);
    // A filling is not offered to returning patients: the first visit they may book is chosen instead.
    expect(screen.getByRole('radio', { name: 'Dental Checkup (30 min)' })).toBeChecked();
    await screen.findByRole('button', { name: /^09:00/ });
    expect(lastQuery()).toEqual({ visit_type: 'dental-checkup', date: '2027-03-01' });

    await user.click(screen.getByRole('radio', { name: 'No, I am a new patient' }));
    expect(visitOptions()).toEqual(['Dental Checkup (30 min)', 'Cavity Filling (45 min)']);
    // The checkup is offered to both: it stays chosen.
    expect(screen.getByRole('radio', { name: 'Dental Checkup (30 min)' })).toBeChecked();
  });

  it('tells a kind of patient with nothing to book online to call', async () => {
    server.onGet(CLINIC_PATH, {
      status: 200,
      body: { ...CLINIC, visit_types: CLINIC.visit_types.filter((type) => !type.new_patients) },
    });
    const user = renderPage();
    // Nothing for new patients: the page starts with returning patients' visits.
    expect(await screen.findByRole('radio', { name: 'Yes, I have been here before' })).toBeChecked();
    expect(visitOptions()).toEqual(['Regular Cleaning (60 min)']);
    await user.click(screen.getByRole('radio', { name: 'No, I am a new patient' }));
    expect(
      screen.getByText('Visits for new patients cannot be booked online: please call us on +1 555-0100.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Visit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /^Free times on/ })).not.toBeInTheDocument();
  });

  it("lists the day's free times, each with its dentist when any dentist will do", async () => {
    renderPage();
    expect(
      await screen.findByRole('heading', { name: 'Free times on Monday, 1 March 2027' }),
    ).toBeInTheDocument();
    await screen.findByRole('button', { name: /^09:00/ });
    expect(screen.getByLabelText('Dentist')).toHaveDisplayValue('Any dentist');
    expect(within(timeButton('09:00')).getByText('Dr. Sarah Johnson')).toBeInTheDocument();
    expect(within(timeButton('10:00')).getByText('Dr. Michael Chen')).toBeInTheDocument();
    expect(shownTimes()).toHaveLength(3);
    expect(server.sent('GET', TIMES_PATH)).toHaveLength(1);
    expect(lastQuery()).toEqual({ visit_type: 'dental-checkup', date: '2027-03-01' });
  });

  it('reads the times again for the dentist and the day chosen', async () => {
    const user = renderPage();
    await screen.findByRole('button', { name: /^09:00/ });
    expect(screen.getByRole('button', { name: 'Previous day' })).toBeDisabled();

    await user.selectOptions(screen.getByLabelText('Dentist'), 'Dr. Michael Chen');
    expect(await screen.findByRole('button', { name: '10:00' })).toBeInTheDocument();
    expect(lastQuery()).toEqual({ visit_type: 'dental-checkup', date: '2027-03-01', dentist_id: '2' });
    expect(shownTimes()).toEqual(['10:00']);

    await user.click(screen.getByRole('button', { name: 'Next day' }));
    expect(
      await screen.findByRole('heading', { name: 'Free times on Tuesday, 2 March 2027' }),
    ).toBeInTheDocument();
    await screen.findByRole('button', { name: '10:00' });
    expect(lastQuery()).toEqual({ visit_type: 'dental-checkup', date: '2027-03-02', dentist_id: '2' });
    expect(screen.getByLabelText('Day')).toHaveValue('2027-03-02');

    await user.selectOptions(screen.getByLabelText('Dentist'), 'Any dentist');
    await screen.findByRole('button', { name: /^09:00/ });
    expect(lastQuery()).toEqual({ visit_type: 'dental-checkup', date: '2027-03-02' });
    expect(server.sent('GET', TIMES_PATH)).toHaveLength(4);
  });

  it("says it is finding the times, and a slow answer for a day left behind never replaces the next day's", async () => {
    const monday = deferredAnswer();
    server.onGet(TIMES_PATH, (request) =>
      request.query.date === '2027-03-01' ? monday.answer : freeTimes([SARAH_11])(request),
    );
    const user = renderPage();
    expect(await screen.findByText('Finding free times…')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next day' }));
    expect(await screen.findByRole('button', { name: /^11:00/ })).toBeInTheDocument();

    await act(async () => monday.resolve({ status: 200, body: { date: '2027-03-01', times: [SARAH_9] } }));
    expect(screen.getByRole('heading', { name: 'Free times on Tuesday, 2 March 2027' })).toBeInTheDocument();
    expect(shownTimes()).toEqual(['11:00 Dr. Sarah Johnson']);
  });

  it('says when a day has no free times', async () => {
    server.onGet(TIMES_PATH, freeTimes([]));
    renderPage();
    expect(await screen.findByText('No free times on this day: please try another day.')).toBeInTheDocument();
    expect(shownTimes()).toEqual([]);
  });
});

describe('BookingPage: holding a time and booking it', () => {
  it('holds the picked time and asks for the details, with the time and how long it is held', async () => {
    const user = renderPage();
    await pickNine(user);
    expect(server.sent('POST', HOLDS_PATH).map((request) => request.body)).toEqual([
      { visit_type_id: 'dental-checkup', dentist_id: null, date: '2027-03-01', time: '09:00' },
    ]);
    const picked = screen.getByRole('region', { name: 'The time you picked' });
    expect(within(picked).getByText('Dental Checkup')).toBeInTheDocument();
    expect(within(picked).getByText('Monday, 1 March 2027')).toBeInTheDocument();
    expect(within(picked).getByText('09:00 to 09:30')).toBeInTheDocument();
    expect(within(picked).getByText('Dr. Sarah Johnson')).toBeInTheDocument();
    expect(within(picked).getByText('We are holding 09:00 for you: 5:00 left')).toBeInTheDocument();
    expect(within(picked).getByText('We are holding 09:00 for you for 5 minutes')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /^Free times on/ })).not.toBeInTheDocument();

    act(() => jest.advanceTimersByTime(61_000));
    expect(within(picked).getByText('We are holding 09:00 for you: 3:59 left')).toBeInTheDocument();
  });

  it("holds a chosen dentist's time with that dentist", async () => {
    const user = renderPage();
    await screen.findByRole('button', { name: /^09:00/ });
    await user.selectOptions(screen.getByLabelText('Dentist'), 'Dr. Michael Chen');
    await user.click(await screen.findByRole('button', { name: '10:00' }));
    await screen.findByRole('form', { name: 'Your details' });
    expect(server.sent('POST', HOLDS_PATH).at(-1)?.body).toEqual({
      visit_type_id: 'dental-checkup',
      dentist_id: 2,
      date: '2027-03-01',
      time: '10:00',
    });
  });

  it('shows the rules at the fields left empty or wrong, and sends nothing', async () => {
    const user = renderPage();
    await pickNine(user);
    await user.click(screen.getByRole('button', { name: 'Send me a code' }));
    expect(screen.getByLabelText('Full name')).toHaveAccessibleDescription('This field is required');
    expect(screen.getByLabelText('Phone')).toHaveAccessibleDescription(
      'Use digits, spaces and + ( ) - . only',
    );
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription('Enter a valid e-mail address');
    expect(screen.getByLabelText('Date of birth')).toHaveAccessibleDescription('Use the format YYYY-MM-DD');
    expect(screen.getByLabelText('Full name')).toBeInvalid();

    await user.type(screen.getByLabelText('Full name'), 'Mia Martin');
    await user.type(screen.getByLabelText('Phone'), '12-34');
    await user.type(screen.getByLabelText('E-mail'), 'mia@');
    await user.type(screen.getByLabelText('Date of birth'), MIA.date_of_birth);
    await user.click(screen.getByRole('button', { name: 'Send me a code' }));
    expect(screen.getByLabelText('Full name')).not.toHaveAccessibleDescription();
    expect(screen.getByLabelText('Full name')).toBeValid();
    expect(screen.getByLabelText('Phone')).toHaveAccessibleDescription('A phone number has 7 to 15 digits');
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription('Enter a valid e-mail address');
    expect(screen.getByLabelText('Date of birth')).not.toHaveAccessibleDescription();
    expect(server.sent('POST', CODE_PATH)).toEqual([]);
  });

  it("shows the server's refusal at the field it names", async () => {
    server.onPost(CODE_PATH, {
      status: 400,
      body: {
        message: `Invalid date_of_birth: ${BIRTH_DATE_FUTURE}`,
        errors: [{ field: 'date_of_birth', message: BIRTH_DATE_FUTURE }],
      },
    });
    const user = renderPage();
    await pickNine(user);
    await fillDetails(user);
    await user.click(screen.getByRole('button', { name: 'Send me a code' }));
    expect(await screen.findByText(BIRTH_DATE_FUTURE)).toBeInTheDocument();
    expect(screen.getByLabelText('Date of birth')).toHaveAccessibleDescription(BIRTH_DATE_FUTURE);
    expect(screen.getByLabelText('E-mail')).not.toHaveAccessibleDescription();
    expect(screen.getByRole('form', { name: 'Your details' })).toBeInTheDocument();
  });

  it('sends the details for a code, then books with the right code after a wrong one', async () => {
    server.onPost(
      CONFIRM_PATH,
      {
        status: 400,
        body: {
          message: `Invalid code: ${codeWrongMessage(4)}`,
          errors: [{ field: 'code', message: codeWrongMessage(4) }],
        },
      },
      { status: 201, body: BOOKED },
    );
    const user = renderPage();
    const codeForm = await reachCode(user);
    expect(server.sent('POST', CODE_PATH).map((request) => request.body)).toEqual([MIA]);
    expect(within(codeForm).getByText('mia@example.com')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Your details' })).not.toBeInTheDocument();
    // The time stays held while the code is typed.
    expect(screen.getByText('We are holding 09:00 for you: 10:00 left')).toBeInTheDocument();

    // Not six digits: said at once, nothing sent.
    await user.type(screen.getByLabelText('6-digit code'), '12');
    await user.click(screen.getByRole('button', { name: 'Book the visit' }));
    expect(screen.getByLabelText('6-digit code')).toHaveAccessibleDescription(
      'Give the 6 digits of the code',
    );
    expect(server.sent('POST', CONFIRM_PATH)).toEqual([]);

    await user.clear(screen.getByLabelText('6-digit code'));
    await user.type(screen.getByLabelText('6-digit code'), '000000');
    await user.click(screen.getByRole('button', { name: 'Book the visit' }));
    expect(await screen.findByText('That code is not right: 4 tries left')).toBeInTheDocument();
    expect(screen.getByLabelText('6-digit code')).toHaveAccessibleDescription(
      'That code is not right: 4 tries left',
    );

    await user.clear(screen.getByLabelText('6-digit code'));
    await user.type(screen.getByLabelText('6-digit code'), '482913');
    await user.click(screen.getByRole('button', { name: 'Book the visit' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Your visit is booked' }),
    ).toBeInTheDocument();
    expect(server.sent('POST', CONFIRM_PATH).map((request) => request.body)).toEqual([
      { code: '000000' },
      { code: '482913' },
    ]);
    const visit = screen.getByRole('region', { name: 'Your visit' });
    expect(within(visit).getByText('Dental Checkup')).toBeInTheDocument();
    expect(within(visit).getByText('Monday, 1 March 2027')).toBeInTheDocument();
    expect(within(visit).getByText('09:00 to 09:30')).toBeInTheDocument();
    expect(within(visit).getByText('Dr. Sarah Johnson')).toBeInTheDocument();
    expect(within(visit).getByRole('link', { name: 'Manage this visit' })).toHaveAttribute(
      'href',
      'http://localhost/book/manage/tok-41',
    );
    expect(screen.queryByText(/We are holding/)).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Enter your code' })).not.toBeInTheDocument();
  });

  it('keeps the details given when the patient goes back to change them', async () => {
    const user = renderPage();
    await reachCode(user);
    await user.click(screen.getByRole('button', { name: 'Change my details' }));
    expect(await screen.findByRole('form', { name: 'Your details' })).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveValue('mia@example.com');
    expect(screen.getByLabelText('Full name')).toHaveValue('Mia Martin');
  });

  it("a time taken meanwhile: the server's message, and the nearest free times it gave instead", async () => {
    server.onPost(HOLDS_PATH, {
      status: 409,
      body: {
        message: ONLINE_TIME_TAKEN,
        times: [
          { time: '09:15', end_time: '09:45', dentist_id: 1, dentist_name: 'Dr. Sarah Johnson' },
          { time: '09:30', end_time: '10:00', dentist_id: 2, dentist_name: 'Dr. Michael Chen' },
        ],
      },
    });
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: /^09:00/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent(ONLINE_TIME_TAKEN);
    expect(shownTimes()).toEqual(['09:15 Dr. Sarah Johnson', '09:30 Dr. Michael Chen']);
    expect(screen.queryByRole('form', { name: 'Your details' })).not.toBeInTheDocument();
    // The times are the refusal's: the day is not read again.
    expect(server.sent('GET', TIMES_PATH)).toHaveLength(1);

    server.onPost(HOLDS_PATH, { status: 201, body: HOLD });
    await user.click(timeButton('09:30'));
    expect(await screen.findByRole('form', { name: 'Your details' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(server.sent('POST', HOLDS_PATH).at(-1)?.body).toMatchObject({ time: '09:30', dentist_id: null });
  });

  it('the time stays held as long as the code is good, and a new code can be asked for', async () => {
    const user = renderPage();
    await pickNine(user);
    act(() => jest.advanceTimersByTime(60_000));
    expect(screen.getByText('We are holding 09:00 for you: 4:00 left')).toBeInTheDocument();
    await fillDetails(user);
    await user.click(screen.getByRole('button', { name: 'Send me a code' }));
    await screen.findByRole('form', { name: 'Enter your code' });
    // The server keeps the hold 10 minutes from the code: the countdown follows it.
    expect(screen.getByText('We are holding 09:00 for you: 10:00 left')).toBeInTheDocument();
    expect(screen.getByText('We are holding 09:00 for you for 10 minutes')).toBeInTheDocument();

    act(() => jest.advanceTimersByTime(5 * 60_000));
    expect(screen.getByText('We are holding 09:00 for you: 5:00 left')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Send a new code' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'A new code is on its way to mia@example.com',
    );
    expect(server.sent('POST', CODE_PATH).map((request) => request.body)).toEqual([MIA, MIA]);
    expect(screen.getByText('We are holding 09:00 for you: 10:00 left')).toBeInTheDocument();

    await user.type(screen.getByLabelText('6-digit code'), '482913');
    await user.click(screen.getByRole('button', { name: 'Book the visit' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Your visit is booked' }),
    ).toBeInTheDocument();
  });

  it("a fourth code is refused with the server's message, and the code sent last still books", async () => {
    server.onPost(CODE_PATH, codeSent, { status: 409, body: { message: CODE_SENDS_USED } });
    const user = renderPage();
    await reachCode(user);
    await user.click(screen.getByRole('button', { name: 'Send a new code' }));
    expect(await screen.findByText(CODE_SENDS_USED)).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('6-digit code'), '482913');
    await user.click(screen.getByRole('button', { name: 'Book the visit' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Your visit is booked' }),
    ).toBeInTheDocument();
  });

  it('a hold let go while sending the code (410) goes back to the times with the reason', async () => {
    server.onPost(CODE_PATH, { status: 410, body: { message: HOLD_EXPIRED } });
    const user = renderPage();
    await pickNine(user);
    await fillDetails(user);
    await user.click(screen.getByRole('button', { name: 'Send me a code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(HOLD_EXPIRED);
    expect(screen.queryByRole('form', { name: 'Your details' })).not.toBeInTheDocument();
    expect(screen.queryByText(/We are holding/)).not.toBeInTheDocument();
    expect(timeButton('09:00')).toBeEnabled();
  });

  it('a hold let go on the last wrong code (410) goes back to the times with the reason', async () => {
    server.onPost(CONFIRM_PATH, { status: 410, body: { message: CODE_TRIES_USED } });
    const user = renderPage();
    await reachCode(user);
    await user.type(screen.getByLabelText('6-digit code'), '111111');
    await user.click(screen.getByRole('button', { name: 'Book the visit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(CODE_TRIES_USED);
    expect(screen.queryByRole('form', { name: 'Enter your code' })).not.toBeInTheDocument();
    expect(timeButton('09:00')).toBeInTheDocument();
  });

  it('a hold that runs out goes back to the times and says the time was let go', async () => {
    const user = renderPage();
    await pickNine(user);
    act(() => jest.advanceTimersByTime(4 * 60_000 + 58_000));
    expect(screen.getByText('We are holding 09:00 for you: 0:02 left')).toBeInTheDocument();
    expect(screen.getByText('We are holding 09:00 for you for less than a minute')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    act(() => jest.advanceTimersByTime(2_000));
    expect(await screen.findByRole('alert')).toHaveTextContent(HOLD_EXPIRED);
    expect(screen.queryByRole('form', { name: 'Your details' })).not.toBeInTheDocument();
    expect(screen.queryByText(/We are holding/)).not.toBeInTheDocument();
    // The list is read again: minutes have passed since it was read.
    expect(await screen.findByRole('button', { name: /^09:00/ })).toBeInTheDocument();
    expect(server.sent('GET', TIMES_PATH)).toHaveLength(2);
  });

  it('"Choose another time" lets the held time go back to the list without a message', async () => {
    const user = renderPage();
    await pickNine(user);
    await user.click(screen.getByRole('button', { name: 'Choose another time' }));
    expect(await screen.findByRole('button', { name: /^10:00/ })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('BookingPage: a clinic not there, and a connection that fails', () => {
  it('an unknown clinic, or one with online booking off (404), reads as not available', async () => {
    server.onGet(CLINIC_PATH, { status: 404, body: { message: ONLINE_BOOKING_NOT_HERE } });
    renderPage();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Online booking is not available here' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Please call the clinic to book or change a visit.')).toBeInTheDocument();
    expect(server.sent('GET', TIMES_PATH)).toEqual([]);
  });

  it('a page that cannot reach the clinic offers to try again, and trying again works', async () => {
    server.onGet(CLINIC_PATH, { offline: true }, { status: 200, body: CLINIC });
    const user = renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The clinic could not be reached: check your connection and try again',
    );
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Bright Smile Dental')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: /^09:00/ })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('free times that fail to load offer to try again, and trying again lists them', async () => {
    server.onGet(TIMES_PATH, { status: 503, body: { message: 'Service unavailable' } }, freeTimes([SARAH_9]));
    const user = renderPage();
    const failure = await within(await screen.findByRole('region', { name: /^Free times on/ })).findByRole(
      'alert',
    );
    // A fault of the server is not shown in its own words.
    expect(failure).toHaveTextContent(
      'Something went wrong on our side: please try again, or call the clinic',
    );
    await user.click(within(failure).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: /^09:00/ })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
