import type { ClinicEvent } from '@dental/shared';
import type { LiveStatus } from '@dental/shared/kit';
import { changeMessage, createFakeSource } from './fakeSource';
import { createLiveStream } from './liveStream';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const APPOINTMENT = { resource: 'appointment', id: 12, action: 'updated', by: 3, desk: 'front-desk-2' };

function setUp(overrides: { token?: () => string | null; renewToken?: () => Promise<string | null> } = {}) {
  const source = createFakeSource();
  const changes: ClinicEvent[] = [];
  const statuses: LiveStatus[] = [];
  const resyncs: number[] = [];
  const ends: string[] = [];
  const renewToken = jest.fn(overrides.renewToken ?? (async () => 'fresh-token'));
  const stream = createLiveStream({
    url: '/api/events',
    open: source.open,
    token: overrides.token ?? (() => 'first-token'),
    renewToken,
    onChange: (event) => changes.push(event),
    onResync: () => resyncs.push(1),
    onEnd: (message) => ends.push(message),
    onStatus: (status) => statuses.push(status),
    retryMs: 10,
  });
  return { source, stream, changes, statuses, resyncs, ends, renewToken };
}

describe('the shell’s stream of the clinic’s changes', () => {
  it('opens with the bearer token, hands on each change once and says where it stands', async () => {
    const { source, stream, changes, statuses, resyncs } = setUp();
    const run = source.last();
    expect(run.url).toBe('/api/events');
    expect(run.headers).toEqual({ Authorization: 'Bearer first-token' });
    expect(stream.status()).toBe('connecting');

    await run.answer();
    expect(stream.status()).toBe('open');
    run.send({ retry: 2000 });
    run.send({ data: '' }); // the blank message after a keep-alive comment
    run.send(changeMessage({ event: 5, ...APPOINTMENT }));
    run.send(changeMessage({ event: 5, ...APPOINTMENT }));
    run.send({ event: 'change', id: '6', data: '{"not":"an event"}' });
    expect(changes).toEqual([{ event: 5, ...APPOINTMENT }]);

    run.drop();
    expect(stream.status()).toBe('reconnecting');
    expect(run.lastWait).toBe(2000); // the server's `retry:`
    await run.answer();
    // The library resumes from the last event; a replayed event is not handed on again.
    expect(run.headers['last-event-id']).toBe('6');
    run.send(changeMessage({ event: 5, ...APPOINTMENT }));
    run.send(changeMessage({ event: 7, ...APPOINTMENT, action: 'deleted' }));
    expect(changes.map((change) => change.event)).toEqual([5, 7]);
    expect(statuses).toEqual(['open', 'reconnecting', 'open']);
    // It resumed where it was: nothing to read again.
    expect(resyncs).toHaveLength(0);
    stream.close();
    expect(run.aborted).toBe(true);
  });

  it('after a 401 gets a fresh token as the API client does and resumes from the last event', async () => {
    // As the auth store does: the renewed token is the one it holds from then on.
    let held = 'first-token';
    const { source, renewToken, stream } = setUp({
      token: () => held,
      renewToken: async () => {
        held = 'fresh-token';
        return held;
      },
    });
    const first = source.last();
    await first.answer();
    first.send(changeMessage({ event: 41, ...APPOINTMENT }));
    first.drop();
    await first.answer(401);
    await settle();
    expect(renewToken).toHaveBeenCalledTimes(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = source.last();
    expect(second).not.toBe(first);
    expect(second.headers).toEqual({ Authorization: 'Bearer fresh-token', 'last-event-id': '41' });
    await second.answer();
    expect(stream.status()).toBe('open');
    stream.close();
  });

  it('stops when the token cannot be renewed (the session ended)', async () => {
    const { source, renewToken } = setUp({ renewToken: async () => null });
    await source.last().answer(401);
    await settle();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(renewToken).toHaveBeenCalledTimes(1);
    expect(source.runs).toHaveLength(1);
  });

  it('a resync reads everything again; after a drop with nothing to resume from it reads again too', async () => {
    const { source, resyncs, stream } = setUp();
    const run = source.last();
    await run.answer();
    run.send({ event: 'resync', data: '{}' });
    expect(resyncs).toHaveLength(1);
    run.drop();
    await run.answer();
    expect(resyncs).toHaveLength(2);
    stream.close();
  });

  it('an end closes the stream for good', async () => {
    const { source, ends } = setUp();
    const run = source.last();
    await run.answer();
    run.send({ event: 'end', data: JSON.stringify({ message: 'Your account was deactivated.' }) });
    expect(ends).toEqual(['Your account was deactivated.']);
    expect(run.aborted).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(source.runs).toHaveLength(1);
  });

  it('a server error while connecting is retried after a wait that grows with each failure, then opens', async () => {
    const { source, stream } = setUp();
    const run = source.last();
    await run.answer(503);
    expect(stream.status()).toBe('connecting');
    expect(run.lastWait).toBe(10);
    await run.answer(503);
    expect(run.lastWait).toBe(20);
    await run.answer(502);
    expect(run.lastWait).toBe(40);
    await run.answer();
    expect(stream.status()).toBe('open');
    stream.close();
  });
});
