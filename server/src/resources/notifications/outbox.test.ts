import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { buildApp } from '../../app';
import { testConfig } from '../../config';
import { addDays, clinicToday, zonedInstant } from '../../db/clinicTime';
import { outbox } from '../../db/schema';
import { authHeader, createSecondApp, createTestApp, login } from '../../test/testApp';
import { sendDueMessages, smtpTransport, webhookTransport } from './outboxSender';

interface Mail {
  to: string;
  raw: string;
}

/** Reminders and alerts through a local SMTP server and a local SMS webhook, both on loopback. */
describe('outbox: reminders and alerts', () => {
  let app: FastifyInstance;
  let bare: FastifyInstance;
  let adminToken: string;
  let smtp: SMTPServer;
  let webhook: Server;
  let smtpUrl: string;
  let webhookUrl: string;
  let webhookStatus = 200;
  const mails: Mail[] = [];
  const texts: Array<{ to: string; body: string }> = [];
  let dentistId: number;
  let today: string;
  let counter = 0;

  const send = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH',
    url: string,
    payload?: object,
    token = adminToken,
  ) => app.inject({ method, url, headers: authHeader(token), ...(payload ? { payload } : {}) });
  const settings = async (change: object) => {
    const response = await send('PUT', '/api/settings', change);
    expect(response.statusCode).toBe(200);
  };
  const newPatient = async (email: string | null = null) => {
    counter += 1;
    const response = await send('POST', '/api/patients', {
      name: `Nora Outbox${counter}`,
      email: email ?? `nora${counter}@patients.example`,
      phone: `555-01${String(counter).padStart(2, '0')}`,
      dateOfBirth: '1990-01-01',
    });
    expect(response.statusCode).toBe(201);
    return response.json() as { id: number; name: string; phone: string };
  };
  const book = async (patient: { id: number; name: string; phone: string }, date: string, time: string) => {
    const response = await send('POST', '/api/appointments', {
      patient: patient.name,
      phone: patient.phone,
      patient_id: patient.id,
      dentist_id: dentistId,
      date,
      time,
      treatment: 'Root Canal',
      notes: 'Private note',
      // Short visits at times picked for the reminders' sake, early and late (an admin books those
      // as outside open hours), so no two of these tests' visits meet.
      duration: 5,
      outside_hours: true,
      outside_hours_reason: 'Reminder timing test',
    });
    expect(response.statusCode).toBe(201);
    return response.json() as { id: number };
  };
  const messagesOf = (appointmentId: number) =>
    app.database.db.select().from(outbox).where(eq(outbox.appointmentId, appointmentId)).orderBy(outbox.id);
  const run = () => app.outboxSender.runOnce();

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => {
          raw += chunk.toString();
        });
        stream.on('end', () => {
          for (const to of session.envelope.rcptTo) mails.push({ to: to.address, raw });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
    webhook = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        if (webhookStatus === 200) texts.push(JSON.parse(body));
        response.writeHead(webhookStatus).end();
      });
    });
    await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
    webhookUrl = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/sms`;

    app = await createTestApp({
      smtpUrl,
      smsWebhookUrl: webhookUrl,
      mailFrom: 'Bright Smile <desk@brightsmile.example>',
    });
    bare = await createTestApp();
    adminToken = (await login(app, 'admin', 'admin123')).token;
    // A dentist of these tests' own, working every day: no demo visit stands in a reminder's way.
    const dentist = await send('POST', '/api/dentists', {
      name: 'Dr. Olive Outbox',
      email: 'olive.outbox@brightsmile.example',
      phone: '555-0177',
      specialty: 'General Dentistry',
      license: 'DDS-OUTBOX',
      years_of_experience: 9,
      working_days: '1234567',
    });
    expect(dentist.statusCode).toBe(201);
    dentistId = (dentist.json() as { id: number }).id;
    today = await clinicToday(app.database.db, (await login(app, 'admin', 'admin123')).user.clinic_id);
  });

  afterAll(async () => {
    await app?.close();
    await bare?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await new Promise<void>((resolve) => webhook.close(() => resolve()));
  }, 60_000);

  it('a new patient alerts the clinic, and a reminder waits for its lead time, then goes by e-mail', async () => {
    // The expected instants below are in UTC: the clinic's zone is set so, whatever the machine's.
    await settings({
      reminderLeadHours: 2,
      timeZone: 'UTC',
      email: 'front@brightsmile.example',
      phone: '555-0100',
    });
    const patient = await newPatient('nora.first@patients.example');
    const visitDay = addDays(today, 3);
    // Off the hour (with the tests' own dentist, no demo visit is in its way).
    const visit = await book(patient, visitDay, '10:10');
    const [reminder] = await messagesOf(visit.id);
    expect(reminder).toMatchObject({
      kind: 'email_reminder',
      state: 'pending',
      recipient: 'nora.first@patients.example',
    });
    expect(reminder?.dueAt.toISOString()).toBe(`${visitDay}T08:10:00.000Z`);

    await run();
    const alert = mails.find((mail) => mail.to === 'front@brightsmile.example');
    expect(alert?.raw).toContain(`${patient.name} was added as a patient`);
    expect((await messagesOf(visit.id))[0]?.state).toBe('pending');

    await app.database.db
      .update(outbox)
      .set({ nextAttemptAt: new Date() })
      .where(eq(outbox.id, reminder?.id ?? 0));
    await run();
    const sent = (await messagesOf(visit.id))[0];
    expect(sent?.state).toBe('sent');
    const mail = mails.find((each) => each.to === 'nora.first@patients.example');
    expect(mail?.raw).toMatch(/Subject: Reminder: your visit to Bright Smile Dental/);
    expect(mail?.raw).toContain('Hello Nora,');
    // The visit's time from start to end (an en dash, quoted-printable in the mail's body).
    expect(mail?.raw).toContain('at 10:10=E2=80=9310:15 with Dr. Olive Outbox');
    expect(mail?.raw).toContain('555-0100');
    expect(mail?.raw).not.toMatch(/Root Canal|Private note/);
    // Sent once: another run sends nothing more.
    const before = mails.length;
    await run();
    expect(mails.length).toBe(before);
  });

  it('a moved visit moves its reminder; a cancelled one cancels it; a confirmed one sends a confirmation', async () => {
    await settings({ reminderLeadHours: 24 });
    const patient = await newPatient();
    const visit = await book(patient, addDays(today, 5), '11:20');
    const [first] = await messagesOf(visit.id);
    const moved = await send('PUT', `/api/appointments/${visit.id}`, {
      patient: patient.name,
      phone: patient.phone,
      patient_id: patient.id,
      dentist_id: dentistId,
      date: addDays(today, 7),
      time: '15:40',
      treatment: 'Root Canal',
      // A week on is the same weekday as today, which may be one the clinic keeps closed.
      outside_hours: true,
      outside_hours_reason: 'Reminder timing test',
    });
    expect(moved.statusCode).toBe(200);
    const [after] = await messagesOf(visit.id);
    expect(after?.id).toBe(first?.id);
    expect(after?.dueAt.toISOString()).toBe(`${addDays(today, 6)}T15:40:00.000Z`);

    expect(
      (await send('PATCH', `/api/appointments/${visit.id}/status`, { status: 'confirmed' })).statusCode,
    ).toBe(200);
    const confirmation = (await messagesOf(visit.id)).find(
      (each) => each.kind === 'appointment_confirmation',
    );
    expect(confirmation?.state).toBe('pending');
    expect(confirmation?.body).toContain('is confirmed');

    expect(
      (await send('PATCH', `/api/appointments/${visit.id}/status`, { status: 'cancelled' })).statusCode,
    ).toBe(200);
    const reminder = (await messagesOf(visit.id)).find((each) => each.kind === 'email_reminder');
    expect(reminder).toMatchObject({ state: 'skipped', reason: 'the visit was cancelled' });
  });

  it('each flag decides: off, nothing is queued; SMS goes to the webhook', async () => {
    await settings({ notifications: { emailReminders: false, smsReminders: true, newPatientAlerts: false } });
    const patient = await newPatient();
    const visit = await book(patient, addDays(today, 1), '07:20');
    const messages = await messagesOf(visit.id);
    expect(messages.map((each) => each.kind)).toEqual(['sms_reminder']);
    expect(
      await app.database.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.patientId, patient.id), eq(outbox.kind, 'new_patient_alert'))),
    ).toHaveLength(0);
    await app.database.db
      .update(outbox)
      .set({ nextAttemptAt: new Date() })
      .where(eq(outbox.id, messages[0]?.id ?? 0));
    await run();
    expect(texts.find((text) => text.to === patient.phone)?.body).toContain(
      'this is a reminder of your visit',
    );
    await settings({ notifications: { emailReminders: true, smsReminders: false, newPatientAlerts: true } });
  });

  it('a failing transport is retried, then failed with its error; an admin sends it again', async () => {
    await settings({ notifications: { smsReminders: true } });
    webhookStatus = 502;
    const patient = await newPatient();
    const visit = await book(patient, addDays(today, 1), '07:40');
    const sms = (await messagesOf(visit.id)).find((each) => each.kind === 'sms_reminder');
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      await app.database.db
        .update(outbox)
        .set({ nextAttemptAt: new Date() })
        .where(eq(outbox.id, sms?.id ?? 0));
      await run();
    }
    const failed = (await messagesOf(visit.id)).find((each) => each.id === sms?.id);
    expect(failed).toMatchObject({
      state: 'failed',
      attempts: 5,
      lastError: 'The SMS gateway answered 502 Bad Gateway',
    });

    webhookStatus = 200;
    const listed = await send('GET', '/api/outbox?state=failed');
    expect(listed.json().data.map((each: { id: number }) => each.id)).toContain(sms?.id);
    const retried = await send('POST', `/api/outbox/${sms?.id}/retry`);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ state: 'pending', attempts: 0 });
    await run();
    expect((await messagesOf(visit.id)).find((each) => each.id === sms?.id)?.state).toBe('sent');
    expect((await send('POST', `/api/outbox/${sms?.id}/retry`)).statusCode).toBe(409);
    const receptionist = (await login(app, 'receptionist', 'receptionist123')).token;
    expect((await send('GET', '/api/outbox', undefined, receptionist)).statusCode).toBe(403);
    await settings({ notifications: { smsReminders: false } });
  });

  it('with no transport configured a message is kept as skipped, saying why', async () => {
    const token = (await login(bare, 'admin', 'admin123')).token;
    const created = await bare.inject({
      method: 'POST',
      url: '/api/patients',
      headers: authHeader(token),
      payload: {
        name: 'Otto Untransported',
        email: 'otto@patients.example',
        phone: '555-0177',
        dateOfBirth: '1980-05-05',
      },
    });
    expect(created.statusCode).toBe(201);
    await bare.outboxSender.runOnce();
    const [alert] = await bare.database.db
      .select()
      .from(outbox)
      .where(eq(outbox.patientId, created.json().id));
    expect(alert).toMatchObject({
      kind: 'new_patient_alert',
      state: 'skipped',
      reason: 'no e-mail transport configured',
    });
  });

  it('confirmations off: confirming queues nothing; SMS reminders off: only the e-mail reminder', async () => {
    await settings({
      notifications: { emailReminders: true, smsReminders: false, appointmentConfirmations: false },
    });
    const patient = await newPatient();
    const visit = await book(patient, addDays(today, 6), '08:50');
    expect(
      (await send('PATCH', `/api/appointments/${visit.id}/status`, { status: 'confirmed' })).statusCode,
    ).toBe(200);
    expect((await messagesOf(visit.id)).map((each) => each.kind)).toEqual(['email_reminder']);
    await settings({ notifications: { appointmentConfirmations: true } });
  });

  it('a new lead time or zone moves the pending reminders; a flag turned off skips them', async () => {
    await settings({ timeZone: 'UTC', reminderLeadHours: 24, notifications: { emailReminders: true } });
    const patient = await newPatient();
    const day = addDays(today, 5);
    const visit = await book(patient, day, '09:30');
    const dueOf = async () => (await messagesOf(visit.id))[0]?.dueAt.toISOString();
    expect(await dueOf()).toBe(`${addDays(today, 4)}T09:30:00.000Z`);

    await settings({ reminderLeadHours: 2 });
    expect(await dueOf()).toBe(`${day}T07:30:00.000Z`);
    await settings({ timeZone: 'Asia/Tokyo' });
    const visitAt = zonedInstant(day, '09:30', 'Asia/Tokyo');
    expect((await messagesOf(visit.id))[0]?.visitAt?.toISOString()).toBe(visitAt.toISOString());
    expect(await dueOf()).toBe(new Date(visitAt.getTime() - 2 * 3_600_000).toISOString());

    await settings({ notifications: { emailReminders: false } });
    expect(await messagesOf(visit.id)).toMatchObject([{ state: 'skipped', reason: 'emailReminders is off' }]);
    await settings({ timeZone: 'UTC', reminderLeadHours: 24, notifications: { emailReminders: true } });
  });

  it('a flag turned on catches up the visits that come within their lead time, and only those', async () => {
    await settings({ timeZone: 'UTC', reminderLeadHours: 48, notifications: { emailReminders: false } });
    const soon = await newPatient('soon@patients.example');
    const later = await newPatient('later@patients.example');
    const tomorrow = await book(soon, addDays(today, 1), '07:50');
    const farOff = await book(later, addDays(today, 20), '07:50');
    expect(await messagesOf(tomorrow.id)).toEqual([]);

    await settings({ notifications: { emailReminders: true } });
    await run();
    expect(await messagesOf(tomorrow.id)).toMatchObject([{ kind: 'email_reminder', state: 'sent' }]);
    expect(mails.filter((mail) => mail.to === 'soon@patients.example')).toHaveLength(1);
    // Twenty days away: its reminder is queued when the visit comes within the lead time.
    expect(await messagesOf(farOff.id)).toEqual([]);
    await run();
    expect(mails.filter((mail) => mail.to === 'soon@patients.example')).toHaveLength(1);
    await settings({ reminderLeadHours: 24 });
  });

  it("a reminder goes with today's facts: the patient's new address, the clinic's new phone", async () => {
    const patient = await newPatient('old.address@patients.example');
    const visit = await book(patient, addDays(today, 8), '12:10');
    const changed = await send('PUT', `/api/patients/${patient.id}`, {
      name: patient.name,
      email: 'new.address@patients.example',
      phone: patient.phone,
      dateOfBirth: '1990-01-01',
    });
    expect(changed.statusCode).toBe(200);
    await settings({ phone: '555-0199' });
    await app.database.db
      .update(outbox)
      .set({ nextAttemptAt: new Date() })
      .where(eq(outbox.appointmentId, visit.id));
    await run();
    expect(await messagesOf(visit.id)).toMatchObject([
      { state: 'sent', recipient: 'new.address@patients.example' },
    ]);
    const mail = mails.find((each) => each.to === 'new.address@patients.example');
    expect(mail?.raw).toContain('555-0199');
    expect(mail?.raw).toMatch(/Message-ID: <outbox-\d+-\d+@brightsmile\.example>/i);
    expect(mails.some((each) => each.to === 'old.address@patients.example')).toBe(false);
    await settings({ phone: '555-0100' });
  });

  it('a visit cancelled while its reminder is on its way: the outbox says the reminder went', async () => {
    const patient = await newPatient('midway@patients.example');
    const visit = await book(patient, addDays(today, 9), '13:10');
    await app.database.db
      .update(outbox)
      .set({ nextAttemptAt: new Date() })
      .where(eq(outbox.appointmentId, visit.id));
    const mailer = smtpTransport(smtpUrl, 'desk@brightsmile.example');
    await sendDueMessages(app.database.db, {
      email: {
        async send(message) {
          if (message.to === 'midway@patients.example') {
            const cancelled = await send('PATCH', `/api/appointments/${visit.id}/status`, {
              status: 'cancelled',
            });
            expect(cancelled.statusCode).toBe(200);
          }
          await mailer.send(message);
        },
      },
      sms: null,
    });
    expect(mails.filter((mail) => mail.to === 'midway@patients.example')).toHaveLength(1);
    expect(await messagesOf(visit.id)).toMatchObject([{ state: 'sent', reason: null }]);
  });

  // Opens a database in a folder twice, each migrated from nothing: seconds alone, more beside other suites.
  it('a restart loses nothing: what was pending, or claimed by a sender that died, goes on start-up', async () => {
    // One process at a time on the same data: an embedded database in a folder, or the PostgreSQL database.
    const folder = mkdtempSync(path.join(tmpdir(), 'dental-outbox-restart-'));
    const transports = {
      smtpUrl,
      smsWebhookUrl: webhookUrl,
      mailFrom: 'Bright Smile <desk@brightsmile.example>',
    };
    const start = async (remindersPollSeconds: number) =>
      (await createSecondApp(app, { ...transports, seedDemo: false, remindersPollSeconds })) ??
      buildApp(testConfig({ ...transports, dataDir: folder, remindersPollSeconds }));
    try {
      const first = await start(0);
      const token = (await login(first, 'admin', 'admin123')).token;
      const alertsTo = await first.inject({
        method: 'PUT',
        url: '/api/settings',
        headers: authHeader(token),
        payload: { email: 'front@brightsmile.example', notifications: { newPatientAlerts: true } },
      });
      expect(alertsTo.statusCode).toBe(200);
      const add = (name: string) =>
        first.inject({
          method: 'POST',
          url: '/api/patients',
          headers: authHeader(token),
          payload: {
            name,
            email: `${name.split(' ')[0]?.toLowerCase()}@patients.example`,
            phone: name.startsWith('Rita') ? '555-0181' : '555-0182',
            dateOfBirth: '1985-03-03',
          },
        });
      expect((await add('Rita Restart')).statusCode).toBe(201);
      expect((await add('Remy Restart')).statusCode).toBe(201);
      const pending = await first.database.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.kind, 'new_patient_alert'), eq(outbox.state, 'pending')));
      const ours = pending.filter((each) => /R(ita|emy) Restart/.test(each.body));
      expect(ours).toHaveLength(2);
      // The first was claimed by a sender that died mid-way: its claim lapses.
      await first.database.db
        .update(outbox)
        .set({ claimedUntil: new Date(Date.now() + 60_000), attempts: 1 })
        .where(eq(outbox.id, ours[0]?.id ?? 0));
      await first.close();

      const before = mails.length;
      // An hour between runs: only the run on start-up sends the one left pending.
      const second = await start(3600);
      try {
        const stateOf = async (id: number) =>
          (await second.database.db.select({ state: outbox.state }).from(outbox).where(eq(outbox.id, id)))[0]
            ?.state;
        const deadline = Date.now() + 20_000;
        while ((await stateOf(ours[1]?.id ?? 0)) !== 'sent' && Date.now() < deadline) {
          await new Promise((resolve) => setImmediate(resolve));
        }
        expect(await stateOf(ours[1]?.id ?? 0)).toBe('sent');
        expect(await stateOf(ours[0]?.id ?? 0)).toBe('pending');
        // The dead sender's claim lapses; the next run sends that one too.
        await second.database.db
          .update(outbox)
          .set({ claimedUntil: new Date(Date.now() - 1000) })
          .where(eq(outbox.id, ours[0]?.id ?? 0));
        await second.outboxSender.runOnce();
        const states = await second.database.db
          .select({ state: outbox.state })
          .from(outbox)
          .where(
            inArray(
              outbox.id,
              ours.map((each) => each.id),
            ),
          );
        expect(states.map((each) => each.state)).toEqual(['sent', 'sent']);
        const delivered = mails.slice(before).filter((mail) => /R(ita|emy) Restart was added/.test(mail.raw));
        expect(delivered).toHaveLength(2);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);

  it('two senders at once send each message exactly once, and a lapsed claim (a crash) is sent after all', async () => {
    const patientIds: number[] = [];
    for (let index = 0; index < 12; index += 1) patientIds.push((await newPatient()).id);
    const alerts = await app.database.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, 'new_patient_alert'), eq(outbox.state, 'pending')));
    expect(alerts.length).toBeGreaterThanOrEqual(12);
    // A sender that claimed one and died: its claim lapsed.
    await app.database.db
      .update(outbox)
      .set({ claimedUntil: new Date(Date.now() - 1000), attempts: 1 })
      .where(eq(outbox.id, alerts[0]?.id ?? 0));
    const before = mails.length;
    const transports = {
      email: smtpTransport(smtpUrl, 'desk@brightsmile.example'),
      sms: webhookTransport(webhookUrl),
    };
    await Promise.all([
      sendDueMessages(app.database.db, transports),
      sendDueMessages(app.database.db, transports),
      sendDueMessages(app.database.db, transports),
    ]);
    const delivered = mails.slice(before).filter((mail) => mail.to === 'front@brightsmile.example');
    expect(delivered).toHaveLength(alerts.length);
    const states = await app.database.db
      .select({ state: outbox.state })
      .from(outbox)
      .where(eq(outbox.kind, 'new_patient_alert'));
    expect(states.filter((each) => each.state === 'pending')).toHaveLength(0);
  });

  it('two API instances on one PostgreSQL database send each message exactly once', async () => {
    const transports = {
      smtpUrl,
      smsWebhookUrl: webhookUrl,
      mailFrom: 'Bright Smile <desk@brightsmile.example>',
    };
    const second = await createSecondApp(app, { ...transports, seedDemo: false });
    if (!second) return; // PGlite: one process owns its data folder; the race above is its case.
    try {
      for (let index = 0; index < 30; index += 1) await newPatient();
      const due = await app.database.db
        .select({ id: outbox.id })
        .from(outbox)
        .where(and(eq(outbox.kind, 'new_patient_alert'), eq(outbox.state, 'pending')));
      expect(due.length).toBeGreaterThanOrEqual(30);
      const before = mails.length;
      // Each instance's own sender, several runs at once on each, as their timers would.
      await Promise.all([
        app.outboxSender.runOnce(),
        second.outboxSender.runOnce(),
        sendDueMessages(app.database.db, { email: smtpTransport(smtpUrl, 'a@x.example'), sms: null }),
        sendDueMessages(second.database.db, { email: smtpTransport(smtpUrl, 'b@x.example'), sms: null }),
      ]);
      const delivered = mails.slice(before).filter((mail) => mail.to === 'front@brightsmile.example');
      expect(delivered).toHaveLength(due.length);
      const sent = await app.database.db
        .select({ id: outbox.id })
        .from(outbox)
        .where(and(eq(outbox.kind, 'new_patient_alert'), eq(outbox.state, 'sent')));
      expect(sent.length).toBeGreaterThanOrEqual(due.length);
    } finally {
      await second.close();
    }
  });
});
