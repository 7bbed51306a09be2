import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BookingHost } from './BookingHost';
import { loadPublicPages, type PublicPages } from './bookingModule';

// The federation runtime is replaced: each test says what loading the booking module gives.
jest.mock('./bookingModule', () => ({ loadPublicPages: jest.fn() }));
const load = jest.mocked(loadPublicPages);

/** The booking module's pages: they say which path they were given. */
const Pages: PublicPages = ({ pathname }) => <h1>Booking page for {pathname}</h1>;

/** Pages that throw while drawing until the test mends them. */
let broken = true;
const FlakyPages: PublicPages = ({ pathname }) => {
  if (broken) throw new Error('Cannot read properties of undefined (reading "map")');
  return <h1>Booking page for {pathname}</h1>;
};

beforeEach(() => {
  load.mockReset();
  broken = true;
});

describe('BookingHost (the patients’ /book/… page)', () => {
  it('says it is loading until the booking module arrives, then shows its page for the path', async () => {
    let arrive: (pages: PublicPages) => void = () => {};
    load.mockReturnValueOnce(
      new Promise<PublicPages>((resolve) => {
        arrive = resolve;
      }),
    );
    render(<BookingHost pathname="/book/bright-smile" />);
    expect(screen.getByText('Loading…')).toBeInTheDocument();
    expect(load).toHaveBeenCalledWith(false);

    arrive(Pages);
    expect(
      await screen.findByRole('heading', { name: 'Booking page for /book/bright-smile' }),
    ).toBeInTheDocument();
    expect(screen.queryByText('Loading…')).not.toBeInTheDocument();
  });

  it('a module that fails to load offers to try again, which loads it afresh', async () => {
    let arrive: (pages: PublicPages) => void = () => {};
    load.mockRejectedValueOnce(new Error('The booking module’s entry answered 503')).mockReturnValueOnce(
      new Promise<PublicPages>((resolve) => {
        arrive = resolve;
      }),
    );
    render(<BookingHost pathname="/book/bright-smile" />);
    const failure = await screen.findByRole('alert');
    expect(failure).toHaveTextContent('The booking page could not be loaded');
    expect(failure).toHaveTextContent('Check your connection and try again, or call the clinic to book.');
    expect(screen.getByRole('heading', { name: 'The booking page could not be loaded' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('Loading…')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(load.mock.calls).toEqual([[false], [true]]);

    arrive(Pages);
    expect(
      await screen.findByRole('heading', { name: 'Booking page for /book/bright-smile' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('a page that throws while drawing shows the same advice, and trying again loads it afresh', async () => {
    // React and the error boundary report the failure on the console; the test reads the page instead.
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    try {
      load.mockResolvedValue(FlakyPages);
      render(<BookingHost pathname="/book/manage/tok-41" />);
      expect(
        await screen.findByRole('heading', { name: 'The booking page could not be loaded' }),
      ).toBeInTheDocument();
      expect(screen.getByRole('alert')).toHaveTextContent('call the clinic to book');

      broken = false;
      await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
      expect(
        await screen.findByRole('heading', { name: 'Booking page for /book/manage/tok-41' }),
      ).toBeInTheDocument();
      expect(load.mock.calls).toEqual([[false], [true]]);
    } finally {
      consoleError.mockRestore();
    }
  });
});
