import type { ClinicEvent } from '@dental/shared/domain';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type EventStream, openEventStream, type StreamEvent } from '../../test/eventStream';
import { authHeader, createSecondApp, createTestApp, login, type SignedIn } from '../../test/testApp';

const isChange =
  (resource: ClinicEvent['resource'], action?: ClinicEvent['action'], id?: number) =>
  (event: StreamEvent) => {
    if (event.event !== 'change') return false;
    const data = event.data as ClinicEvent;
    return (
      data.resource === resource &&
      (action === undefined || data.action === action) &&
      (id === undefined || data.id === id)
    );
  };

const patientBody = (number: number) => ({
  name: `Stream Patient ${String.fromCharCode(64 + (number % 26) + 1)}`,
  email: `stream.${number}@example.com`,
  phone: `555-01${String(number).padStart(2, '0')}`,
  dateOfBirth: '1990-04-12',
});

/** The desk this suite's writes say they come from (X-Desk). */
const SUITE_DESK = 'events-suite-desk';

/** The live desk's stream (GET /api/events): every committed change of the caller's clinic, at once. */
describe('GET /api/events', () => {
  let app: FastifyInstance;
  let admin: SignedIn;
  let harbor: SignedIn;
  const open: EventStream[] = [];
  const stream = async (token: string | null, lastEventId?: string) => {
    const opened = await openEventStream(app, token, lastEventId);
    open.push(opened);
    return opened;
  };
  const send = (
    signedIn: SignedIn,
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ) =>
    app.inject({
      method,
      url,
      headers: { ...authHeader(signedIn.token), 'x-desk': SUITE_DESK },
      ...(payload ? { payload } : {}),
    });
  let patientNumber = 0;
  const newPatient = async (signedIn: SignedIn) => {
    patientNumber += 1;
    const response = await send(signedIn, 'POST', '/api/patients', patientBody(patientNumber));
    expect(response.statusCode).toBe(201);
    return (response.json() as { id: number }).id;
  };

  beforeAll(async () => {
    app = await createTestApp();
    admin = await login(app, 'admin', 'admin123');
    harbor = await login(app, 'harbor.admin', 'harbor123');
  });
  afterEach(() => {
    for (const opened of open.splice(0)) opened.close();
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers 401 without a token or with a bad one', async () => {
    expect((await stream(null)).status).toBe(401);
    expect((await stream('not-a-token')).status).toBe(401);
  });

  it("sends each committed change of the caller's clinic, naming resource, row, action and who", async () => {
    const listening = await stream(admin.token);
    expect(listening.status).toBe(200);
    const id = await newPatient(admin);
    const created = await listening.next(isChange('patient', 'created', id));
    expect(created.data).toEqual({
      event: Number(created.id),
      resource: 'patient',
      id,
      action: 'created',
      by: admin.user.id,
      desk: SUITE_DESK,
    });
    expect(
      (await send(admin, 'PUT', `/api/patients/${id}`, { ...patientBody(99), name: 'Stream Renamed' }))
        .statusCode,
    ).toBe(200);
    await listening.next(isChange('patient', 'updated', id));
    expect((await send(admin, 'DELETE', `/api/patients/${id}`)).statusCode).toBe(200);
    await listening.next(isChange('patient', 'deleted', id));
    // The events' ids increase in the order they were sent.
    const ids = listening.events.map((event) => Number(event.id));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });

  it('names the desk (X-Desk) each change was made at, so one account signed in twice hears the other', async () => {
    const listening = await stream(admin.token);
    const atDesk = (desk: string, method: 'POST' | 'PUT', url: string, payload: object) =>
      app.inject({ method, url, headers: { ...authHeader(admin.token), 'x-desk': desk }, payload });
    patientNumber += 1;
    const created = await atDesk('front-desk-0001', 'POST', '/api/patients', patientBody(patientNumber));
    expect(created.statusCode).toBe(201);
    const id = (created.json() as { id: number }).id;
    expect((await listening.next(isChange('patient', 'created', id))).data).toMatchObject({
      by: admin.user.id,
      desk: 'front-desk-0001',
    });
    // Not a desk's name: the write goes on as any other, naming no desk.
    const renamed = await atDesk('<script>', 'PUT', `/api/patients/${id}`, patientBody(patientNumber));
    expect(renamed.statusCode).toBe(200);
    expect((await listening.next(isChange('patient', 'updated', id))).data).toMatchObject({ desk: null });
    // The audit record keeps the desk; its chain is unchanged by it.
    const db = app.database.db;
    const recorded = await db.execute<{ desk: string | null }>(
      sql`select desk from audit_log where entity = 'patient' and entity_id = ${String(id)} order by id`,
    );
    expect(recorded.rows.map((row) => row.desk)).toEqual(['front-desk-0001', null]);
  });

  it('announces every kind of write, naming its desk: dentists, users, settings', async () => {
    const listening = await stream(admin.token);
    const dentist = await send(admin, 'POST', '/api/dentists', {
      name: 'Dr. Stream Test',
      email: 'stream.test@example.com',
      phone: '555-0142',
      specialty: 'General Dentistry',
      license: 'DDS-STREAM-1',
      years_of_experience: 3,
    });
    expect(dentist.statusCode).toBe(201);
    const dentistAdded = await listening.next(
      isChange('dentist', 'created', (dentist.json() as { id: number }).id),
    );
    expect(dentistAdded.data).toMatchObject({ desk: SUITE_DESK });
    const receptionist = await login(app, 'receptionist', 'receptionist123');
    const renamed = await send(admin, 'PUT', `/api/users/${receptionist.user.id}`, {
      name: 'Riley Chen-Stream',
      username: receptionist.user.username,
      email: receptionist.user.email,
      role: receptionist.user.role,
    });
    expect(renamed.statusCode).toBe(200);
    expect((await listening.next(isChange('user', 'updated', receptionist.user.id))).data).toMatchObject({
      desk: SUITE_DESK,
    });
    const settings = await app.inject({
      method: 'GET',
      url: '/api/settings',
      headers: authHeader(admin.token),
    });
    const saved = await send(admin, 'PUT', '/api/settings', settings.json() as object);
    expect(saved.statusCode).toBe(200);
    const settingsChanged = await listening.next(isChange('settings', 'updated'));
    expect(settingsChanged.data).toMatchObject({ id: null, desk: SUITE_DESK });
    // The sender changes reminders without an audit record: the outbox announces itself.
    await app.database.db.execute(
      sql`update outbox set updated_at = now() where clinic_id = ${admin.user.clinic_id}`,
    );
    await listening.next(isChange('outbox', 'updated'));
  });

  it('announces nothing for a refused write, and never another clinic’s changes', async () => {
    const ours = await stream(admin.token);
    const theirs = await stream(harbor.token);
    const refused = await send(admin, 'POST', '/api/patients', { name: '', phone: '' });
    expect(refused.statusCode).toBe(400);
    const missing = await send(admin, 'DELETE', '/api/patients/999999');
    expect(missing.statusCode).toBe(404);
    const id = await newPatient(admin);
    await ours.next(isChange('patient', 'created', id));
    // The first change the stream heard is the one that was made.
    expect(ours.events.filter(isChange('patient'))).toHaveLength(1);
    const harborPatient = await newPatient(harbor);
    await theirs.next(isChange('patient', 'created', harborPatient));
    expect(theirs.events.some(isChange('patient', 'created', id))).toBe(false);
    expect(ours.events.some(isChange('patient', 'created', harborPatient))).toBe(false);
  });

  it('resumes after the last event seen (Last-Event-ID), and asks for a resync when it cannot', async () => {
    const first = await stream(admin.token);
    const seen = await newPatient(admin);
    const last = await first.next(isChange('patient', 'created', seen));
    first.close();
    const missedA = await newPatient(admin);
    const missedB = await newPatient(admin);
    const resumed = await stream(admin.token, last.id ?? '');
    await resumed.next(isChange('patient', 'created', missedB));
    const replayed = resumed.events
      .filter(isChange('patient'))
      .map((event) => (event.data as ClinicEvent).id);
    expect(replayed.slice(0, 2)).toEqual([missedA, missedB]);
    expect(replayed).not.toContain(seen);
    const unknown = await stream(admin.token, '1');
    await unknown.next((event) => event.event === 'resync');
  });

  it('ends the stream of a deactivated user, and of a session signed out, within seconds', async () => {
    const receptionist = await login(app, 'receptionist', 'receptionist123');
    const deactivated = await stream(receptionist.token);
    expect(deactivated.status).toBe(200);
    const off = await send(admin, 'PATCH', `/api/users/${receptionist.user.id}/status`, { isActive: false });
    expect(off.statusCode).toBe(200);
    const ended = await deactivated.next((event) => event.event === 'end', 8_000);
    expect(ended.data).toEqual({ message: 'Authentication required' });
    await deactivated.ended;
    expect(
      (await send(admin, 'PATCH', `/api/users/${receptionist.user.id}/status`, { isActive: true }))
        .statusCode,
    ).toBe(200);

    // Signing out ends the session's stream: the refresh cookie is revoked.
    const signIn = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { username: 'dentist', password: 'dentist123' },
    });
    const cookie = signIn.cookies.find((each) => each.name === 'dental_refresh');
    const dentistStream = await stream((signIn.json() as { access_token: string }).access_token);
    expect(dentistStream.status).toBe(200);
    const out = await app.inject({
      method: 'POST',
      url: '/auth/logout',
      cookies: { dental_refresh: cookie?.value ?? '' },
    });
    expect(out.statusCode).toBe(200);
    const endedOut = await dentistStream.next((event) => event.event === 'end', 8_000);
    expect(endedOut.data).toEqual({ message: 'You were signed out. Please sign in again.' });
  });

  it("keeps each user's bell marker on the server, never moving back, and tells their other browsers", async () => {
    const listening = await stream(admin.token);
    const read = await app.inject({
      method: 'GET',
      url: '/api/dashboard/activity/seen',
      headers: authHeader(admin.token),
    });
    expect(read.statusCode).toBe(200);
    const before = (read.json() as { seen_id: number }).seen_id;
    const moved = await send(admin, 'PUT', '/api/dashboard/activity/seen', { seen_id: before + 5 });
    expect(moved.json()).toEqual({ seen_id: before + 5 });
    await listening.next(isChange('activity_seen', 'updated', admin.user.id));
    const back = await send(admin, 'PUT', '/api/dashboard/activity/seen', { seen_id: before + 1 });
    expect(back.json()).toEqual({ seen_id: before + 5 });
    const bad = await send(admin, 'PUT', '/api/dashboard/activity/seen', { seen_id: -1 });
    expect(bad.statusCode).toBe(400);
  });

  it('reaches a stream held on another API process within a second (PostgreSQL)', async () => {
    const second = await createSecondApp(app);
    if (!second) return; // PGlite: one process owns the database.
    try {
      // Each test app signs its own tokens.
      const there = await login(second, 'admin', 'admin123');
      const elsewhere = await openEventStream(second, there.token);
      open.push(elsewhere);
      expect(elsewhere.status).toBe(200);
      const started = Date.now();
      const id = await newPatient(admin);
      await elsewhere.next(isChange('patient', 'created', id), 1_000);
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      for (const opened of open.splice(0)) opened.close();
      await second.close();
    }
  });
});
