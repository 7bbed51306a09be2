import { STALE_WRITE_MESSAGE } from '@dental/shared';
import { createFakeApi, type FakeApi, pageOf, renderScreen, staleWrite } from '@dental/shared/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { CHAIRS, MICHAEL, SARAH, SETTINGS, visit } from '../testing/fixtures';
import AppointmentsPage from './AppointmentsPage';

/** Mia's visit as the list showed it, and as another desk changed it meanwhile. */
const SHOWN = visit({ version: 6 });
const THEIRS = visit({ version: 7, status: 'cancelled', notes: 'Cancelled by phone' });

let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
  api.onGet('/api/dentists').reply(200, pageOf([SARAH, MICHAEL]));
  api.onGet('/api/chairs').reply(200, { data: CHAIRS });
  api.onGet('/api/settings').reply(200, SETTINGS);
  api.onGet('/api/appointments/overlapping').reply(200, { data: [], total: 0 });
  api.onGet('/api/appointments').replyOnce(200, pageOf([SHOWN], 1));
  api.onGet('/api/appointments').reply(200, pageOf([THEIRS], 1));
});
afterEach(() => api.restore());

const row = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;
const listReads = () => api.sent('get', '/api/appointments').length;

describe('AppointmentsPage: a row action never overwrites another desk', () => {
  it('Confirm names the version the row showed; refused as stale, the banner says so and the list is read again', async () => {
    api.onPatch('/api/appointments/31/status').reply(412, staleWrite(THEIRS));
    const view = renderScreen(<AppointmentsPage />, { url: '/appointments' });
    await view.user.click(await screen.findByLabelText('Confirm appointment of Mia Martin'));

    expect(await screen.findByRole('alert')).toHaveTextContent(STALE_WRITE_MESSAGE);
    await waitFor(() => expect(within(row('Mia Martin')).getByText('cancelled')).toBeInTheDocument());
    expect(listReads()).toBe(2);
    // Said, not retried.
    const patches = api.sent('patch');
    expect(patches).toHaveLength(1);
    expect(patches[0]?.ifMatch).toBe('"6"');
  });

  it('Delete names the version the row showed; refused as stale, nothing is retried', async () => {
    api.onDelete('/api/appointments/31').reply(412, staleWrite(THEIRS));
    const view = renderScreen(<AppointmentsPage />, { url: '/appointments' });
    await view.user.click(await screen.findByLabelText('Delete appointment of Mia Martin'));
    const confirm = (await screen.findAllByText('Delete'))
      .map((element) => element.closest('button'))
      .find((button) => button?.closest('.ant-modal-wrap'));
    await view.user.click(confirm as HTMLElement);

    expect(await screen.findByRole('alert')).toHaveTextContent(STALE_WRITE_MESSAGE);
    await waitFor(() => expect(listReads()).toBe(2));
    expect(api.sent('delete').map((sent) => sent.ifMatch)).toEqual(['"6"']);
    expect(screen.getByText('Mia Martin')).toBeInTheDocument();
  });
});
