import type { RecallRow } from '@dental/shared/domain';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { addDays, clinicToday } from '../../db/clinicTime';
import { appointments, auditLog, dentists, outbox, patientRecalls, patients } from '../../db/schema';
import {
  addPatient,
  authHeader,
  createSecondApp,
  createTestApp,
  fieldErrorsOf,
  login,
} from '../../test/testApp';
import { sendRecallReminders } from './recallAutoReminders';

/** Automatic recall reminders: a clinic's setting, one reminder per due date, across API processes. */
describe('automatic recall reminders', () => {
  let app: FastifyInstance;
  let admin: string;
  let clinicId: number;
  let dentistId: number;
  let today: string;
  let visits = 0;

  const db = () => app.database.db;
  const send = (method: 'GET' | 'PUT', url: string, payload?: object) =>
    app.inject({ method, url, headers: authHeader(admin), ...(payload ? { payload } : {}) });
  const settings = async (change: object) => {
    const response = await send('PUT', '/api/settings', change);
    expect(response.statusCode).toBe(200);
  };

  /**
   * A patient with an e-mail address (or none) whose hygiene recall falls due `dueIn` days from today:
   * a cleaning completed long ago starts the recall, and its due date is then set where the test needs it.
   */
  const duePatient = async (dueIn: number, email: string | null = 'due@patients.example') => {
    visits += 1;
    const patientId = await addPatient(app, clinicId, 'Auto Recall');
    if (email) await db().update(patients).set({ email }).where(eq(patients.id, patientId));
    await db()
      .insert(appointments)
      .values({
        clinicId,
        patientId,
        dentistId,
        date: addDays('2024-01-01', visits),
        time: '07:00',
        treatment: 'Regular Cleaning',
        status: 'completed',
      });
    await db()
      .update(patientRecalls)
      .set({ dueDate: addDays(today, dueIn) })
      .where(and(eq(patientRecalls.clinicId, clinicId), eq(patientRecalls.patientId, patientId)));
    return patientId;
  };
  const remindersOf = (patientIds: number[]) =>
    db()
      .select({ patientId: outbox.patientId, channel: outbox.channel, body: outbox.body })
      .from(outbox)
      .where(and(eq(outbox.kind, 'recall_reminder'), inArray(outbox.patientId, patientIds)));
  const recallRow = async (patientId: number): Promise<RecallRow | undefined> => {
    const response = await send('GET', `/api/patients/${patientId}/recall`);
    expect(response.statusCode).toBe(200);
    return (response.json().data as RecallRow[]).find((row) => row.type_name === 'Hygiene recall');
  };

  beforeAll(async () => {
    app = await createTestApp();
    const signedIn = await login(app, 'admin', 'admin123');
    admin = signedIn.token;
    clinicId = signedIn.user.clinic_id;
    const [dentist] = await db()
      .select({ id: dentists.id })
      .from(dentists)
      .where(eq(dentists.clinicId, clinicId))
      .limit(1);
    dentistId = dentist?.id ?? 0;
    today = await clinicToday(db(), clinicId);
  });
  afterAll(async () => {
    await app.close();
  });

  it('is off by default: a patient coming due is sent nothing', async () => {
    const body = (await send('GET', '/api/settings')).json();
    expect(body).toMatchObject({ recallRemindersEnabled: false, recallReminderDaysBefore: 14 });
    const patientId = await duePatient(3);
    await app.recallReminders.runOnce();
    expect(await sendRecallReminders(db())).toBe(0);
    expect(await remindersOf([patientId])).toEqual([]);
  });

  it('refuses days out of bounds beside the field, and changes nothing', async () => {
    for (const days of [0, 91, 2.5, '14']) {
      const response = await send('PUT', '/api/settings', {
        recallRemindersEnabled: true,
        recallReminderDaysBefore: days,
      });
      expect(response.statusCode).toBe(400);
      expect(fieldErrorsOf(response).map((error) => error.field)).toEqual(['recallReminderDaysBefore']);
    }
    const body = (await send('GET', '/api/settings')).json();
    expect(body).toMatchObject({ recallRemindersEnabled: false, recallReminderDaysBefore: 14 });
  });

  it('on, reminds each patient due within the days once, and only those not booked, snoozed or off', async () => {
    const dueSoon = await duePatient(5);
    const dueToday = await duePatient(0);
    const notYet = await duePatient(8);
    const overdue = await duePatient(-2);
    const booked = await duePatient(4);
    await db()
      .insert(appointments)
      .values({
        clinicId,
        patientId: booked,
        dentistId,
        date: addDays(today, 2),
        time: '05:00',
        treatment: 'Regular Cleaning',
        status: 'pending',
      });
    const snoozed = await duePatient(3);
    await db()
      .update(patientRecalls)
      .set({ snoozedUntil: addDays(today, 1) })
      .where(eq(patientRecalls.patientId, snoozed));
    const turnedOff = await duePatient(3);
    await db().update(patientRecalls).set({ active: false }).where(eq(patientRecalls.patientId, turnedOff));
    const noAddress = await duePatient(3, null);
    const everyone = [dueSoon, dueToday, notYet, overdue, booked, snoozed, turnedOff, noAddress];

    await settings({ recallRemindersEnabled: true, recallReminderDaysBefore: 7 });
    await app.recallReminders.runOnce();
    const queued = await remindersOf(everyone);
    expect(queued.map((message) => message.patientId).sort()).toEqual([dueSoon, dueToday].sort());
    expect(queued.every((message) => message.channel === 'email')).toBe(true);
    expect(queued[0]?.body).toMatch(/you are due for your hygiene recall/);
    expect((await recallRow(dueSoon))?.last_contact).toMatchObject({
      kind: 'reminder',
      note: 'Automatic reminder by email',
    });
    expect((await recallRow(notYet))?.last_contact).toBeNull();
    const audited = await db()
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.clinicId, clinicId),
          eq(auditLog.action, 'recall_reminded'),
          eq(auditLog.entityId, String(dueSoon)),
          isNull(auditLog.userId),
        ),
      );
    expect(audited).toEqual([{ details: expect.objectContaining({ automatic: true, channels: ['email'] }) }]);

    // A second run: each due date has had its reminder.
    await app.recallReminders.runOnce();
    expect(await remindersOf(everyone)).toHaveLength(2);
    // A new due date within the days (set by hand) is reminded once more; the days widened reach the next.
    await db()
      .update(patientRecalls)
      .set({ dueDate: addDays(today, 6), dueSetByHand: true })
      .where(eq(patientRecalls.patientId, dueSoon));
    await settings({ recallReminderDaysBefore: 10 });
    await app.recallReminders.runOnce();
    const after = await remindersOf(everyone);
    expect(after.filter((message) => message.patientId === dueSoon)).toHaveLength(2);
    expect(after.filter((message) => message.patientId === notYet)).toHaveLength(1);
    expect(after).toHaveLength(4);
  });

  it('sends nothing while both reminder channels are off, and catches up once one is on', async () => {
    await settings({ notifications: { emailReminders: false, smsReminders: false } });
    const patientId = await duePatient(2);
    await app.recallReminders.runOnce();
    expect(await remindersOf([patientId])).toEqual([]);
    await settings({ notifications: { smsReminders: true } });
    await app.recallReminders.runOnce();
    // The patient has an e-mail address and a phone; only SMS is on.
    expect((await remindersOf([patientId])).map((message) => message.channel)).toEqual(['sms']);
    await settings({ notifications: { emailReminders: true, smsReminders: false } });
  });

  it('queues one reminder a recall when runs meet, in one process and across two', async () => {
    const due = [];
    for (let index = 0; index < 12; index += 1) due.push(await duePatient(1 + (index % 5)));
    const second = await createSecondApp(app, { seedDemo: false });
    try {
      // PGlite: one process owns its data folder, so the runs meet within it; PostgreSQL: two API
      // processes' jobs, and extra runs on each, as their timers and a restart would meet.
      const runs = second
        ? [
            app.recallReminders.runOnce(),
            second.recallReminders.runOnce(),
            sendRecallReminders(db()),
            sendRecallReminders(second.database.db),
          ]
        : [app.recallReminders.runOnce(), sendRecallReminders(db()), sendRecallReminders(db())];
      await Promise.all(runs);
      const queued = await remindersOf(due);
      expect(queued.map((message) => message.patientId).sort()).toEqual([...due].sort());
    } finally {
      await second?.close();
    }
  });
});
