import type { SignedInSession } from '@dental/shared';
import { createFakeApi, type FakeApi, refusal, renderScreen } from '@dental/shared/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { SessionsCard } from './SessionsCard';

const HERE: SignedInSession = {
  id: 'sess-here',
  browser: 'Chrome 140',
  system: 'Linux',
  ip: '203.0.113.5',
  created_at: '2026-02-01T08:00:00Z',
  last_used_at: '2026-02-01T09:30:00Z',
  expires_at: '2026-02-02T08:00:00Z',
  remember: false,
  factor: 'totp',
  current: true,
};
const LAPTOP: SignedInSession = {
  ...HERE,
  id: 'sess-laptop',
  browser: 'Firefox 141',
  system: 'Windows',
  ip: '',
  factor: 'password',
  current: false,
};
const PHONE: SignedInSession = {
  ...HERE,
  id: 'sess-phone',
  browser: 'Safari 18',
  system: 'iOS',
  ip: '198.51.100.7',
  factor: 'recovery_code',
  current: false,
};

let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
});
afterEach(() => api.restore());

/** The card as it first reads these sessions; any later read answers `after` (by default the same). */
async function renderCard(sessions: SignedInSession[], after: SignedInSession[] = sessions) {
  api
    .onGet('/auth/sessions')
    .replyOnce(200, { data: sessions })
    .onGet('/auth/sessions')
    .reply(200, { data: after });
  const view = renderScreen(<SessionsCard />);
  await screen.findByText('Chrome 140 on Linux');
  return view;
}

/** The listed session showing this browser and system (its actions are a list of their own). */
const row = (title: string) => {
  const item = screen.getByText(title).closest<HTMLElement>('li.ant-list-item');
  if (!item) throw new Error(`No session row for '${title}'`);
  return within(item);
};

/** The open Popconfirm asking this question. */
async function confirmation(question: string) {
  const popup = await screen.findByRole('tooltip');
  await within(popup).findByText(question);
  return within(popup);
}

const SIGN_OUT_ALL = 'Sign out all other sessions';

describe('SessionsCard', () => {
  it('lists the sessions: this device tagged and without a Sign out button, the others with one', async () => {
    await renderCard([HERE, LAPTOP, PHONE]);
    const list = within(screen.getByLabelText('Signed-in sessions'));
    expect(list.getAllByRole('heading').map((title) => title.textContent?.trim())).toEqual([
      'Chrome 140 on Linux This device',
      'Firefox 141 on Windows',
      'Safari 18 on iOS',
    ]);

    const here = row('Chrome 140 on Linux');
    expect(here.getByText('This device')).toBeInTheDocument();
    expect(here.getByText(/203\.0\.113\.5/)).toHaveTextContent(/with password and code/);
    expect(here.queryByRole('button')).not.toBeInTheDocument();

    const laptop = row('Firefox 141 on Windows');
    expect(laptop.queryByText('This device')).not.toBeInTheDocument();
    expect(laptop.getByRole('button', { name: 'Sign out Firefox 141 on Windows' })).toHaveTextContent(
      'Sign out',
    );
    expect(laptop.getByText(/Unknown address/)).toHaveTextContent(/with password ·/);

    const phone = row('Safari 18 on iOS');
    expect(phone.getByRole('button', { name: 'Sign out Safari 18 on iOS' })).toBeInTheDocument();
    expect(phone.getByText(/with password and recovery code/)).toBeInTheDocument();

    expect(screen.getAllByText('This device')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Sign out Chrome 140 on Linux' })).not.toBeInTheDocument();
  });

  it('signs one session out after the question, then reads the list again', async () => {
    const ENDED = 'The session was signed out.';
    api.onDelete('/auth/sessions/sess-laptop').reply(200, { message: ENDED });
    const view = await renderCard([HERE, LAPTOP, PHONE], [HERE, PHONE]);

    await view.user.click(screen.getByRole('button', { name: 'Sign out Firefox 141 on Windows' }));
    const confirm = await confirmation('Sign this session out?');
    expect(api.sent('delete')).toHaveLength(0);
    await view.user.click(confirm.getByRole('button', { name: 'Sign out' }));

    expect(await screen.findByText(ENDED)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Firefox 141 on Windows')).not.toBeInTheDocument());
    expect(api.sent('delete').map((sent) => sent.url)).toEqual(['/auth/sessions/sess-laptop']);
    expect(api.sent('get', '/auth/sessions')).toHaveLength(2);
    expect(screen.getByText('Safari 18 on iOS')).toBeInTheDocument();
  });

  it('a refused sign-out shows the server message and keeps the list', async () => {
    api.onDelete('/auth/sessions/sess-laptop').reply(404, refusal('That session has already ended.'));
    const view = await renderCard([HERE, LAPTOP]);
    await view.user.click(screen.getByRole('button', { name: 'Sign out Firefox 141 on Windows' }));
    const confirm = await confirmation('Sign this session out?');
    await view.user.click(confirm.getByRole('button', { name: 'Sign out' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('That session has already ended.');
    expect(screen.getByText('Firefox 141 on Windows')).toBeInTheDocument();
    expect(api.sent('get', '/auth/sessions')).toHaveLength(1);
  });

  it('"Sign out all other sessions" is disabled when this is the only session', async () => {
    await renderCard([HERE]);
    expect(screen.getByRole('button', { name: SIGN_OUT_ALL })).toBeDisabled();
  });

  it('"Sign out all other sessions": asked first, then DELETE /auth/sessions and the list is read again', async () => {
    const ENDED = 'Your 2 other sessions were signed out.';
    api.onDelete('/auth/sessions').reply(200, { message: ENDED, ended: 2 });
    const view = await renderCard([HERE, LAPTOP, PHONE], [HERE]);

    const all = screen.getByRole('button', { name: SIGN_OUT_ALL });
    expect(all).toBeEnabled();
    await view.user.click(all);
    const confirm = await confirmation('Sign out all other sessions?');
    expect(confirm.getByText(/Every other browser signed in as you is signed out/)).toBeInTheDocument();
    expect(api.sent('delete')).toHaveLength(0);
    await view.user.click(confirm.getByRole('button', { name: 'Sign out' }));

    expect(await screen.findByText(ENDED)).toBeInTheDocument();
    expect(api.sent('delete').map((sent) => sent.url)).toEqual(['/auth/sessions']);
    await waitFor(() => expect(screen.getByRole('button', { name: SIGN_OUT_ALL })).toBeDisabled());
    expect(screen.queryByText('Firefox 141 on Windows')).not.toBeInTheDocument();
    expect(screen.queryByText('Safari 18 on iOS')).not.toBeInTheDocument();
    expect(api.sent('get', '/auth/sessions')).toHaveLength(2);
  });

  it('a failed load shows the error banner; Retry reads the list again', async () => {
    api
      .onGet('/auth/sessions')
      .replyOnce(500)
      .onGet('/auth/sessions')
      .reply(200, { data: [HERE, LAPTOP] });
    const view = renderScreen(<SessionsCard />);

    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Your sessions could not be loaded.');
    expect(screen.queryByText('Chrome 140 on Linux')).not.toBeInTheDocument();
    await view.user.click(within(banner).getByRole('button', { name: 'Retry' }));

    expect(await screen.findByText('Chrome 140 on Linux')).toBeInTheDocument();
    expect(screen.getByText('Firefox 141 on Windows')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(api.sent('get', '/auth/sessions')).toHaveLength(2);
  });
});
