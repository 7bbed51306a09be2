import { ACTIVITY_SEEN_URL } from '@dental/shared';
import { createFakeApi, type FakeApi, refusal, renderScreen, staffMember } from '@dental/shared/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { invalidateForChange } from '../live/invalidations';
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
/** The server keeps each user's marker: the newest record (audit id) they have seen. */
const seen = (entry: { id: number }) => ({ seen_id: entry.id });

let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
  // The server never moves the marker back, and answers where it is.
  api.onPut(ACTIVITY_SEEN_URL).reply((config) => [200, JSON.parse(config.data as string)]);
});
afterEach(() => api.restore());

const renderBell = () => renderScreen(<NotificationBell />, { url: '/', staff: RILEY });

describe('NotificationBell (top bar)', () => {
  it("counts what this user has not seen yet, from the newest record they saw (the server's marker)", async () => {
    api.onGet('/api/dashboard/activity').reply(200, ACTIVITY);
    api.onGet(ACTIVITY_SEEN_URL).reply(200, seen(ADDED));
    renderBell();
    const bell = await screen.findByRole('button', { name: 'Notifications, 2 new' });
    expect(bell.closest('.ant-badge')?.querySelector('.ant-badge-count')).toHaveTextContent('2');
    expect(api.sent('put', ACTIVITY_SEEN_URL)).toHaveLength(0);
  });

  it('counts nothing before the marker is read, and moves nothing when it cannot be', async () => {
    api.onGet('/api/dashboard/activity').reply(200, ACTIVITY);
    api.onGet(ACTIVITY_SEEN_URL).reply(500, refusal('Failed to fetch recent activity'));
    const view = renderBell();
    await waitFor(() => expect(api.sent('get', ACTIVITY_SEEN_URL)).toHaveLength(1));
    await view.user.click(screen.getByRole('button', { name: 'Notifications' }));
    expect(await screen.findByRole('menuitem', { name: /created appointment #33/ })).toBeInTheDocument();
    expect(screen.queryByText('New')).not.toBeInTheDocument();
    expect(api.sent('put', ACTIVITY_SEEN_URL)).toHaveLength(0);
  });

  it('opening it lists the activity, marks the unseen ones New, and marks everything seen', async () => {
    api.onGet('/api/dashboard/activity').reply(200, ACTIVITY);
    api.onGet(ACTIVITY_SEEN_URL).reply(200, seen(CONFIRMED));
    const view = renderBell();
    await view.user.click(await screen.findByRole('button', { name: 'Notifications, 1 new' }));

    const booked = await screen.findByRole('menuitem', { name: /created appointment #33/ });
    expect(within(booked).getByText('New')).toBeInTheDocument();
    expect(booked).toHaveTextContent('2 minutes ago');
    const confirmed = screen.getByRole('menuitem', { name: /confirmed appointment #31/ });
    expect(within(confirmed).queryByText('New')).not.toBeInTheDocument();
    expect(screen.getAllByText('New')).toHaveLength(1);

    await waitFor(() =>
      expect(api.sent('put', ACTIVITY_SEEN_URL).map((put) => put.body)).toEqual([seen(BOOKED)]),
    );
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeInTheDocument();
  });

  it("a new user sees every record as new; another desk's change brings the badge back", async () => {
    api.onGet('/api/dashboard/activity').reply(200, ACTIVITY);
    api.onGet(ACTIVITY_SEEN_URL).reply(200, { seen_id: 0 });
    const view = renderBell();
    await view.user.click(await screen.findByRole('button', { name: 'Notifications, 4 new' }));
    await waitFor(() =>
      expect(api.sent('put', ACTIVITY_SEEN_URL).map((put) => put.body)).toEqual([seen(BOOKED)]),
    );
    await view.user.keyboard('{Escape}');

    // Another desk cancels a visit: the shell's stream turns the change into invalidations.
    const cancelled = record(34, 'Sam Dentist cancelled appointment #20', 0);
    api.onGet('/api/dashboard/activity').reply(200, { data: [cancelled, ...ACTIVITY.data] });
    invalidateForChange(
      view.queryClient,
      { event: 7, resource: 'appointment', id: 20, action: 'updated', by: 3, desk: null },
      RILEY.id,
    );
    expect(await screen.findByRole('button', { name: 'Notifications, 1 new' })).toBeInTheDocument();
    expect(api.lastParams('/api/dashboard/activity')).toEqual({ limit: 20 });
  });

  it("follows the marker when another browser of this user opens the bell, not when another user's moves", async () => {
    api.onGet('/api/dashboard/activity').reply(200, ACTIVITY);
    api.onGet(ACTIVITY_SEEN_URL).replyOnce(200, seen(ADDED));
    const view = renderBell();
    expect(await screen.findByRole('button', { name: 'Notifications, 2 new' })).toBeInTheDocument();

    // Someone else's marker moved: nothing is read again here.
    invalidateForChange(
      view.queryClient,
      { event: 8, resource: 'activity_seen', id: 9, action: 'updated', by: 9, desk: null },
      RILEY.id,
    );
    // This user's other browser marked everything seen.
    api.onGet(ACTIVITY_SEEN_URL).reply(200, seen(BOOKED));
    invalidateForChange(
      view.queryClient,
      { event: 9, resource: 'activity_seen', id: 2, action: 'updated', by: 2, desk: null },
      RILEY.id,
    );
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect(api.sent('get', ACTIVITY_SEEN_URL)).toHaveLength(2);
    expect(api.sent('put', ACTIVITY_SEEN_URL)).toHaveLength(0);
  });

  it('a failed read says why and offers Retry', async () => {
    api.onGet('/api/dashboard/activity').replyOnce(500, refusal('Failed to fetch recent activity'));
    api.onGet('/api/dashboard/activity').replyOnce(500, refusal('Failed to fetch recent activity'));
    api.onGet('/api/dashboard/activity').reply(200, ACTIVITY);
    api.onGet(ACTIVITY_SEEN_URL).reply(200, { seen_id: 0 });
    const view = renderBell();
    await waitFor(() => expect(api.sent('get', '/api/dashboard/activity')).toHaveLength(1));
    await view.user.click(screen.getByRole('button', { name: 'Notifications' }));
    expect(await screen.findByText('Failed to fetch recent activity')).toBeInTheDocument();
    await view.user.click(screen.getByRole('menuitem', { name: 'Retry' }));
    await waitFor(() => expect(api.sent('get', '/api/dashboard/activity')).toHaveLength(3));
    expect(await screen.findByRole('button', { name: /Notifications, 4 new/ })).toBeInTheDocument();
  });
});
