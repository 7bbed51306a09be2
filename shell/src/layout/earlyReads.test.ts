import { clearStoredSession, writeStoredSession } from '@dental/shared/session';
import { createFakeApi, type FakeApi, staffMember } from '@dental/shared/testing';
import { waitFor } from '@testing-library/react';
import { firstRead, startEarlyReads } from './earlyReads';

const STATS = [{ title: "Today's Appointments", value: 5 }];

describe('early reads: a signed-in page asks for its first data as it starts', () => {
  let api: FakeApi;

  beforeEach(() => {
    api = createFakeApi();
    api.onGet('/api/modules').reply(200, { data: [] });
    api.onGet('/api/dashboard/activity').reply(200, { data: [] });
    api.onGet('/api/dashboard/activity/seen').reply(200, { seen_id: 1 });
    api.onGet('/api/dashboard/stats').reply(200, { data: STATS });
    api.onGet('/api/dashboard/appointments/today').reply(200, { data: [] });
    clearStoredSession();
  });

  afterEach(async () => {
    // Nothing started by one test may be taken by the next.
    jest.restoreAllMocks();
    await Promise.allSettled(
      (['modules', 'activity', 'seen', 'stats', 'today'] as const).map((name) => firstRead(name, '')),
    );
    api.restore();
  });

  const statsAsked = () => api.sent('get', '/api/dashboard/stats').length;

  it('without a stored session nothing is sent: the page is the sign-in', () => {
    startEarlyReads('/');
    expect(api.sent()).toEqual([]);
  });

  it("on the dashboard it sends the layout's, the bell's and the dashboard's reads at once", async () => {
    writeStoredSession('token-1', staffMember('admin'), true);
    startEarlyReads('/');
    await waitFor(() => expect(api.sent('get')).toHaveLength(5));
    expect(api.sent('get').map((request) => request.url)).toEqual([
      '/api/modules',
      '/api/dashboard/activity',
      '/api/dashboard/activity/seen',
      '/api/dashboard/stats',
      '/api/dashboard/appointments/today',
    ]);
    expect(api.lastParams('/api/dashboard/activity')).toEqual({ limit: 20 });
  });

  it("on another page it leaves the dashboard's figures alone", async () => {
    writeStoredSession('token-1', staffMember('admin'), true);
    startEarlyReads('/patients');
    await waitFor(() => expect(api.sent('get')).toHaveLength(3));
    expect(api.sent('get').map((request) => request.url)).not.toContain('/api/dashboard/stats');
  });

  it('the first query takes the early answer; the next asks the server itself', async () => {
    writeStoredSession('token-1', staffMember('admin'), true);
    startEarlyReads('/');
    expect(await firstRead('stats', 'The figures could not be read')).toEqual({ data: STATS });
    expect(statsAsked()).toBe(1);
    await firstRead('stats', 'The figures could not be read');
    expect(statsAsked()).toBe(2);
  });

  it('an early read that failed is asked again by the query', async () => {
    api.resetHandlers();
    api.onGet('/api/dashboard/stats').replyOnce(500, { message: 'Database unavailable' });
    api.onGet('/api/dashboard/stats').reply(200, { data: STATS });
    api.onGet(/.*/).reply(200, { data: [] });
    writeStoredSession('token-1', staffMember('admin'), true);
    startEarlyReads('/');
    expect(await firstRead('stats', 'The figures could not be read')).toEqual({ data: STATS });
    expect(statsAsked()).toBe(2);
  });

  it('an answer sent for another session, or too old, is never used', async () => {
    writeStoredSession('token-1', staffMember('admin'), true);
    startEarlyReads('/');
    // Signed out, and someone else signed in in this tab.
    writeStoredSession('token-2', staffMember('receptionist'), true);
    await waitFor(() => expect(statsAsked()).toBe(1));
    await firstRead('stats', 'The figures could not be read');
    // Asked again, with the new session's token.
    expect(statsAsked()).toBe(2);

    writeStoredSession('token-2', staffMember('receptionist'), true);
    startEarlyReads('/');
    const started = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(started + 10_001);
    const todayAsked = () => api.sent('get', '/api/dashboard/appointments/today').length;
    await waitFor(() => expect(todayAsked()).toBe(2));
    await firstRead('today', 'Today could not be read');
    expect(todayAsked()).toBe(3);
  });
});
