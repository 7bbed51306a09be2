import { clearStoredSession, writeStoredSession } from '@dental/shared/session';
import { createFakeApi, type FakeApi, staffMember } from '@dental/shared/testing';
import { waitFor } from '@testing-library/react';
import { earlyRead, startEarlyReads } from './earlyReads';

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

  afterEach(() => {
    // Nothing started by one test may be taken by the next.
    for (const name of ['modules', 'activity', 'seen', 'stats', 'today'] as const)
      void earlyRead(name, async () => null);
    jest.restoreAllMocks();
    api.restore();
  });

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
    const ask = jest.fn(async () => ({ data: [] }));
    expect(await earlyRead('stats', ask)).toEqual({ data: STATS });
    expect(ask).not.toHaveBeenCalled();
    await earlyRead('stats', ask);
    expect(ask).toHaveBeenCalledTimes(1);
  });

  it('an early read that failed is asked again by the query', async () => {
    api.resetHandlers();
    api.onGet('/api/dashboard/stats').reply(500, { message: 'Database unavailable' });
    writeStoredSession('token-1', staffMember('admin'), true);
    startEarlyReads('/');
    const ask = jest.fn(async () => 'asked again');
    expect(await earlyRead('stats', ask)).toBe('asked again');
  });

  it('an answer sent for another session, or too old, is never used', async () => {
    writeStoredSession('token-1', staffMember('admin'), true);
    startEarlyReads('/');
    // Signed out, and someone else signed in in this tab.
    writeStoredSession('token-2', staffMember('receptionist'), true);
    expect(await earlyRead('stats', async () => 'theirs')).toBe('theirs');

    writeStoredSession('token-2', staffMember('receptionist'), true);
    startEarlyReads('/');
    const started = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(started + 10_001);
    expect(await earlyRead('today', async () => 'fresh')).toBe('fresh');
  });
});
