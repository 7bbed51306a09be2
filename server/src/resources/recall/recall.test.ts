import { NO_RECALL_CHANNEL, type RecallRow } from '@dental/shared/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { appointments, dentists, outbox, patientRecalls, patients } from '../../db/schema';
import { addPatient, apiSender, createTestApp, fieldErrorsOf, login } from '../../test/testApp';

/** Recall: due dates kept from completed visits, the recall list staff work, and its actions. */
describe('recall', () => {
  let app: FastifyInstance;
  let admin: string;
  let receptionist: string;
  let clinicId: number;
  let dentistId: number;
  let otherDentistId: number;

  const db = () => app.database.db;
  const send = apiSender(() => app);
  let visits = 0;
  /** A visit straight into the database, as the calendar would hold it; each at an hour of its own. */
  const visit = (patientId: number, date: string, treatment: string, status: string, dentist = dentistId) => {
    visits += 1;
    const time = `${String(6 + 2 * (visits % 8)).padStart(2, '0')}:00`;
    return db()
      .insert(appointments)
      .values({ clinicId, patientId, dentistId: dentist, date, time, treatment, status });
  };
  const typeId = async (name: string) => {
    const { data } = (await send(receptionist, 'GET', '/api/recall-types')).json() as {
      data: Array<{ id: number; name: string }>;
    };
    const found = data.find((type) => type.name === name);
    if (!found) throw new Error(`No recall type ${name}`);
    return found.id;
  };
  /** The patient's rows of the recall list, looking far ahead. */
  const recallOf = async (patientId: number, query = 'due_by=2099-12-31'): Promise<RecallRow[]> => {
    const [patient] = await db()
      .select({ name: patients.name })
      .from(patients)
      .where(eq(patients.id, patientId));
    const response = await send(
      receptionist,
      'GET',
      `/api/recall?${query}&search=${encodeURIComponent(patient?.name ?? '')}&limit=100`,
    );
    expect(response.statusCode).toBe(200);
    return (response.json().data as RecallRow[]).filter((row) => row.patient_id === patientId);
  };
  const hygiene = async (patientId: number) =>
    (await recallOf(patientId)).find((row) => row.type_name === 'Hygiene recall');

  beforeAll(async () => {
    app = await createTestApp();
    const signedIn = await login(app, 'admin', 'admin123');
    admin = signedIn.token;
    clinicId = signedIn.user.clinic_id;
    receptionist = (await login(app, 'receptionist', 'receptionist123')).token;
    const rows = await db()
      .select({ id: dentists.id })
      .from(dentists)
      .where(eq(dentists.clinicId, clinicId))
      .limit(2);
    dentistId = rows[0]?.id ?? 0;
    otherDentistId = rows[1]?.id ?? 0;
  });
  afterAll(async () => {
    await app.close();
  });

  it('a clinic starts with the hygiene recall and the checkup, each of its own', async () => {
    const ours = (await send(receptionist, 'GET', '/api/recall-types')).json().data;
    expect(ours).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'Checkup',
          treatment: 'Dental Checkup',
          interval_months: 12,
          active: true,
        }),
        expect.objectContaining({
          name: 'Hygiene recall',
          treatment: 'Regular Cleaning',
          interval_months: 6,
          active: true,
        }),
      ]),
    );
    const harbor = (await login(app, 'harbor.admin', 'harbor123')).token;
    const theirs = (await send(harbor, 'GET', '/api/recall-types')).json().data as Array<{ id: number }>;
    expect(theirs).toHaveLength(2);
    expect(theirs.map((type) => type.id)).not.toEqual(ours.map((type: { id: number }) => type.id));
  });

  it('a completed cleaning sets the hygiene recall six months on; a later one moves it, an older one does not', async () => {
    const patientId = await addPatient(app, clinicId, 'Recall Cycle');
    await visit(patientId, '2026-03-10', 'Regular Cleaning', 'completed');
    expect(await hygiene(patientId)).toMatchObject({
      last_visit: '2026-03-10',
      last_dentist_id: dentistId,
      due_date: '2026-09-10',
      due_set_by_hand: false,
      scheduled_on: null,
      last_contact: null,
    });
    await visit(patientId, '2026-06-01', 'Regular Cleaning', 'completed');
    expect((await hygiene(patientId))?.due_date).toBe('2026-12-01');
    await visit(patientId, '2026-01-05', 'Regular Cleaning', 'completed');
    expect((await hygiene(patientId))?.due_date).toBe('2026-12-01');
    // A booked or cancelled visit is no visit made; a checkup starts the checkup's cycle only.
    await visit(patientId, '2026-07-01', 'Regular Cleaning', 'cancelled');
    expect((await hygiene(patientId))?.due_date).toBe('2026-12-01');
    await visit(patientId, '2026-02-02', 'Dental Checkup', 'completed');
    const checkup = (await recallOf(patientId)).find((row) => row.type_name === 'Checkup');
    expect(checkup?.due_date).toBe('2027-02-02');
  });

  it('a visit of its treatment booked from today on marks the recall scheduled', async () => {
    const patientId = await addPatient(app, clinicId, 'Recall Booked');
    await visit(patientId, '2026-02-10', 'Regular Cleaning', 'completed');
    expect((await recallOf(patientId, 'due_by=2099-12-31&scheduled=no')).length).toBe(1);
    await visit(patientId, '2031-03-03', 'Regular Cleaning', 'pending');
    expect((await hygiene(patientId))?.scheduled_on).toBe('2031-03-03');
    expect(await recallOf(patientId, 'due_by=2099-12-31&scheduled=no')).toHaveLength(0);
    expect(await recallOf(patientId, 'due_by=2099-12-31&scheduled=yes')).toHaveLength(1);
  });

  it("keeps each recall's latest booked day as visits are booked, moved, cancelled, completed or moved to another patient", async () => {
    const patientId = await addPatient(app, clinicId, 'Recall Booked Day');
    const otherId = await addPatient(app, clinicId, 'Recall Booked Other');
    await visit(patientId, '2026-02-10', 'Regular Cleaning', 'completed');
    await visit(otherId, '2026-02-11', 'Regular Cleaning', 'completed');
    const hygieneId = await typeId('Hygiene recall');
    const bookedDay = async (patient: number) => {
      const [row] = await db()
        .select({ bookedUntil: patientRecalls.bookedUntil, version: patientRecalls.version })
        .from(patientRecalls)
        .where(
          and(
            eq(patientRecalls.clinicId, clinicId),
            eq(patientRecalls.patientId, patient),
            eq(patientRecalls.recallTypeId, hygieneId),
          ),
        );
      return row;
    };
    const before = await bookedDay(patientId);
    expect(before?.bookedUntil).toBeNull();
    const [first] = await visit(patientId, '2031-03-03', 'Regular Cleaning', 'pending').returning({
      id: appointments.id,
    });
    const [second] = await visit(patientId, '2031-05-05', 'Regular Cleaning', 'confirmed').returning({
      id: appointments.id,
    });
    // Another treatment's visit is not this recall's.
    await visit(patientId, '2032-01-01', 'Root Canal', 'pending');
    // Bookkeeping, not an edit another desk holds: the version stays.
    expect(await bookedDay(patientId)).toEqual({ bookedUntil: '2031-05-05', version: before?.version });
    const change = (id: number | undefined, values: Partial<typeof appointments.$inferInsert>) =>
      db()
        .update(appointments)
        .set(values)
        .where(and(eq(appointments.clinicId, clinicId), eq(appointments.id, id ?? 0)));
    await change(second?.id, { date: '2031-04-04' });
    expect((await bookedDay(patientId))?.bookedUntil).toBe('2031-04-04');
    await change(second?.id, { status: 'cancelled' });
    expect((await bookedDay(patientId))?.bookedUntil).toBe('2031-03-03');
    await change(first?.id, { patientId: otherId });
    expect((await bookedDay(patientId))?.bookedUntil).toBeNull();
    expect((await bookedDay(otherId))?.bookedUntil).toBe('2031-03-03');
    await db()
      .delete(appointments)
      .where(and(eq(appointments.clinicId, clinicId), eq(appointments.id, first?.id ?? 0)));
    expect((await bookedDay(otherId))?.bookedUntil).toBeNull();
    // A visit booked in the past and never completed is no booking to come: the recall is not scheduled.
    await visit(patientId, '2026-03-01', 'Regular Cleaning', 'pending');
    expect((await bookedDay(patientId))?.bookedUntil).toBe('2026-03-01');
    expect(await recallOf(patientId, 'due_by=2099-12-31&scheduled=no')).toHaveLength(1);
    expect((await hygiene(patientId))?.scheduled_on).toBeNull();
  });

  it("a new recall type takes its patients' booked visits of its treatment", async () => {
    const patientId = await addPatient(app, clinicId, 'Recall Booked Type');
    await visit(patientId, '2026-01-20', 'Cavity Filling', 'completed');
    await visit(patientId, '2031-06-06', 'Cavity Filling', 'confirmed');
    const created = await send(admin, 'POST', '/api/recall-types', {
      name: 'Filling review',
      treatment: 'Cavity Filling',
      interval_months: 12,
    });
    expect(created.statusCode).toBe(201);
    const type = created.json() as { id: number };
    const row = (await recallOf(patientId)).find((each) => each.type_id === type.id);
    expect(row?.scheduled_on).toBe('2031-06-06');
    expect(await recallOf(patientId, 'due_by=2099-12-31&scheduled=yes')).toHaveLength(1);
  });

  it('filters by period, type, the dentist last seen and contact, soonest first', async () => {
    const early = await addPatient(app, clinicId, 'Recall Filter');
    const late = await addPatient(app, clinicId, 'Recall Filter');
    await visit(early, '2026-01-15', 'Regular Cleaning', 'completed');
    await visit(late, '2026-04-15', 'Regular Cleaning', 'completed', otherDentistId);
    const page = (query: string) =>
      send(receptionist, 'GET', `/api/recall?search=Recall%20Filter&${query}`).then(
        (response) => response.json().data as RecallRow[],
      );
    const both = await page('due_by=2099-12-31');
    expect(both.map((row) => row.patient_id)).toEqual([early, late]);
    // Due by the end of July: the early one (due 2026-07-15) only; from August on: the late one.
    expect((await page('due_by=2026-07-31')).map((row) => row.patient_id)).toEqual([early]);
    expect((await page('due_by=2099-12-31&due_from=2026-08-01')).map((row) => row.patient_id)).toEqual([
      late,
    ]);
    expect(
      (await page(`due_by=2099-12-31&dentist_id=${otherDentistId}`)).map((row) => row.patient_id),
    ).toEqual([late]);
    expect(await page(`due_by=2099-12-31&type_id=${await typeId('Checkup')}`)).toHaveLength(0);
    expect(await page('due_by=2099-12-31&contacted=yes')).toHaveLength(0);
    const bad = await send(receptionist, 'GET', '/api/recall?scheduled=maybe&due_by=tomorrow');
    expect(bad.statusCode).toBe(400);
    expect(
      fieldErrorsOf(bad)
        .map((error) => error.field)
        .sort(),
    ).toEqual(expect.arrayContaining(['due_by', 'scheduled']));
  });

  it('is worked from the list: called, snoozed, set by hand, turned off, each under its version', async () => {
    const patientId = await addPatient(app, clinicId, 'Recall Worked');
    await visit(patientId, '2026-03-01', 'Regular Cleaning', 'completed');
    const hygieneId = await typeId('Hygiene recall');
    const url = `/api/recall/${patientId}/${hygieneId}`;

    const called = await send(receptionist, 'POST', `${url}/contact`, { note: 'Will call back in January' });
    expect(called.statusCode).toBe(200);
    expect(called.json().last_contact).toMatchObject({ kind: 'call', note: 'Will call back in January' });
    expect(await recallOf(patientId, 'due_by=2099-12-31&contacted=no')).toHaveLength(0);

    const version = called.json().version as number;
    const stale = await send(receptionist, 'PATCH', url, { snoozed_until: '2027-01-15' }, version - 1);
    expect(stale.statusCode).toBe(412);
    const snoozed = await send(receptionist, 'PATCH', url, { snoozed_until: '2027-01-15' }, version);
    expect(snoozed.statusCode).toBe(200);
    expect(snoozed.json()).toMatchObject({ due_date: '2026-09-01', snoozed_until: '2027-01-15' });
    // Out of the list until the day it was snoozed to.
    expect(await recallOf(patientId, 'due_by=2027-01-14')).toHaveLength(0);
    expect(await recallOf(patientId, 'due_by=2027-01-15')).toHaveLength(1);

    const byHand = await send(receptionist, 'PATCH', url, { due_date: '2027-03-01', snoozed_until: null });
    expect(byHand.json()).toMatchObject({
      due_date: '2027-03-01',
      due_set_by_hand: true,
      snoozed_until: null,
    });
    // The next completed cleaning starts a new cycle: by the visit again, nothing of the last one kept.
    await visit(patientId, '2026-11-02', 'Regular Cleaning', 'completed');
    expect(await hygiene(patientId)).toMatchObject({
      due_date: '2027-05-02',
      due_set_by_hand: false,
      last_contact: null,
    });

    const off = await send(receptionist, 'PATCH', url, { active: false, note: 'Moved abroad' });
    expect(off.json()).toMatchObject({ active: false, note: 'Moved abroad' });
    expect(await recallOf(patientId)).toHaveLength(0);

    const missing = await send(receptionist, 'PATCH', `/api/recall/${patientId}/${await typeId('Checkup')}`, {
      active: false,
    });
    expect(missing.statusCode).toBe(404);
    const harbor = (await login(app, 'harbor.admin', 'harbor123')).token;
    expect((await send(harbor, 'PATCH', url, { active: true })).statusCode).toBe(404);
  });

  it('sends a reminder through the outbox by the channels the clinic allows, or says none can go', async () => {
    const patientId = await addPatient(app, clinicId, 'Recall Reminded');
    await db().update(patients).set({ email: 'reminded@example.com' }).where(eq(patients.id, patientId));
    await visit(patientId, '2026-03-03', 'Regular Cleaning', 'completed');
    const url = `/api/recall/${patientId}/${await typeId('Hygiene recall')}/reminder`;
    const sent = await send(receptionist, 'POST', url);
    expect(sent.statusCode).toBe(200);
    expect(sent.json().queued).toEqual(['email']);
    expect(sent.json().recall.last_contact).toMatchObject({ kind: 'reminder' });
    const [message] = await db()
      .select()
      .from(outbox)
      .where(and(eq(outbox.clinicId, clinicId), eq(outbox.patientId, patientId)));
    expect(message).toMatchObject({
      kind: 'recall_reminder',
      channel: 'email',
      recipient: 'reminded@example.com',
    });
    expect(message?.body).toContain('you are due for your hygiene recall');

    const unreachable = await addPatient(app, clinicId, 'Recall Unreachable');
    await visit(unreachable, '2026-03-03', 'Regular Cleaning', 'completed');
    // SMS reminders are off in the demo clinic, and this patient has no e-mail address.
    const refused = await send(
      receptionist,
      'POST',
      `/api/recall/${unreachable}/${await typeId('Hygiene recall')}/reminder`,
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(NO_RECALL_CHANNEL);
    const written = await db().select().from(outbox).where(eq(outbox.patientId, unreachable));
    expect(written).toHaveLength(0);
    expect((await recallOf(unreachable))[0]?.last_contact).toBeNull();
  });

  it("recall types are the admin's: added with their patients' last visits, changed under If-Match", async () => {
    const patientId = await addPatient(app, clinicId, 'Recall Root');
    await visit(patientId, '2026-05-20', 'Root Canal', 'completed');
    const body = { name: 'Root canal review', treatment: 'Root Canal', interval_months: 3 };
    expect((await send(receptionist, 'POST', '/api/recall-types', body)).statusCode).toBe(403);
    const created = await send(admin, 'POST', '/api/recall-types', body);
    expect(created.statusCode).toBe(201);
    const type = created.json() as { id: number; version: number };
    const review = () => recallOf(patientId).then((rows) => rows.find((row) => row.type_id === type.id));
    expect((await review())?.due_date).toBe('2026-08-20');

    const twice = await send(admin, 'POST', '/api/recall-types', { ...body, name: 'ROOT CANAL REVIEW' });
    expect(twice.statusCode).toBe(409);
    expect(fieldErrorsOf(twice)).toEqual([{ field: 'name', message: 'A recall type of this name exists' }]);
    const bad = await send(admin, 'POST', '/api/recall-types', { ...body, name: 'x', interval_months: 0 });
    expect(fieldErrorsOf(bad)[0]).toEqual({ field: 'interval_months', message: 'At least 1 month' });

    const stale = await send(
      admin,
      'PUT',
      `/api/recall-types/${type.id}`,
      { ...body, interval_months: 6 },
      type.version + 1,
    );
    expect(stale.statusCode).toBe(412);
    const longer = await send(
      admin,
      'PUT',
      `/api/recall-types/${type.id}`,
      { ...body, interval_months: 6 },
      type.version,
    );
    expect(longer.statusCode).toBe(200);
    expect((await review())?.due_date).toBe('2026-11-20');
    // Turned off: out of the list, kept for later.
    await send(admin, 'PUT', `/api/recall-types/${type.id}`, { ...body, interval_months: 6, active: false });
    expect(await review()).toBeUndefined();
  });

  it('the list is open to the roles that see patients, and pages with its total', async () => {
    const dentist = (await login(app, 'dentist', 'dentist123')).token;
    expect((await send(dentist, 'GET', '/api/recall')).statusCode).toBe(200);
    const { rows } = await db().execute(sql`select count(*)::int as n from patient_recalls r
      join recall_types t on t.clinic_id = r.clinic_id and t.id = r.recall_type_id
      join patients p on p.clinic_id = r.clinic_id and p.id = r.patient_id
      where r.clinic_id = ${clinicId} and r.active and t.active and p.status = 'active'
        and r.follow_up_on <= '2099-12-31'`);
    const expected = (rows[0] as { n: number }).n;
    const first = (await send(receptionist, 'GET', '/api/recall?due_by=2099-12-31&limit=10')).json();
    expect(first.total).toBe(expected);
    expect(first.data).toHaveLength(Math.min(10, expected));
    // Counting stops ten pages past the one asked for.
    const capped = (await send(receptionist, 'GET', '/api/recall?due_by=2099-12-31&limit=1')).json();
    expect(capped).toMatchObject({ total: Math.min(expected, 10), total_capped: expected > 10 });
  });

  it("answers one patient's recalls for their details, and 404 for a patient not of the clinic", async () => {
    const patientId = await addPatient(app, clinicId, 'Recall Details');
    expect((await send(receptionist, 'GET', `/api/patients/${patientId}/recall`)).json()).toEqual({
      data: [],
    });
    await visit(patientId, '2026-04-04', 'Regular Cleaning', 'completed');
    await visit(patientId, '2026-04-20', 'Dental Checkup', 'completed');
    const checkupId = await typeId('Checkup');
    const checkup = (await recallOf(patientId)).find((row) => row.type_id === checkupId);
    const off = await send(
      receptionist,
      'PATCH',
      `/api/recall/${patientId}/${checkupId}`,
      { active: false, note: 'Moved away' },
      checkup?.version,
    );
    expect(off.statusCode).toBe(200);
    const response = await send(receptionist, 'GET', `/api/patients/${patientId}/recall`);
    expect(response.statusCode).toBe(200);
    // By the type's name, and the one turned off for them is there too, with its note.
    expect(response.json().data).toEqual([
      expect.objectContaining({
        type_name: 'Checkup',
        due_date: '2027-04-20',
        active: false,
        note: 'Moved away',
      }),
      expect.objectContaining({ type_name: 'Hygiene recall', due_date: '2026-10-04', active: true }),
    ]);
    expect((await send(receptionist, 'GET', '/api/patients/999999/recall')).statusCode).toBe(404);
    const harbor = (await login(app, 'harbor.admin', 'harbor123')).token;
    expect((await send(harbor, 'GET', `/api/patients/${patientId}/recall`)).statusCode).toBe(404);
  });
});
