import { NO_RECALL_CHANNEL, type RecallRow, type RecallType } from '@dental/shared';
import { todayDay } from '@dental/shared/kit';
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
import { dayAfter } from '../components/RecallActionForms';
import { miaRecall } from '../testing/recall';
import RecallPage, { addDays, reminderQueuedMessage } from './RecallPage';

const today = todayDay();

const HYGIENE: RecallType = {
  id: 1,
  name: 'Hygiene recall',
  treatment: 'Regular Cleaning',
  interval_months: 6,
  active: true,
  version: 1,
};
const CHECKUP: RecallType = {
  id: 2,
  name: 'Checkup',
  treatment: 'Dental Checkup',
  interval_months: 12,
  active: true,
  version: 1,
};
const RETIRED: RecallType = { ...CHECKUP, id: 3, name: 'Fluoride', active: false };

const MIA: RecallRow = miaRecall({
  last_visit: '2026-01-10',
  last_dentist_id: 1,
  due_date: addDays(today, -20),
});
const TOM: RecallRow = {
  ...MIA,
  patient_id: 8,
  patient_name: 'Tom Baker',
  phone: '555-0108',
  email: '',
  type_id: 2,
  type_name: 'Checkup',
  treatment: 'Dental Checkup',
  last_visit: null,
  last_dentist_id: null,
  last_dentist: null,
  // Due days ago, but snoozed to a later day: not overdue until then.
  due_date: addDays(today, -5),
  due_set_by_hand: true,
  snoozed_until: addDays(today, 3),
  scheduled_on: addDays(today, 12),
  last_contact: { at: '2026-11-02T10:30:00Z', kind: 'call', note: 'Will call back after the holidays' },
  version: 1,
};
const SARAH = { id: 1, name: 'Dr. Sarah Johnson', status: 'active' };
const MICHAEL = { id: 2, name: 'Dr. Michael Chen', status: 'active' };

let api: FakeApi;
let restoreWidth: () => void;
beforeEach(() => {
  restoreWidth = screenWidth(1280);
  api = createFakeApi();
  api.onGet('/api/recall-types').reply(200, { data: [HYGIENE, CHECKUP, RETIRED] });
  api.onGet('/api/dentists').reply(200, pageOf([SARAH, MICHAEL]));
});
afterEach(() => {
  api.restore();
  restoreWidth();
});

const row = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;

async function choose(view: ReturnType<typeof renderScreen>, label: string, title: string) {
  await view.user.click(screen.getByRole('combobox', { name: label }));
  const option = await waitFor(() => {
    const found = Array.from(
      document.querySelectorAll(
        '.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option',
      ),
    ).find((candidate) => candidate.getAttribute('title') === title);
    if (!found) throw new Error(`No option ${title}`);
    return found as HTMLElement;
  });
  await view.user.click(option);
}

describe('RecallPage', () => {
  it('on a phone keeps who, what, when due and the actions', async () => {
    restoreWidth();
    restoreWidth = screenWidth(360);
    api.onGet('/api/recall').reply(200, pageOf([MIA, TOM], 2));
    renderScreen(<RecallPage />, { url: '/recall' });
    expect(await screen.findByText('Mia Martin')).toBeInTheDocument();
    for (const column of ['Patient', 'Recall', 'Due', 'Actions']) {
      expect(screen.getByRole('columnheader', { name: column })).toBeInTheDocument();
    }
    for (const column of ['Last visit', 'Scheduled', 'Last contact']) {
      expect(screen.queryByRole('columnheader', { name: column })).not.toBeInTheDocument();
    }
  });

  it('lists the patients due, soonest first, with their recall, visit, due date, booking and contact', async () => {
    api.onGet('/api/recall').reply(200, pageOf([MIA, TOM], 2));
    renderScreen(<RecallPage />, { url: '/recall' });

    expect(await screen.findByText('Mia Martin')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Recall' })).toBeInTheDocument();
    for (const column of ['Patient', 'Recall', 'Last visit', 'Due', 'Scheduled', 'Last contact', 'Actions']) {
      expect(screen.getByRole('columnheader', { name: column })).toBeInTheDocument();
    }
    const mia = row('Mia Martin');
    expect(within(mia).getByText('mia@example.com').parentElement).toHaveTextContent(
      '555-0107 · mia@example.com',
    );
    expect(within(mia).getByText('Hygiene recall')).toBeInTheDocument();
    expect(within(mia).getByText('with Dr. Sarah Johnson')).toBeInTheDocument();
    expect(within(mia).getByText('overdue').className).toMatch(/red/);

    const tom = row('Tom Baker');
    expect(within(tom).getByText('555-0108')).toBeInTheDocument();
    expect(within(tom).queryByText('overdue')).not.toBeInTheDocument();
    expect(within(tom).getByText(/^snoozed to /)).toBeInTheDocument();
    expect(within(tom).getByText('call')).toBeInTheDocument();
    expect(within(tom).getByText('Will call back after the holidays')).toBeInTheDocument();
    // Each action says what it does, and for whom.
    for (const action of ['Book', 'Send reminder', 'Mark contacted', 'Snooze']) {
      expect(within(tom).getByRole('button', { name: `${action}: Tom Baker, Checkup` })).toBeInTheDocument();
    }

    // The next 30 days by default, overdue ones included; the server's own filters only.
    expect(api.lastParams('/api/recall')).toEqual({ page: 1, limit: 20, due_by: addDays(today, 30) });
  });

  it('reads its filters from the URL and asks the server for them', async () => {
    api.onGet('/api/recall').reply(200, pageOf([TOM], 1));
    renderScreen(<RecallPage />, {
      url: '/recall?due=90d&type=2&dentist=1&scheduled=yes&contacted=no&search=tom',
    });
    expect(await screen.findByText('Tom Baker')).toBeInTheDocument();
    expect(api.lastParams('/api/recall')).toEqual({
      page: 1,
      limit: 20,
      search: 'tom',
      due_by: addDays(today, 90),
      type_id: 2,
      dentist_id: 1,
      scheduled: 'yes',
      contacted: 'no',
    });
    expect(screen.getByRole('searchbox', { name: 'Search by name' })).toHaveValue('tom');
  });

  it('each filter goes into the URL and the request, back to page 1', async () => {
    api.onGet('/api/recall').reply(200, pageOf([MIA], 1));
    const view = renderScreen(<RecallPage />, { url: '/recall?page=2' });
    await screen.findByText('Mia Martin');

    await choose(view, 'Due', 'Overdue');
    await waitFor(() => expect(view.currentParams().get('due')).toBe('overdue'));
    expect(view.currentParams().get('page')).toBeNull();
    await waitFor(() => expect(api.lastParams('/api/recall')).toMatchObject({ due_by: addDays(today, -1) }));

    await choose(view, 'Due', 'Due this year');
    await waitFor(() =>
      expect(api.lastParams('/api/recall')).toMatchObject({ due_by: `${today.slice(0, 4)}-12-31` }),
    );

    // Only the clinic's active recall types are offered.
    await view.user.click(screen.getByRole('combobox', { name: 'Recall type' }));
    await waitFor(() => expect(document.querySelector('[title="Checkup"]')).not.toBeNull());
    expect(document.querySelector('[title="Fluoride"]')).toBeNull();
    await view.user.click(document.querySelector('[title="Checkup"]') as HTMLElement);
    await waitFor(() => expect(view.currentParams().get('type')).toBe('2'));

    await choose(view, 'Dentist', 'Dr. Michael Chen');
    await waitFor(() => expect(view.currentParams().get('dentist')).toBe('2'));
    await choose(view, 'Scheduled', 'Not scheduled');
    await waitFor(() => expect(view.currentParams().get('scheduled')).toBe('no'));
    await choose(view, 'Contacted', 'Contacted');
    await waitFor(() => expect(view.currentParams().get('contacted')).toBe('yes'));

    await waitFor(() =>
      expect(api.lastParams('/api/recall')).toEqual({
        page: 1,
        limit: 20,
        due_by: `${today.slice(0, 4)}-12-31`,
        type_id: 2,
        dentist_id: 2,
        scheduled: 'no',
        contacted: 'yes',
      }),
    );

    // Back to the next 30 days: the default leaves the URL.
    await choose(view, 'Due', 'Due in 30 days');
    await waitFor(() => expect(view.currentParams().get('due')).toBeNull());
  });

  it('Book opens New Appointment for the patient and the treatment, coming back here', async () => {
    api.onGet('/api/recall').reply(200, pageOf([MIA], 1));
    const view = renderScreen(<RecallPage />, { url: '/recall?due=overdue' });
    await view.user.click(await screen.findByRole('button', { name: 'Book: Mia Martin, Hygiene recall' }));
    expect(window.location.pathname).toBe('/appointments');
    const params = view.currentParams();
    expect(params.get('new')).toBe('1');
    expect(params.get('patient')).toBe('7');
    expect(params.get('treatment')).toBe('Regular Cleaning');
    expect(params.get('returnTo')).toBe('/recall?due=overdue');
  });

  it('Send reminder queues it and says by what; a refusal shows in the banner', async () => {
    api.onGet('/api/recall').reply(200, pageOf([MIA, TOM], 2));
    api.onPost('/api/recall/7/1/reminder').reply(200, {
      recall: { ...MIA, last_contact: { at: '2026-11-27T08:00:00Z', kind: 'reminder', note: '' } },
      queued: ['email', 'sms'],
    });
    api.onPost('/api/recall/8/2/reminder').reply(409, refusal(NO_RECALL_CHANNEL));
    const view = renderScreen(<RecallPage />, { url: '/recall' });

    await view.user.click(
      await screen.findByRole('button', { name: 'Send reminder: Mia Martin, Hygiene recall' }),
    );
    expect(await screen.findByText('Reminder queued by e-mail and SMS')).toBeInTheDocument();
    expect(api.sent('post', '/api/recall/7/1/reminder')).toHaveLength(1);

    await view.user.click(screen.getByRole('button', { name: 'Send reminder: Tom Baker, Checkup' }));
    // The page's red banner, with the server's words.
    const banner = (await screen.findByText(NO_RECALL_CHANNEL)).closest('[role="alert"]');
    expect(banner?.className).toMatch(/ant-alert-error/);
  });

  it('says which channels a reminder went by', () => {
    expect(reminderQueuedMessage(['email'])).toBe('Reminder queued by e-mail');
    expect(reminderQueuedMessage(['sms'])).toBe('Reminder queued by SMS');
    expect(reminderQueuedMessage(['sms', 'email'])).toBe('Reminder queued by e-mail and SMS');
  });

  it('Mark contacted sends the note', async () => {
    api.onGet('/api/recall').reply(200, pageOf([MIA], 1));
    api.onPost('/api/recall/7/1/contact').reply(200, MIA);
    const view = renderScreen(<RecallPage />, { url: '/recall' });
    await view.user.click(
      await screen.findByRole('button', { name: 'Mark contacted: Mia Martin, Hygiene recall' }),
    );
    const dialog = await findDialog('Mark contacted');
    await view.user.type(within(dialog).getByLabelText('Note (optional)'), 'Left a voicemail');
    await view.user.click(within(dialog).getByRole('button', { name: 'Mark contacted' }));
    expect(await screen.findByText('Marked as contacted')).toBeInTheDocument();
    expect(api.sent('post', '/api/recall/7/1/contact')[0]?.body).toEqual({ note: 'Left a voicemail' });
  });

  it('Snooze asks for a day after today and sends it with the version shown', async () => {
    const until = addDays(today, 14);
    api.onGet('/api/recall').reply(200, pageOf([MIA], 1));
    api.onPatch('/api/recall/7/1').reply(200, { ...MIA, snoozed_until: until, version: 4 });
    const view = renderScreen(<RecallPage />, { url: '/recall' });
    await view.user.click(await screen.findByRole('button', { name: 'Snooze: Mia Martin, Hygiene recall' }));
    const dialog = await findDialog('Snooze recall');
    const field = within(dialog).getByLabelText('Snooze until');
    expect(field).toHaveAttribute('min', dayAfter(today));

    // A date input takes a whole date at once.
    fireEvent.change(field, { target: { value: today } });
    await view.user.click(within(dialog).getByRole('button', { name: 'Snooze' }));
    expect(await within(dialog).findByText('Choose a day after today')).toBeInTheDocument();
    expect(api.sent('patch')).toHaveLength(0);

    fireEvent.change(field, { target: { value: until } });
    await view.user.click(within(dialog).getByRole('button', { name: 'Snooze' }));
    await waitFor(() => expect(api.sent('patch')).toHaveLength(1));
    const [sent] = api.sent('patch');
    expect(sent?.body).toEqual({ snoozed_until: until });
    expect(sent?.ifMatch).toBe('"3"');
    expect(await screen.findByText(/^Snoozed to /)).toBeInTheDocument();
  });
});
