import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MANAGE_LINK_UNKNOWN, ONLINE_BOOKING_NOT_HERE, type PublicFreeTimes } from '@dental/shared/domain';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { addDays, clinicToday, isoWeekday } from '../../db/clinicTime';
import { outbox } from '../../db/schema';
import { apiSender, createTestApp, login } from '../../test/testApp';
import { sendDueMessages, type Transport } from '../notifications/outboxSender';
import { manageLinkOf } from './manageLinks';

/**
 * The app's own sender has already settled these messages (no transport in tests: skipped); after
 * its runs end, they are made due again, to go through the test's transport.
 */
async function dueAgain(app: FastifyInstance, recipients: string[]) {
  await app.outboxSender.runOnce();
  await app.database.db
    .update(outbox)
    .set({ state: 'pending', reason: null, dueAt: new Date(), nextAttemptAt: new Date(), claimedUntil: null })
    .where(inArray(outbox.recipient, recipients));
}

const BOOK_HTML =
  '<!doctype html><html><head><title>Book a visit</title></head><body><div id="root"></div></body></html>';
const PAGE = '/public/clinics/bright-smile-dental';
/** Online booking on, checkups offered to everyone, a year ahead: the pages these tests open. */
const CHECKUPS_ONLINE = {
  enabled: true,
  horizonDays: 365,
  visitTypes: [{ treatment: 'Dental Checkup', newPatients: true, returningPatients: true }],
};

/**
 * The booking module as a patient meets it: its light page at /book/…, where its entry is served
 * from, the Modules page's switch closing page and API alike, and the calendar file of a booking.
 */
describe('online booking: the booking module', () => {
  let app: FastifyInstance;
  let root: string;
  let admin: string;
  let clinicId: number;
  const send = apiSender(() => app);
  const get = (url: string) => app.inject({ method: 'GET', url, remoteAddress: '203.0.113.41' });
  const post = (url: string, payload: unknown) =>
    app.inject({ method: 'POST', url, payload: payload as object, remoteAddress: '203.0.113.41' });
  const switchModule = async (enabled: boolean) =>
    expect((await send(admin, 'PUT', '/api/modules/booking', { enabled })).statusCode).toBe(200);

  /** Books the first free checkup of a Tuesday a year ahead: answers its manage link's token. */
  const bookOnline = async (email: string) => {
    let date = addDays(await clinicToday(app.database.db, clinicId), 300);
    while (isoWeekday(date) !== 2) date = addDays(date, 1);
    const slot = (
      (await get(`${PAGE}/free-times?visit_type=dental-checkup&date=${date}`)).json() as PublicFreeTimes
    ).times[0] as PublicFreeTimes['times'][number];
    const held = await post(`${PAGE}/holds`, {
      visit_type_id: 'dental-checkup',
      dentist_id: slot.dentist_id,
      date,
      time: slot.time,
    });
    const holdId = held.json().hold_id as string;
    const contact = { name: 'Robin Online', phone: '555 731 0001', email, date_of_birth: '1985-02-03' };
    const sent = await post(`/public/holds/${holdId}/code`, contact);
    expect(sent.statusCode).toBe(202);
    // The time stays held as long as the code is good (10 minutes), past the pick's 5: the page counts down to it.
    const minutesLeft = (at: string) => (Date.parse(at) - Date.now()) / 60_000;
    expect(minutesLeft(held.json().expires_at)).toBeLessThanOrEqual(5);
    expect(minutesLeft(sent.json().expires_at)).toBeGreaterThan(9);
    expect(minutesLeft(sent.json().expires_at)).toBeLessThanOrEqual(10);
    const [message] = await app.database.db
      .select({ body: outbox.body })
      .from(outbox)
      .where(and(eq(outbox.kind, 'online_code'), eq(outbox.recipient, email)))
      .orderBy(desc(outbox.id))
      .limit(1);
    const code = /\b(\d{6})\b/.exec(message?.body ?? '')?.[1];
    const booked = await post(`/public/holds/${holdId}/confirm`, { code });
    expect(booked.statusCode).toBe(201);
    return { token: /\/book\/manage\/([^/]+)$/.exec(booked.json().manage_url)?.[1] as string, date, slot };
  };

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'dental-booking-'));
    mkdirSync(path.join(root, 'shell', 'dist'), { recursive: true });
    writeFileSync(
      path.join(root, 'shell', 'dist', 'index.html'),
      '<!doctype html><title>Dental Clinic</title>',
    );
    writeFileSync(path.join(root, 'shell', 'dist', 'book.html'), BOOK_HTML);
    app = await createTestApp({ staticRoot: root });
    const signedIn = await login(app, 'admin', 'admin123');
    admin = signedIn.token;
    clinicId = signedIn.user.clinic_id;
  });
  afterAll(async () => {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('says where its entry is served from, without sign-in', async () => {
    const answer = await get('/public/modules/booking');
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      container: 'mf_booking',
      entry: '/modules/booking/mf-manifest.json',
      version: expect.any(String),
      integrity: null,
    });
  });

  it('serves its own light page: 404 for a clinic with booking off and an unknown one alike, 200 once on', async () => {
    for (const url of ['/book/bright-smile-dental', '/book/no-such-clinic', '/book/', '/book/a/b/c']) {
      const page = await get(url);
      expect(page.statusCode).toBe(404);
      expect(page.body).toBe(BOOK_HTML);
    }
    const saved = await send(admin, 'PUT', '/api/settings', {
      onlineBooking: CHECKUPS_ONLINE,
    });
    expect(saved.statusCode).toBe(200);
    const open = await get('/book/bright-smile-dental?from=newsletter');
    expect(open.statusCode).toBe(200);
    expect(open.headers['content-type']).toMatch(/text\/html/);
    expect(open.headers['cache-control']).toBe('no-cache');
    expect(open.body).toBe(BOOK_HTML);
    // The staff app's page is not the patients' one.
    expect((await get('/appointments')).body).not.toBe(BOOK_HTML);
    // A manage link's page is served; whether the link is good is its API's answer.
    expect((await get('/book/manage/anything')).statusCode).toBe(200);
  });

  it('is closed, page, API and manage links, when the admin switches the module off on the Modules page', async () => {
    const { token } = await bookOnline('robin.switch@patients.example');
    await switchModule(false);
    try {
      expect((await get('/book/bright-smile-dental')).statusCode).toBe(404);
      const clinic = await get(PAGE);
      expect(clinic.statusCode).toBe(404);
      expect(clinic.json().message).toBe(ONLINE_BOOKING_NOT_HERE);
      const unknown = await get('/public/clinics/no-such-clinic');
      expect(unknown.json()).toEqual(clinic.json());
      const manage = await get(`/public/manage/${token}`);
      expect(manage.statusCode).toBe(404);
      expect(manage.json().message).toBe(MANAGE_LINK_UNKNOWN);
      expect((await post(`/public/manage/${token}/cancel`, {})).statusCode).toBe(404);
    } finally {
      await switchModule(true);
    }
    expect((await get(PAGE)).statusCode).toBe(200);
    const manage = await get(`/public/manage/${token}`);
    expect(manage.statusCode).toBe(200);
    expect(manage.json().appointment.status).toBe('pending');
  });

  it('e-mails the booked visit with a calendar file in the clinic’s zone, read as the visit is when it goes', async () => {
    const { date, slot } = await bookOnline('robin.ics@patients.example');
    await dueAgain(app, ['robin.ics@patients.example']);
    const sent: Parameters<Transport['send']>[0][] = [];
    const email: Transport = { send: async (message) => void sent.push(message) };
    await sendDueMessages(app.database.db, { email, sms: null });
    const confirmation = sent.find(
      (message) => message.to === 'robin.ics@patients.example' && message.subject?.startsWith('Your visit'),
    );
    const code = sent.find(
      (message) => message.to === 'robin.ics@patients.example' && message !== confirmation,
    );
    expect(code?.attachments).toBeUndefined();
    expect(confirmation?.attachments).toHaveLength(1);
    const [file] = confirmation?.attachments ?? [];
    expect(file).toMatchObject({ filename: 'visit.ics', contentType: 'text/calendar; charset=utf-8' });
    const ics = file?.content ?? '';
    expect(ics).toContain('METHOD:PUBLISH');
    expect(ics).toContain(`DTSTART:${date.replaceAll('-', '')}T${slot.time.replace(':', '')}00Z`);
    expect(ics).toContain(`DTEND:${date.replaceAll('-', '')}T${slot.end_time.replace(':', '')}00Z`);
    expect(ics).toContain('SUMMARY:Dental Checkup at Bright Smile Dental');
    expect(ics).toMatch(/LOCATION:120 Harbour Street\\, Springfield/);
    expect(ics).toContain(`With ${slot.dentist_name}.`);
  });
});

describe('online booking: reminders carry the manage link', () => {
  let app: FastifyInstance;
  let admin: string;
  const send = apiSender(() => app);
  const post = (url: string, payload: unknown) =>
    app.inject({ method: 'POST', url, payload: payload as object, remoteAddress: '203.0.113.43' });

  beforeAll(async () => {
    app = await createTestApp();
    admin = (await login(app, 'admin', 'admin123')).token;
    const saved = await send(admin, 'PUT', '/api/settings', {
      onlineBooking: CHECKUPS_ONLINE,
      notifications: { emailReminders: true, smsReminders: false },
    });
    expect(saved.statusCode).toBe(200);
  });
  afterAll(() => app.close());

  it("adds the visit's own manage link to its reminder as it goes, not to the outbox staff read, and none to a desk visit's", async () => {
    const clinicId = (await login(app, 'admin', 'admin123')).user.clinic_id;
    let date = addDays(await clinicToday(app.database.db, clinicId), 290);
    while (isoWeekday(date) !== 4) date = addDays(date, 1);
    const free = (
      await app.inject({ method: 'GET', url: `${PAGE}/free-times?visit_type=dental-checkup&date=${date}` })
    ).json() as PublicFreeTimes;
    const slot = free.times[0] as PublicFreeTimes['times'][number];
    const held = await post(`${PAGE}/holds`, {
      visit_type_id: 'dental-checkup',
      dentist_id: null,
      date,
      time: slot.time,
    });
    const holdId = held.json().hold_id as string;
    const contact = {
      name: 'Rita Reminded',
      phone: '555 733 0001',
      email: 'rita.reminded@patients.example',
      date_of_birth: '1970-01-02',
    };
    expect((await post(`/public/holds/${holdId}/code`, contact)).statusCode).toBe(202);
    const [codeMail] = await app.database.db
      .select({ body: outbox.body })
      .from(outbox)
      .where(and(eq(outbox.kind, 'online_code'), eq(outbox.recipient, contact.email)));
    const booked = await post(`/public/holds/${holdId}/confirm`, {
      code: /\b(\d{6})\b/.exec(codeMail?.body ?? '')?.[1],
    });
    expect(booked.statusCode).toBe(201);
    const token = /\/book\/manage\/([^/]+)$/.exec(booked.json().manage_url)?.[1] as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);

    // A desk visit of the same day with another dentist, for a patient with an e-mail.
    const dentists = (await app.inject({ method: 'GET', url: PAGE })).json().dentists as Array<{
      id: number;
    }>;
    let other = { dentistId: 0, time: '' };
    for (const { id } of dentists.filter((dentist) => dentist.id !== slot.dentist_id)) {
      const times = (
        await send(admin, 'GET', `/api/dentists/${id}/free-times?date=${date}&treatment=Dental%20Checkup`)
      ).json().times as string[];
      if (times[0]) {
        other = { dentistId: id, time: times[0] };
        break;
      }
    }
    const dora = await send(admin, 'POST', '/api/patients', {
      name: 'Dora Desk',
      phone: '555 733 0002',
      email: 'dora.desk@patients.example',
      dateOfBirth: '1981-03-04',
    });
    expect(dora.statusCode).toBe(201);
    const desk = await send(admin, 'POST', '/api/appointments', {
      patient: 'Dora Desk',
      phone: '555 733 0002',
      patient_id: dora.json().id,
      date,
      time: other.time,
      dentist_id: other.dentistId,
      treatment: 'Dental Checkup',
      notes: null,
    });
    expect(desk.statusCode).toBe(201);

    // Both reminders due now (the visits are months ahead).
    await dueAgain(app, [contact.email, 'dora.desk@patients.example']);
    const sent: Parameters<Transport['send']>[0][] = [];
    const email: Transport = { send: async (message) => void sent.push(message) };
    await sendDueMessages(app.database.db, { email, sms: null }, (clinic, visit) =>
      manageLinkOf(app.database.db, 'https://clinic.example', clinic, visit),
    );
    const online = sent.find(
      (message) => message.to === contact.email && message.subject?.startsWith('Reminder'),
    );
    expect(online?.body).toContain(
      `To confirm, move or cancel your visit: https://clinic.example/book/manage/${token}`,
    );
    // The link opens this visit's manage page.
    expect((await app.inject({ method: 'GET', url: `/public/manage/${token}` })).json().first_name).toBe(
      'Rita',
    );
    const atDesk = sent.find((message) => message.to === 'dora.desk@patients.example');
    expect(atDesk?.body).toBeDefined();
    expect(atDesk?.body).not.toContain('/book/manage/');
    // What staff read in the outbox is the reminder without the patient's private link.
    const [stored] = await app.database.db
      .select({ body: outbox.body })
      .from(outbox)
      .where(and(eq(outbox.kind, 'email_reminder'), eq(outbox.recipient, contact.email)));
    expect(stored?.body).not.toContain(token);
  });
});

describe('online booking: the code by SMS', () => {
  let app: FastifyInstance;
  const send = apiSender(() => app);
  const post = (url: string, payload: unknown) =>
    app.inject({ method: 'POST', url, payload: payload as object, remoteAddress: '203.0.113.42' });

  beforeAll(async () => {
    // An SMS gateway nobody answers at: the message is queued whatever becomes of its sending.
    app = await createTestApp({ smsWebhookUrl: 'http://127.0.0.1:9/sms' });
    const admin = (await login(app, 'admin', 'admin123')).token;
    const saved = await send(admin, 'PUT', '/api/settings', {
      onlineBooking: CHECKUPS_ONLINE,
    });
    expect(saved.statusCode).toBe(200);
  });
  afterAll(() => app.close());

  it('sends the code to the phone as well where the server has an SMS transport', async () => {
    const clinicId = (await login(app, 'admin', 'admin123')).user.clinic_id;
    let date = addDays(await clinicToday(app.database.db, clinicId), 280);
    while (isoWeekday(date) !== 3) date = addDays(date, 1);
    const free = (
      await app.inject({ method: 'GET', url: `${PAGE}/free-times?visit_type=dental-checkup&date=${date}` })
    ).json() as PublicFreeTimes;
    const slot = free.times[0] as PublicFreeTimes['times'][number];
    const held = await post(`${PAGE}/holds`, {
      visit_type_id: 'dental-checkup',
      dentist_id: null,
      date,
      time: slot.time,
    });
    const contact = {
      name: 'Sam Texted',
      phone: '555 732 0001',
      email: 'sam.texted@patients.example',
      date_of_birth: '1979-09-09',
    };
    expect((await post(`/public/holds/${held.json().hold_id}/code`, contact)).statusCode).toBe(202);
    const codes = await app.database.db
      .select({ channel: outbox.channel, recipient: outbox.recipient, body: outbox.body })
      .from(outbox)
      .where(eq(outbox.kind, 'online_code'));
    const byEmail = codes.find((message) => message.channel === 'email');
    const bySms = codes.find((message) => message.channel === 'sms');
    expect(byEmail?.recipient).toBe(contact.email);
    expect(bySms?.recipient).toBe(contact.phone);
    const code = /\b(\d{6})\b/.exec(byEmail?.body ?? '')?.[1];
    expect(bySms?.body).toBe(`Bright Smile Dental: your booking code is ${code}, valid 10 minutes.`);
  });
});
