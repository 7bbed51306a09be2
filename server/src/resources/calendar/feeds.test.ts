import type { FastifyInstance } from 'fastify';
import ICAL from 'ical.js';
import { addDays, clinicToday, isoWeekday } from '../../db/clinicTime';
import { addStaff, authHeader, createTestApp, login } from '../../test/testApp';

/** Each dentist's calendar feed, read back by a kept iCalendar parser (ical.js). */
describe('calendar feeds', () => {
  let app: FastifyInstance;
  let adminToken: string;
  let dentistToken: string;
  let receptionistToken: string;
  let sarahId: number;
  let michaelId: number;
  let today: string;

  const send = (
    token: string | null,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ) => app.inject({ method, url, headers: token ? authHeader(token) : {}, ...(payload ? { payload } : {}) });
  const feedPath = (url: string) => new URL(url).pathname;
  const readFeed = async (url: string, host = 'localhost:80') => {
    const response = await app.inject({ method: 'GET', url: feedPath(url), headers: { host } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const calendar = new ICAL.Component(ICAL.parse(response.body));
    return {
      body: response.body,
      events: calendar.getAllSubcomponents('vevent').map((each) => new ICAL.Event(each)),
      calendar,
    };
  };
  /**
   * A weekday `days` or more from today: past the demo clinic's month of visits (no visit of it in
   * the way) and on the demo dentist's working days.
   */
  const weekdayFrom = (days: number) => {
    let date = addDays(today, days);
    while (isoWeekday(date) > 5) date = addDays(date, 1);
    return date;
  };
  const book = async (date: string, time: string, patient: string) => {
    const response = await send(adminToken, 'POST', '/api/appointments', {
      patient,
      phone: '555-0142',
      dentist_id: sarahId,
      date,
      time,
      treatment: 'Root Canal',
      notes: 'Allergic to latex',
    });
    expect(response.statusCode).toBe(201);
    return response.json() as { id: number; date: string; time: string; chair_name: string };
  };

  beforeAll(async () => {
    app = await createTestApp();
    adminToken = (await login(app, 'admin', 'admin123')).token;
    const dentist = await login(app, 'dentist', 'dentist123');
    dentistToken = dentist.token;
    sarahId = dentist.user.dentist_id ?? 0;
    receptionistToken = (await login(app, 'receptionist', 'receptionist123')).token;
    const dentists = (await send(adminToken, 'GET', '/api/dentists?limit=100')).json().data as Array<{
      id: number;
    }>;
    michaelId = dentists.find((each) => each.id !== sarahId)?.id ?? 0;
    today = await clinicToday(app.database.db, dentist.user.clinic_id);
  });

  afterAll(async () => {
    await app?.close();
  }, 60_000);

  it('a dentist gets their own feed URL; an admin any dentist’s; a receptionist none', async () => {
    expect((await send(dentistToken, 'GET', `/api/calendar/feeds/${sarahId}`)).json()).toMatchObject({
      dentist_id: sarahId,
      active: false,
      created_at: null,
    });
    const own = await send(dentistToken, 'POST', `/api/calendar/feeds/${sarahId}`);
    expect(own.statusCode).toBe(201);
    expect(own.json().url).toMatch(/^http:\/\/[^/]+\/feeds\/[A-Za-z0-9_-]{32}\.ics$/);
    expect((await send(dentistToken, 'GET', `/api/calendar/feeds/${sarahId}`)).json().active).toBe(true);
    const other = await send(dentistToken, 'POST', `/api/calendar/feeds/${michaelId}`);
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe('You can only manage your own calendar feed');
    expect((await send(receptionistToken, 'GET', `/api/calendar/feeds/${sarahId}`)).statusCode).toBe(403);
    expect((await send(adminToken, 'POST', `/api/calendar/feeds/${michaelId}`)).statusCode).toBe(201);
    expect((await send(adminToken, 'POST', '/api/calendar/feeds/999999')).statusCode).toBe(404);
    expect((await send(null, 'POST', `/api/calendar/feeds/${sarahId}`)).statusCode).toBe(401);
  });

  it('holds the dentist’s visits of the window in the clinic’s zone, with no phone, e-mail or notes', async () => {
    const saved = await send(adminToken, 'PUT', '/api/settings', { timeZone: 'Europe/Berlin' });
    expect(saved.statusCode).toBe(200);
    const visit = await book(weekdayFrom(40), '10:30', 'Feed Patient');
    const farAway = await book(weekdayFrom(200), '09:00', 'Too Far');
    const url = (await send(adminToken, 'POST', `/api/calendar/feeds/${sarahId}`)).json().url as string;
    const { body, events, calendar } = await readFeed(url);

    const event = events.find((each) => each.uid.includes(`-${visit.id}@`));
    expect(event).toBeDefined();
    expect(event?.summary).toBe('Root Canal: Feed Patient');
    // The chair the visit holds is where the dentist finds the patient.
    expect(event?.location).toBe(visit.chair_name);
    expect(visit.chair_name).toMatch(/^Chair \d+$/);
    expect(event?.component.getFirstProperty('dtstart')?.getParameter('tzid')).toBe('Europe/Berlin');
    expect(event?.startDate.toString()).toBe(`${visit.date}T10:30:00`);
    // Its end is its own: a Root Canal's 90 minutes.
    expect(event?.endDate.toString()).toBe(`${visit.date}T12:00:00`);
    expect(calendar.getFirstSubcomponent('vtimezone')?.getFirstPropertyValue('tzid')).toBe('Europe/Berlin');
    expect(events.some((each) => each.uid.includes(`-${farAway.id}@`))).toBe(false);
    expect(body).not.toMatch(/555-0142|latex|@brightsmile|Allergic/);
    for (const each of events) {
      expect(each.startDate.toString() >= addDays(today, -30)).toBe(true);
    }
    await send(adminToken, 'PUT', '/api/settings', { timeZone: 'UTC' });
  });

  it('keeps each visit’s UID, raises its SEQUENCE on every change, and marks a cancelled visit', async () => {
    const visit = await book(weekdayFrom(50), '14:00', 'Sequence Patient');
    const url = (await send(adminToken, 'POST', `/api/calendar/feeds/${sarahId}`)).json().url as string;
    const find = async () => (await readFeed(url)).events.find((each) => each.uid.includes(`-${visit.id}@`));
    const first = await find();
    expect(first?.sequence).toBe(0);
    // Read by another name (an address, a proxy), the feed names its events the same.
    const elsewhere = (await readFeed(url, '192.0.2.7:8080')).events.find((each) =>
      each.uid.includes(`-${visit.id}@`),
    );
    expect(elsewhere?.uid).toBe(first?.uid);

    const moved = await send(adminToken, 'PUT', `/api/appointments/${visit.id}`, {
      patient: 'Sequence Patient',
      phone: '555-0142',
      dentist_id: sarahId,
      date: weekdayFrom(51),
      time: '15:00',
      treatment: 'Root Canal',
    });
    expect(moved.statusCode).toBe(200);
    const second = await find();
    expect(second?.uid).toBe(first?.uid);
    expect(second?.sequence).toBe(1);
    // The clinic keeps UTC here: the time is written in UTC.
    expect(second?.component.getFirstProperty('dtstart')?.toICALString()).toBe(
      `DTSTART:${weekdayFrom(51).replaceAll('-', '')}T150000Z`,
    );

    const cancelled = await send(adminToken, 'PATCH', `/api/appointments/${visit.id}/status`, {
      status: 'cancelled',
    });
    expect(cancelled.statusCode).toBe(200);
    const third = await find();
    expect(third?.uid).toBe(first?.uid);
    expect(third?.sequence).toBe(2);
    expect(third?.component.getFirstPropertyValue('status')).toBe('CANCELLED');
  });

  it('a rotated URL stops working; an unknown one is 404', async () => {
    const old = (await send(dentistToken, 'POST', `/api/calendar/feeds/${sarahId}`)).json().url as string;
    expect((await app.inject({ method: 'GET', url: feedPath(old) })).statusCode).toBe(200);
    const fresh = (await send(dentistToken, 'POST', `/api/calendar/feeds/${sarahId}`)).json().url as string;
    expect(fresh).not.toBe(old);
    expect((await app.inject({ method: 'GET', url: feedPath(old) })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: feedPath(fresh) })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/feeds/not-a-token.ics' })).statusCode).toBe(404);
  });

  it('is turned off by its dentist or an admin: the address stops working at once', async () => {
    const url = (await send(dentistToken, 'POST', `/api/calendar/feeds/${sarahId}`)).json().url as string;
    expect((await send(receptionistToken, 'DELETE', `/api/calendar/feeds/${sarahId}`)).statusCode).toBe(403);
    expect((await send(dentistToken, 'DELETE', `/api/calendar/feeds/${michaelId}`)).statusCode).toBe(403);
    const off = await send(dentistToken, 'DELETE', `/api/calendar/feeds/${sarahId}`);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ dentist_id: sarahId, active: false });
    expect((await app.inject({ method: 'GET', url: feedPath(url) })).statusCode).toBe(404);
    expect((await send(dentistToken, 'DELETE', `/api/calendar/feeds/${sarahId}`)).statusCode).toBe(404);
  });

  it('ends with the account that made it: a password set anew or the account deactivated', async () => {
    const other = await addStaff(app, adminToken, 'admin');
    const makeFeed = async () => {
      const token = (await login(app, other.username, other.password)).token;
      const url = (await send(token, 'POST', `/api/calendar/feeds/${michaelId}`)).json().url as string;
      expect((await app.inject({ method: 'GET', url: feedPath(url) })).statusCode).toBe(200);
      return url;
    };
    const user = (await send(adminToken, 'GET', `/api/users/${other.id}`)).json();
    const beforeReset = await makeFeed();
    const reset = await send(adminToken, 'PUT', `/api/users/${other.id}`, {
      name: user.name,
      username: user.username,
      email: user.email,
      role: 'admin',
      password: 'a-new-long-secret',
    });
    expect(reset.statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: feedPath(beforeReset) })).statusCode).toBe(404);

    other.password = 'a-new-long-secret';
    const beforeDeactivation = await makeFeed();
    const deactivated = await send(adminToken, 'PATCH', `/api/users/${other.id}/status`, { isActive: false });
    expect(deactivated.statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: feedPath(beforeDeactivation) })).statusCode).toBe(404);
  });

  it('answers nothing for a dentist who is no longer active', async () => {
    const url = (await send(adminToken, 'POST', `/api/calendar/feeds/${michaelId}`)).json().url as string;
    const dentist = (await send(adminToken, 'GET', `/api/dentists/${michaelId}`)).json();
    const setStatus = (status: 'active' | 'inactive') =>
      send(adminToken, 'PUT', `/api/dentists/${michaelId}`, { ...dentist, status });
    expect((await setStatus('inactive')).statusCode).toBe(200);
    try {
      expect((await app.inject({ method: 'GET', url: feedPath(url) })).statusCode).toBe(404);
    } finally {
      expect((await setStatus(dentist.status)).statusCode).toBe(200);
    }
    expect((await app.inject({ method: 'GET', url: feedPath(url) })).statusCode).toBe(200);
  });
});
