import { type LiveResource, THIS_DESK, useAuthStore } from '@dental/shared';
import { follows, KitProvider, useQuery } from '@dental/shared/kit';
import { createFakeApi, type FakeApi, staffMember } from '@dental/shared/testing';
import { QueryClient } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { ANNOUNCE_WINDOW_MS } from './announcements';
import { changeMessage, createFakeSource } from './fakeSource';
import { LiveDesk } from './LiveDesk';
import { LiveStatusNote } from './LiveStatusNote';

const RILEY = staffMember('receptionist', { id: 2, name: 'Riley Reception' });

/** How many times each read was made. */
let reads: Record<string, number>;
let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
  // The modules switched on: the shell's own state, read again when they change.
  api.onGet('/api/modules').reply(200, { data: [] });
});

function Read({ name, resources }: { name: string; resources: LiveResource[] }) {
  const read = useQuery({
    queryKey: [name],
    queryFn: async () => {
      reads[name] = (reads[name] ?? 0) + 1;
      return reads[name];
    },
    meta: follows(...resources),
  });
  return (
    <p>
      {name}: {read.data ?? '…'}
    </p>
  );
}

function setUp() {
  reads = {};
  useAuthStore.setState({ status: 'authenticated', user: RILEY, token: 'riley-token', remember: false });
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  });
  const source = createFakeSource();
  const view = render(
    <MemoryRouter>
      <KitProvider client={client}>
        <LiveDesk client={client} open={source.open}>
          <LiveStatusNote />
          <Read name="appointments" resources={['appointment', 'patient']} />
          <Read name="patients" resources={['patient']} />
          <Read name="seen" resources={['activity_seen']} />
        </LiveDesk>
      </KitProvider>
    </MemoryRouter>,
  );
  return { client, source, view };
}

const shown = async (name: string, count: number) =>
  expect(await screen.findByText(`${name}: ${count}`)).toBeInTheDocument();

afterEach(() => {
  api.restore();
  jest.useRealTimers();
  act(() => useAuthStore.setState({ status: 'anonymous', user: null, token: null }));
});

describe('LiveDesk (the shell’s one stream)', () => {
  it('turns each change into the invalidations of the reads that follow it, once per event', async () => {
    const { client, source } = setUp();
    await shown('appointments', 1);
    await shown('patients', 1);
    await shown('seen', 1);
    // A read no screen shows now: made stale, read when next shown.
    await client.prefetchQuery({ queryKey: ['dentists'], queryFn: () => 'read', meta: follows('dentist') });

    const run = source.last();
    expect(run.headers.Authorization).toBe('Bearer riley-token');
    await act(() => run.answer());
    act(() =>
      run.send(changeMessage({ event: 1, resource: 'appointment', id: 4, action: 'created', by: 3 })),
    );
    await shown('appointments', 2);
    expect(reads.patients).toBe(1);

    // The same event again (a replay after a reconnect) shows nothing twice.
    act(() =>
      run.send(changeMessage({ event: 1, resource: 'appointment', id: 4, action: 'created', by: 3 })),
    );
    act(() => run.send(changeMessage({ event: 2, resource: 'patient', id: 7, action: 'updated', by: 3 })));
    await shown('patients', 2);
    await shown('appointments', 3);

    act(() => run.send(changeMessage({ event: 3, resource: 'dentist', id: 1, action: 'updated', by: 3 })));
    expect(client.getQueryState(['dentists'])?.isInvalidated).toBe(true);
    expect(client.getQueryState(['appointments'])?.isInvalidated).toBe(false);
    expect(reads).toEqual({ appointments: 3, patients: 2, seen: 1 });
  });

  it("follows this user's bell marker only, and reads everything again on a resync", async () => {
    const { source } = setUp();
    await shown('seen', 1);
    const run = source.last();
    await act(() => run.answer());
    act(() =>
      run.send(changeMessage({ event: 10, resource: 'activity_seen', id: 9, action: 'updated', by: 9 })),
    );
    act(() =>
      run.send(changeMessage({ event: 11, resource: 'activity_seen', id: 2, action: 'updated', by: 2 })),
    );
    await shown('seen', 2);

    act(() => run.send({ event: 'resync', data: '{}' }));
    await shown('appointments', 2);
    await shown('patients', 2);
    await shown('seen', 3);
    await waitFor(() => expect(api.sent('get', '/api/modules')).toHaveLength(1));

    // Another admin switched a module: the app's list of modules is read again, no query follows it.
    act(() => run.send(changeMessage({ event: 12, resource: 'module', id: null, action: 'updated', by: 1 })));
    await waitFor(() => expect(api.sent('get', '/api/modules')).toHaveLength(2));
    expect(reads).toEqual({ appointments: 2, patients: 2, seen: 3 });
  });

  it('says "Reconnecting…" in the top bar while the stream is down, and nothing once it is open', async () => {
    const { source } = setUp();
    const run = source.last();
    await act(() => run.answer());
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('');
    act(() => run.drop());
    expect(status).toHaveTextContent('Reconnecting…');
    await act(() => run.answer());
    expect(status).toHaveTextContent('');
  });

  it('reads out other desks’ changes, at most one sentence in five seconds, never this user’s own', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const { source } = setUp();
    const run = source.last();
    await act(() => run.answer());
    const region = screen.getByTestId('live-desk-announcer');
    expect(region).toHaveAttribute('aria-live', 'polite');

    act(() =>
      run.send(changeMessage({ event: 1, resource: 'appointment', id: 4, action: 'updated', by: 2 })),
    );
    expect(region).toHaveTextContent('');
    act(() =>
      run.send(changeMessage({ event: 2, resource: 'appointment', id: 4, action: 'updated', by: 3 })),
    );
    expect(region).toHaveTextContent('An appointment was updated at another desk.');

    act(() => run.send(changeMessage({ event: 3, resource: 'patient', id: 7, action: 'created', by: 3 })));
    act(() => run.send(changeMessage({ event: 4, resource: 'dentist', id: 1, action: 'deleted', by: null })));
    act(() =>
      run.send(changeMessage({ event: 5, resource: 'settings', id: null, action: 'updated', by: 3 })),
    );
    expect(region).toHaveTextContent('An appointment was updated at another desk.');
    act(() => jest.advanceTimersByTime(ANNOUNCE_WINDOW_MS - 1));
    expect(region).toHaveTextContent('An appointment was updated at another desk.');
    act(() => jest.advanceTimersByTime(1));
    expect(region).toHaveTextContent('3 changes at other desks.');

    act(() => jest.advanceTimersByTime(ANNOUNCE_WINDOW_MS));
    act(() => run.send(changeMessage({ event: 6, resource: 'patient', id: 7, action: 'deleted', by: 3 })));
    expect(region).toHaveTextContent('A patient was deleted at another desk.');
  });

  it("reads out a change from another desk of this very account, never this desk's own", async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const { source } = setUp();
    const run = source.last();
    await act(() => run.answer());
    const region = screen.getByTestId('live-desk-announcer');

    // This tab's own write, as the server tells it back: not news here.
    act(() =>
      run.send(
        changeMessage({ event: 1, resource: 'patient', id: 7, action: 'updated', by: 2, desk: THIS_DESK }),
      ),
    );
    expect(region).toHaveTextContent('');
    // The same account signed in at the front desk's other computer.
    act(() =>
      run.send(
        changeMessage({
          event: 2,
          resource: 'patient',
          id: 7,
          action: 'deleted',
          by: 2,
          desk: 'other-desk-0001',
        }),
      ),
    );
    expect(region).toHaveTextContent('A patient was deleted at another desk.');
  });

  it('closes the stream on sign-out', async () => {
    const { source } = setUp();
    const run = source.last();
    await act(() => run.answer());
    act(() => useAuthStore.setState({ status: 'anonymous', user: null, token: null }));
    await waitFor(() => expect(run.aborted).toBe(true));
    expect(source.runs).toHaveLength(1);
  });
});
