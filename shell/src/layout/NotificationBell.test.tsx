import { createFakeApi, type FakeApi, refusal, renderScreen, staffMember } from '@dental/shared/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { NotificationBell } from './NotificationBell';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

function record(id: number, description: string, minutes: number) {
  return {
    id,
    action: 'create',
    entity: 'appointment',
    entity_id: String(id),
    user_name: 'Alex Admin',
    description,
    created_at: minutesAgo(minutes),
  };
}
const BOOKED = record(33, 'Alex Admin created appointment #33 (Zoe Hart)', 2);
const CONFIRMED = record(32, 'Riley Reception confirmed appointment #31', 20);
const ADDED = record(31, 'Alex Admin created patient #7 (Mia Martin)', 90);
const OLD = record(30, 'Alex Admin updated the practice settings', 60 * 30);
const ACTIVITY = { data: [BOOKED, CONFIRMED, ADDED, OLD] };

const RILEY = staffMember('receptionist', { id: 2, name: 'Riley Reception' });
const SEEN_KEY = 'dental_activity_seen_2';
const seen = (entry: { id: number; created_at: string }) =>
  JSON.stringify({ id: entry.id, createdAt: entry.created_at });

let api: FakeApi;
beforeEach(() => {
  localStorage.clear();
  api = createFakeApi();
});
afterEach(() => api.restore());

const renderBell = () => renderScreen(<NotificationBell />, { url: '/', staff: RILEY });

describe('NotificationBell (top bar)', () => {
  it("counts what this user has not seen yet, from the newest record they saw; another user's mark does not count", async () => {
    api.onGet('/api/dashboard/activity').reply(200, ACTIVITY);
    localStorage.setItem(SEEN_KEY, seen(ADDED));
    localStorage.setItem('dental_activity_seen_9', seen(BOOKED));
    renderBell();
    const bell = await screen.findByRole('button', { name: 'Notifications, 2 new' });
    expect(bell.closest('.ant-badge')?.querySelector('.ant-badge-count')).toHaveTextContent('2');
  });

  it('opening it lists the activity, marks the unseen ones New, and marks everything seen', async () => {
    api.onGet('/api/dashboard/activity').reply(200, ACTIVITY);
    localStorage.setItem(SEEN_KEY, seen(CONFIRMED));
    const view = renderBell();
    await view.user.click(await screen.findByRole('button', { name: 'Notifications, 1 new' }));

    const booked = await screen.findByRole('menuitem', { name: /created appointment #33/ });
    expect(within(booked).getByText('New')).toBeInTheDocument();
    expect(booked).toHaveTextContent('2 minutes ago');
    const confirmed = screen.getByRole('menuitem', { name: /confirmed appointment #31/ });
    expect(within(confirmed).queryByText('New')).not.toBeInTheDocument();
    expect(screen.getAllByText('New')).toHaveLength(1);

    await waitFor(() => expect(localStorage.getItem(SEEN_KEY)).toBe(seen(BOOKED)));
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeInTheDocument();
  });

  it('a new user sees every record as new; a later poll brings the badge back for what others did', async () => {
    api.onGet('/api/dashboard/activity').reply(200, ACTIVITY);
    const view = renderBell();
    await view.user.click(await screen.findByRole('button', { name: 'Notifications, 4 new' }));
    await waitFor(() => expect(localStorage.getItem(SEEN_KEY)).toBe(seen(BOOKED)));
    await view.user.keyboard('{Escape}');

    const cancelled = record(34, 'Sam Dentist cancelled appointment #20', 0);
    api.onGet('/api/dashboard/activity').reply(200, { data: [cancelled, ...ACTIVITY.data] });
    await view.queryClient.refetchQueries({ queryKey: ['dashboard', 'activity'] });
    expect(await screen.findByRole('button', { name: 'Notifications, 1 new' })).toBeInTheDocument();
    expect(api.lastParams('/api/dashboard/activity')).toEqual({ limit: 20 });
  });

  it('a failed read says why and offers Retry', async () => {
    api.onGet('/api/dashboard/activity').replyOnce(500, refusal('Failed to fetch recent activity'));
    api.onGet('/api/dashboard/activity').replyOnce(500, refusal('Failed to fetch recent activity'));
    api.onGet('/api/dashboard/activity').reply(200, ACTIVITY);
    const view = renderBell();
    await waitFor(() => expect(api.sent('get', '/api/dashboard/activity')).toHaveLength(1));
    await view.user.click(screen.getByRole('button', { name: 'Notifications' }));
    expect(await screen.findByText('Failed to fetch recent activity')).toBeInTheDocument();
    await view.user.click(screen.getByRole('menuitem', { name: 'Retry' }));
    await waitFor(() => expect(api.sent('get', '/api/dashboard/activity')).toHaveLength(3));
    expect(await screen.findByRole('button', { name: /Notifications, 4 new/ })).toBeInTheDocument();
  });
});
