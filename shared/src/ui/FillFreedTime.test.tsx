import { screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import type { FreedVisit } from '../domain';
import { createFakeApi, type FakeApi, renderScreen, waitlistMatch } from '../testing';
import { FillFreedTime } from './FillFreedTime';

/** Tom's 14:00 hour with Dr. Sarah Johnson on Monday 1 March 2027, cancelled. */
const FREED = {
  dentist_id: 1,
  dentist_name: 'Dr. Sarah Johnson',
  date: '2027-03-01',
  time: '14:00',
  duration: 60,
};

const OFFER = { date: FREED.date, time: '14:00' };
const MIA = waitlistMatch({ part_of_day: 'afternoon' }, OFFER);
const LEO = waitlistMatch(
  { id: 5, patient_id: 105, patient_name: 'Leo Grant', dentist_id: null, dentist_name: null },
  OFFER,
);

let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
  api.onGet('/api/waitlist/matches').reply(200, { data: [MIA, LEO] });
});
afterEach(() => api.restore());

const panel = async () => (await screen.findByText(/^Fill this time:/)).closest('.ant-alert') as HTMLElement;

/** A screen that frees a time on a click: the panel appears with it. */
function Harness({ onClose }: { onClose: () => void }) {
  const [freed, setFreed] = useState<FreedVisit | null>(null);
  return (
    <>
      <button type="button" onClick={() => setFreed({ ...FREED, dentist_name: undefined })}>
        Free it
      </button>
      <FillFreedTime freed={freed} onClose={onClose} />
    </>
  );
}

describe('FillFreedTime', () => {
  it('names the freed time and lists its matches, best first; Book opens the form for one, with the way back', async () => {
    const view = renderScreen(
      <FillFreedTime freed={FREED} onClose={() => {}} returnTo="/calendar?day=2027-03-01" />,
      { url: '/calendar?day=2027-03-01' },
    );
    const shown = await panel();
    expect(shown).toHaveTextContent('Fill this time: Mon, Mar 1, 2027 14:00–15:00 with Dr. Sarah Johnson');
    const list = await within(shown).findByRole('list', { name: 'Waitlisted patients for this time' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent?.split('·')[0]?.trim())).toEqual(['Mia Martin', 'Leo Grant']);
    expect(rows[0]).toHaveTextContent('(asked for Dr. Sarah Johnson)');
    expect(rows[1]).not.toHaveTextContent('asked for');

    await view.user.click(within(shown).getByRole('button', { name: 'Book Leo Grant at 14:00' }));
    expect(view.currentUrl()).toBe(
      `/appointments?new=1&patient=105&dentist=1&date=2027-03-01&time=14%3A00&treatment=Regular+Cleaning&waitlist=5&returnTo=${encodeURIComponent('/calendar?day=2027-03-01')}`,
    );
  });

  it('Tell them queues the message for that match and then says how they are told', async () => {
    api.onPost('/api/waitlist/4/offer').reply(200, { queued: ['email', 'sms'] });
    const view = renderScreen(<FillFreedTime freed={FREED} onClose={() => {}} />);
    const shown = await panel();
    await view.user.click(await within(shown).findByRole('button', { name: 'Tell them: Mia Martin, 14:00' }));

    expect(await within(shown).findByText('Told by e-mail and SMS')).toBeInTheDocument();
    expect(api.sent('post', '/api/waitlist/4/offer')).toHaveLength(1);
    expect(api.sent('post', '/api/waitlist/4/offer')[0]?.body).toEqual({
      dentist_id: 1,
      date: '2027-03-01',
      time: '14:00',
    });
    // Told once: no second message from this panel; the other match may still be told.
    expect(
      within(shown).queryByRole('button', { name: 'Tell them: Mia Martin, 14:00' }),
    ).not.toBeInTheDocument();
    expect(within(shown).getByRole('button', { name: 'Tell them: Leo Grant, 14:00' })).toBeEnabled();
  });

  it('a match told already (at this desk or another, before a reload) says how, with no Tell them', async () => {
    api.onGet('/api/waitlist/matches').reply(200, {
      data: [{ ...MIA, told: { at: '2027-02-27T10:15:00Z', channels: ['email'] } }, LEO],
    });
    renderScreen(<FillFreedTime freed={FREED} onClose={() => {}} />);
    const shown = await panel();
    const [mia, leo] = within(
      await within(shown).findByRole('list', { name: 'Waitlisted patients for this time' }),
    ).getAllByRole('listitem');
    expect(mia).toHaveTextContent('Told by e-mail');
    expect(within(mia as HTMLElement).queryByRole('button', { name: /^Tell / })).not.toBeInTheDocument();
    expect(
      within(mia as HTMLElement).getByRole('button', { name: 'Book Mia Martin at 14:00' }),
    ).toBeEnabled();
    expect(leo).not.toHaveTextContent('Told by');
    expect(
      within(leo as HTMLElement).getByRole('button', { name: 'Tell them: Leo Grant, 14:00' }),
    ).toBeEnabled();
  });

  it('told at another desk meanwhile: the refusal is said and the matches, read again, say how', async () => {
    api.resetHandlers();
    api
      .onGet('/api/waitlist/matches')
      .replyOnce(200, { data: [MIA, LEO] })
      .onGet('/api/waitlist/matches')
      .reply(200, {
        data: [{ ...MIA, told: { at: '2027-02-27T10:15:00Z', channels: ['email', 'sms'] } }, LEO],
      });
    api
      .onPost('/api/waitlist/4/offer')
      .reply(409, { message: 'Already told of this time on 2027-02-27 at 10:15, by e-mail and SMS' });
    const view = renderScreen(<FillFreedTime freed={FREED} onClose={() => {}} />);
    const shown = await panel();
    await view.user.click(await within(shown).findByRole('button', { name: 'Tell them: Mia Martin, 14:00' }));

    expect(await within(shown).findByRole('alert')).toHaveTextContent(
      'Already told of this time on 2027-02-27 at 10:15, by e-mail and SMS',
    );
    expect(await within(shown).findByText('Told by e-mail and SMS')).toBeInTheDocument();
    expect(
      within(shown).queryByRole('button', { name: 'Tell them: Mia Martin, 14:00' }),
    ).not.toBeInTheDocument();
    expect(api.sent('get', '/api/waitlist/matches')).toHaveLength(2);
    expect(api.sent('post')).toHaveLength(1);
  });

  it("Tell them says the server's refusal when no channel reaches the patient, and sends nothing else", async () => {
    api
      .onPost('/api/waitlist/5/offer')
      .reply(409, { message: 'No message can be sent: the patient has no address for them.' });
    const view = renderScreen(<FillFreedTime freed={FREED} onClose={() => {}} />);
    const shown = await panel();
    await view.user.click(await within(shown).findByRole('button', { name: 'Tell them: Leo Grant, 14:00' }));

    expect(await within(shown).findByRole('alert')).toHaveTextContent(
      'No message can be sent: the patient has no address for them.',
    );
    expect(within(shown).getByRole('button', { name: 'Tell them: Leo Grant, 14:00' })).toBeEnabled();
    expect(api.sent('post')).toHaveLength(1);
  });

  it('without a freed time shows nothing and asks nothing; its close button is the caller’s', async () => {
    const closed = jest.fn();
    const view = renderScreen(<Harness onClose={closed} />);
    expect(screen.queryByText(/^Fill this time:/)).not.toBeInTheDocument();
    expect(api.sent()).toHaveLength(0);
    await view.user.click(screen.getByRole('button', { name: 'Free it' }));
    await waitFor(() => expect(api.sent('get', '/api/waitlist/matches')).toHaveLength(1));
    // Its dentist not known by name: the time alone is named.
    expect(await screen.findByText('Fill this time: Mon, Mar 1, 2027 14:00–15:00')).toBeInTheDocument();
    await view.user.click(screen.getByRole('button', { name: 'Close Fill this time' }));
    expect(closed).toHaveBeenCalledTimes(1);
  });
});
