import {
  type Appointment,
  WAITLIST_NO_CHANNEL,
  WAITLIST_OFFER_PAST,
  type WaitlistBody,
  type WaitlistEntry,
  type WaitlistMatch,
} from '@dental/shared/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { appointments, dentists, outbox, patients, waitlistOffers } from '../../db/schema';
import { addPatient, apiSender, createTestApp, fieldErrorsOf, login } from '../../test/testApp';

/** The waitlist: entries, the freed times they are offered, and booking one off the list. */
describe('waitlist', () => {
  let app: FastifyInstance;
  let receptionist: string;
  let harbor: string;
  let clinicId: number;
  /** Works Monday to Friday, 09:00-17:00. */
  let sarah: number;
  /** Works Monday to Saturday. */
  let michael: number;

  const db = () => app.database.db;
  const send = apiSender(() => app);
  const dentistNamed = async (name: string) => {
    const [row] = await db()
      .select({ id: dentists.id })
      .from(dentists)
      .where(and(eq(dentists.clinicId, clinicId), eq(dentists.name, name)));
    if (!row) throw new Error(`No dentist ${name}`);
    return row.id;
  };
  /** An entry wanting Mondays in March 2027, any time of day, unless told otherwise. */
  const wish = (patientId: number, fields: Partial<WaitlistBody> = {}): WaitlistBody => ({
    patient_id: patientId,
    treatment: 'Regular Cleaning',
    dentist_id: null,
    weekdays: [1],
    part_of_day: 'any',
    earliest_on: '2027-03-01',
    latest_on: '2027-03-31',
    note: '',
    ...fields,
  });
  const addEntry = async (body: WaitlistBody, token = receptionist): Promise<WaitlistEntry> => {
    const response = await send(token, 'POST', '/api/waitlist', body);
    expect(response.statusCode).toBe(201);
    return response.json() as WaitlistEntry;
  };
  const book = async (body: object) => {
    const response = await send(receptionist, 'POST', '/api/appointments', {
      patient: 'x',
      phone: '555 000 0000',
      ...body,
    });
    return response;
  };
  const booked = async (body: object): Promise<Appointment> => {
    const response = await book(body);
    expect(response.statusCode).toBe(201);
    return response.json() as Appointment;
  };
  const matchesOf = async (dentistId: number, date: string, time: string, duration: number) => {
    const response = await send(
      receptionist,
      'GET',
      `/api/waitlist/matches?dentist_id=${dentistId}&date=${date}&time=${time}&duration=${duration}`,
    );
    expect(response.statusCode).toBe(200);
    return (response.json() as { data: WaitlistMatch[] }).data;
  };

  beforeAll(async () => {
    app = await createTestApp();
    const signedIn = await login(app, 'receptionist', 'receptionist123');
    receptionist = signedIn.token;
    clinicId = signedIn.user.clinic_id;
    harbor = (await login(app, 'harbor.admin', 'harbor123')).token;
    sarah = await dentistNamed('Dr. Sarah Johnson');
    michael = await dentistNamed('Dr. Michael Chen');
  });
  afterAll(async () => {
    await app.close();
  });

  it('a receptionist puts a patient on the waitlist; the entry carries its treatment’s length and names', async () => {
    const patientId = await addPatient(app, clinicId, 'Waiting Wendy');
    const entry = await addEntry(
      wish(patientId, {
        dentist_id: sarah,
        weekdays: [5, 1, 3],
        part_of_day: 'morning',
        note: 'Any cancellation',
      }),
    );
    expect(entry).toMatchObject({
      patient_id: patientId,
      patient_name: expect.stringContaining('Waiting Wendy'),
      treatment: 'Regular Cleaning',
      duration: 60,
      dentist_id: sarah,
      dentist_name: 'Dr. Sarah Johnson',
      weekdays: [1, 3, 5],
      part_of_day: 'morning',
      earliest_on: '2027-03-01',
      latest_on: '2027-03-31',
      note: 'Any cancellation',
      version: 1,
    });
    const read = await send(receptionist, 'GET', `/api/waitlist/${entry.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.headers.etag).toBe('"1"');
    const [audited] = (
      await db().execute(
        sql`select action from audit_log where clinic_id = ${clinicId} and entity = 'waitlist' and entity_id = ${String(entry.id)}`,
      )
    ).rows as Array<{ action: string }>;
    expect(audited?.action).toBe('create');
  });

  it('refuses a wish that cannot be met, naming the field', async () => {
    const patientId = await addPatient(app, clinicId, 'Wishful');
    const noDays = await send(receptionist, 'POST', '/api/waitlist', wish(patientId, { weekdays: [] }));
    expect(noDays.statusCode).toBe(400);
    expect(fieldErrorsOf(noDays)).toEqual([{ field: 'weekdays', message: 'Choose at least one weekday' }]);
    const backwards = await send(
      receptionist,
      'POST',
      '/api/waitlist',
      wish(patientId, { earliest_on: '2027-04-01', latest_on: '2027-03-01' }),
    );
    expect(backwards.statusCode).toBe(400);
    expect(fieldErrorsOf(backwards).map((error) => error.field)).toEqual(['latest_on']);
    const badDay = await send(receptionist, 'POST', '/api/waitlist', wish(patientId, { weekdays: [0, 8] }));
    expect(badDay.statusCode).toBe(400);
    // The database keeps the same rules for any writer.
    await expect(
      db().execute(sql`insert into waitlist_entries (clinic_id, patient_id, treatment, weekdays, earliest_on, latest_on)
        values (${clinicId}, ${patientId}, 'Regular Cleaning', '{9}', '2027-03-02', '2027-03-01')`),
    ).rejects.toThrow();
  });

  it('keeps to the clinic: another clinic’s patient, dentist and entries are none of ours', async () => {
    const harborPatient = await send(harbor, 'GET', '/api/patients?limit=1');
    const theirPatient = (harborPatient.json() as { data: Array<{ id: number }> }).data[0]?.id ?? 0;
    const foreign = await send(receptionist, 'POST', '/api/waitlist', wish(theirPatient));
    expect(foreign.statusCode).toBe(400);
    expect(fieldErrorsOf(foreign).map((error) => error.field)).toEqual(['patient_id']);

    const ours = await addEntry(wish(await addPatient(app, clinicId, 'Ours Only')));
    expect((await send(harbor, 'GET', `/api/waitlist/${ours.id}`)).statusCode).toBe(404);
    expect((await send(harbor, 'PUT', `/api/waitlist/${ours.id}`, wish(theirPatient))).statusCode).toBe(404);
    expect((await send(harbor, 'DELETE', `/api/waitlist/${ours.id}`)).statusCode).toBe(404);
    const theirList = (await send(harbor, 'GET', '/api/waitlist?limit=100')).json() as {
      data: WaitlistEntry[];
    };
    expect(theirList.data.map((entry) => entry.id)).not.toContain(ours.id);
    const theirMatches = await send(
      harbor,
      'GET',
      `/api/waitlist/matches?dentist_id=${sarah}&date=2027-03-01&time=09:00&duration=60`,
    );
    expect(theirMatches.json()).toEqual({ data: [] });
  });

  it('pages the list oldest entry first, and filters it by dentist (any-dentist entries too) and name', async () => {
    const first = await addEntry(
      wish(await addPatient(app, clinicId, 'Paged Alpha'), { dentist_id: michael }),
    );
    const second = await addEntry(wish(await addPatient(app, clinicId, 'Paged Beta')));
    const third = await addEntry(wish(await addPatient(app, clinicId, 'Paged Gamma'), { dentist_id: sarah }));
    const page = await send(receptionist, 'GET', '/api/waitlist?search=Paged&limit=2&page=1');
    expect(page.json()).toMatchObject({ total: 3, page: 1, limit: 2 });
    expect((page.json() as { data: WaitlistEntry[] }).data.map((entry) => entry.id)).toEqual([
      first.id,
      second.id,
    ]);
    const next = (await send(receptionist, 'GET', '/api/waitlist?search=Paged&limit=2&page=2')).json() as {
      data: WaitlistEntry[];
    };
    expect(next.data.map((entry) => entry.id)).toEqual([third.id]);
    const michaels = (
      await send(receptionist, 'GET', `/api/waitlist?search=Paged&dentist_id=${michael}`)
    ).json() as { data: WaitlistEntry[] };
    expect(michaels.data.map((entry) => entry.id)).toEqual([first.id, second.id]);
    const bad = await send(receptionist, 'GET', '/api/waitlist?dentist_id=x');
    expect(bad.statusCode).toBe(400);
  });

  it('changes and deletes under If-Match: a stale version is refused with 412 and the current entry', async () => {
    const patientId = await addPatient(app, clinicId, 'Versioned');
    const entry = await addEntry(wish(patientId));
    const changed = await send(
      receptionist,
      'PUT',
      `/api/waitlist/${entry.id}`,
      { ...entry, part_of_day: 'afternoon' },
      1,
    );
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ part_of_day: 'afternoon', version: 2 });
    const stale = await send(receptionist, 'PUT', `/api/waitlist/${entry.id}`, { ...entry, note: 'mine' }, 1);
    expect(stale.statusCode).toBe(412);
    expect(stale.json()).toMatchObject({ current: { id: entry.id, part_of_day: 'afternoon', version: 2 } });
    expect((await send(receptionist, 'DELETE', `/api/waitlist/${entry.id}`, undefined, 1)).statusCode).toBe(
      412,
    );
    expect((await send(receptionist, 'DELETE', `/api/waitlist/${entry.id}`, undefined, 2)).statusCode).toBe(
      200,
    );
    expect((await send(receptionist, 'GET', `/api/waitlist/${entry.id}`)).statusCode).toBe(404);
  });

  it('offers a freed time to the entries it suits: dentist, weekday, part of day and length; best first', async () => {
    const date = '2027-03-08'; // a Monday
    // Sarah's 09:00-10:00 cleaning is cancelled; a checkup holds 10:00-10:30 after it.
    const freed = await booked({
      patient_id: await addPatient(app, clinicId, 'Cancelling'),
      dentist_id: sarah,
      date,
      time: '09:00',
      treatment: 'Regular Cleaning',
    });
    await booked({
      patient_id: await addPatient(app, clinicId, 'Next In Chair'),
      dentist_id: sarah,
      date,
      time: '10:00',
      treatment: 'Dental Checkup',
    });
    const cancelled = await send(receptionist, 'PATCH', `/api/appointments/${freed.id}/status`, {
      status: 'cancelled',
    });
    expect(cancelled.statusCode).toBe(200);

    const entryFor = async (name: string, fields: Partial<WaitlistBody>) =>
      addEntry(
        wish(await addPatient(app, clinicId, name), { earliest_on: date, latest_on: date, ...fields }),
      );
    const anyDentistCleaning = await entryFor('Any Cleaning', {});
    const sarahCleaning = await entryFor('Sarah Cleaning', { dentist_id: sarah, part_of_day: 'morning' });
    const anyCheckup = await entryFor('Any Checkup', { treatment: 'Dental Checkup' });
    const michaelOnly = await entryFor('Michael Only', { dentist_id: michael });
    const tuesdays = await entryFor('Tuesdays', { weekdays: [2] });
    const afternoons = await entryFor('Afternoons', { part_of_day: 'afternoon' });
    const rootCanal = await entryFor('Too Long', { treatment: 'Root Canal' });
    const later = await entryFor('Later Window', { earliest_on: '2027-03-09', latest_on: '2027-03-31' });

    const ours = new Set(
      [
        anyDentistCleaning,
        sarahCleaning,
        anyCheckup,
        michaelOnly,
        tuesdays,
        afternoons,
        rootCanal,
        later,
      ].map((entry) => entry.id),
    );
    // Earlier tests' entries want Mondays in March too: only this test's are looked at.
    const matches = (await matchesOf(sarah, date, '09:00', 60)).filter((match) => ours.has(match.entry.id));
    // Wanting Sarah beats any dentist; a visit filling the hour beats a half; then the longest waiting.
    expect(matches.map((match) => match.entry.id)).toEqual([
      sarahCleaning.id,
      anyDentistCleaning.id,
      anyCheckup.id,
    ]);
    expect(matches[0]).toMatchObject({
      wants_this_dentist: true,
      unfilled_minutes: 0,
      offer: { dentist_id: sarah, dentist_name: 'Dr. Sarah Johnson', date, time: '09:00', duration: 60 },
    });
    expect(matches[2]).toMatchObject({ unfilled_minutes: 30, offer: { time: '09:00', duration: 30 } });
    const offered = matches.map((match) => match.entry.id);
    for (const unsuited of [michaelOnly, tuesdays, afternoons, rootCanal, later])
      expect(offered).not.toContain(unsuited.id);
  });

  it('books a match from the waitlist and takes the entry off in the same write, or does neither', async () => {
    const date = '2027-03-15'; // a Monday
    const patientId = await addPatient(app, clinicId, 'Booked Off');
    const entry = await addEntry(wish(patientId, { earliest_on: date, latest_on: date }));
    const otherEntry = await addEntry(wish(await addPatient(app, clinicId, 'Someone Else')));
    const visitOf = (fields: object) => ({
      patient_id: patientId,
      dentist_id: sarah,
      date,
      time: '11:00',
      treatment: 'Regular Cleaning',
      ...fields,
    });
    const visitsOfPatient = async () =>
      (
        await db()
          .select({ id: appointments.id })
          .from(appointments)
          .where(and(eq(appointments.clinicId, clinicId), eq(appointments.patientId, patientId)))
      ).length;

    const wrongPatient = await book(visitOf({ waitlist_entry_id: otherEntry.id }));
    expect(wrongPatient.statusCode).toBe(400);
    expect(fieldErrorsOf(wrongPatient).map((error) => error.field)).toEqual(['waitlist_entry_id']);
    expect(await visitsOfPatient()).toBe(0);
    expect((await send(receptionist, 'GET', `/api/waitlist/${otherEntry.id}`)).statusCode).toBe(200);

    const visit = await booked(visitOf({ waitlist_entry_id: entry.id }));
    expect(visit).toMatchObject({ patient_id: patientId, time: '11:00' });
    expect((await send(receptionist, 'GET', `/api/waitlist/${entry.id}`)).statusCode).toBe(404);
    const [audited] = (
      await db().execute(
        sql`select details from audit_log where clinic_id = ${clinicId} and entity = 'waitlist'
          and entity_id = ${String(entry.id)} and action = 'delete'`,
      )
    ).rows as Array<{ details: unknown }>;
    expect(JSON.stringify(audited?.details)).toContain(String(visit.id));

    // The entry is gone now: a second booking naming it is refused, and books nothing.
    const again = await book(visitOf({ time: '14:00', waitlist_entry_id: entry.id }));
    expect(again.statusCode).toBe(409);
    expect(await visitsOfPatient()).toBe(1);

    // Another clinic's entry is not found in ours either.
    const theirPatient = (
      (await send(harbor, 'GET', '/api/patients?limit=1')).json() as { data: Array<{ id: number }> }
    ).data[0]?.id;
    const theirs = await addEntry(wish(theirPatient ?? 0), harbor);
    const foreign = await book(visitOf({ time: '15:00', waitlist_entry_id: theirs.id }));
    expect(foreign.statusCode).toBe(409);
    expect(await visitsOfPatient()).toBe(1);
  });

  it('keeps its entries when a patient or a dentist is removed: the patient’s go, a dentist’s wait for any', async () => {
    const admin = (await login(app, 'admin', 'admin123')).token;
    const hired = await send(admin, 'POST', '/api/dentists', {
      name: 'Dr. Brief Stay',
      email: `brief.${Date.now()}@brightsmile.example`,
      phone: '555-0199',
      specialty: 'General Dentistry',
      license: `DDS-W${Date.now() % 100000}`,
      years_of_experience: 3,
      working_days: '12345',
      status: 'active',
    });
    expect(hired.statusCode).toBe(201);
    const dentistId = (hired.json() as { id: number }).id;
    const entry = await addEntry(wish(await addPatient(app, clinicId, 'Loyal'), { dentist_id: dentistId }));
    expect((await send(admin, 'DELETE', `/api/dentists/${dentistId}`)).statusCode).toBe(200);
    expect((await send(receptionist, 'GET', `/api/waitlist/${entry.id}`)).json()).toMatchObject({
      dentist_id: null,
      dentist_name: null,
    });

    const leaving = await addEntry(wish(await addPatient(app, clinicId, 'Leaving')));
    expect((await send(admin, 'DELETE', `/api/patients/${leaving.patient_id}`)).statusCode).toBe(200);
    expect((await send(receptionist, 'GET', `/api/waitlist/${leaving.id}`)).statusCode).toBe(404);
  });

  it('shows an entry its earliest free times now: on its weekdays, in its part of the day, with its dentist', async () => {
    const entry = await addEntry(
      wish(await addPatient(app, clinicId, 'Soonest'), {
        dentist_id: sarah,
        weekdays: [1, 3],
        part_of_day: 'afternoon',
        earliest_on: '2020-01-01',
        latest_on: '2099-12-31',
      }),
    );
    const response = await send(receptionist, 'GET', `/api/waitlist/${entry.id}/free-times`);
    expect(response.statusCode).toBe(200);
    const { data } = response.json() as { data: Array<{ date: string; time: string; dentist_id: number }> };
    expect(data.length).toBe(3);
    for (const offer of data) {
      const weekday = new Date(`${offer.date}T00:00:00Z`).getUTCDay();
      expect([1, 3]).toContain(weekday);
      expect(offer.dentist_id).toBe(sarah);
      expect(offer.time >= '12:00' && offer.time < '17:00').toBe(true);
    }
    expect(data.map((offer) => offer.date)).toEqual([...data.map((offer) => offer.date)].sort());
    // An entry whose window has passed has none to show.
    const past = await addEntry(
      wish(await addPatient(app, clinicId, 'Too Late'), {
        earliest_on: '2020-01-01',
        latest_on: '2020-01-31',
      }),
    );
    expect((await send(receptionist, 'GET', `/api/waitlist/${past.id}/free-times`)).json()).toEqual({
      data: [],
      searched_until: null,
    });
  });

  it('tells a waitlisted patient of a time that opened through the outbox, by the channels the clinic allows', async () => {
    const patientId = await addPatient(app, clinicId, 'Told Tina');
    await db().update(patients).set({ email: 'tina@example.com' }).where(eq(patients.id, patientId));
    const entry = await addEntry(wish(patientId, { dentist_id: sarah }));
    const offer = { dentist_id: sarah, date: '2027-03-01', time: '14:00' };
    const told = await send(receptionist, 'POST', `/api/waitlist/${entry.id}/offer`, offer);
    expect(told.statusCode).toBe(200);
    // SMS reminders are off in the demo clinic: the e-mail alone goes.
    expect(told.json()).toEqual({ queued: ['email'] });
    const messages = await db()
      .select()
      .from(outbox)
      .where(and(eq(outbox.clinicId, clinicId), eq(outbox.patientId, patientId)));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      kind: 'waitlist_offer',
      channel: 'email',
      recipient: 'tina@example.com',
      state: 'pending',
    });
    expect(messages[0]?.body).toMatch(
      /^Hello Told, a time opened at .+ on Monday, 1 March 2027 at 14:00–15:00 with Dr\. Sarah Johnson: call us.* to take it\.$/,
    );
    expect(messages[0]?.body).not.toContain('Cleaning');
    const [audited] = (
      await db().execute(
        sql`select details from audit_log where clinic_id = ${clinicId} and entity = 'waitlist'
          and entity_id = ${String(entry.id)} and action = 'waitlist_offered'`,
      )
    ).rows as Array<{ details: Record<string, unknown> }>;
    expect(audited?.details).toMatchObject({ date: '2027-03-01', time: '14:00', channels: ['email'] });
    // Told is not booked: the entry waits on.
    expect((await send(receptionist, 'GET', `/api/waitlist/${entry.id}`)).statusCode).toBe(200);

    // Both channels on and both addresses: a message on each.
    const admin = (await login(app, 'admin', 'admin123')).token;
    const smsOn = await send(admin, 'PUT', '/api/settings', { notifications: { smsReminders: true } });
    expect(smsOn.statusCode).toBe(200);
    try {
      const both = await send(receptionist, 'POST', `/api/waitlist/${entry.id}/offer`, {
        ...offer,
        time: '15:00',
      });
      expect(both.json()).toEqual({ queued: ['email', 'sms'] });
    } finally {
      await send(admin, 'PUT', '/api/settings', { notifications: { smsReminders: false } });
    }
  });

  it('tells of a time once: a second offer of it is refused, queues nothing, and the matches say told', async () => {
    const date = '2027-03-22'; // a Monday
    const patientId = await addPatient(app, clinicId, 'Once Olga');
    await db().update(patients).set({ email: 'olga@example.com' }).where(eq(patients.id, patientId));
    const entry = await addEntry(wish(patientId, { dentist_id: sarah, earliest_on: date, latest_on: date }));
    const other = await addEntry(
      wish(await addPatient(app, clinicId, 'Untold Ursula'), { earliest_on: date, latest_on: date }),
    );
    const url = `/api/waitlist/${entry.id}/offer`;
    const offer = { dentist_id: sarah, date, time: '14:00' };
    const ours = (matches: WaitlistMatch[]) =>
      matches.filter((match) => [entry.id, other.id].includes(match.entry.id));
    const before = ours(await matchesOf(sarah, date, '14:00', 60));
    expect(before.map((match) => [match.entry.id, match.offer.time, match.told])).toEqual([
      [entry.id, '14:00', null],
      [other.id, '14:00', null],
    ]);
    const messagesOf = () => db().select().from(outbox).where(eq(outbox.patientId, patientId));

    const first = await send(receptionist, 'POST', url, offer);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ queued: ['email'] });
    const [record] = await db().select().from(waitlistOffers).where(eq(waitlistOffers.entryId, entry.id));
    expect(record).toMatchObject({ clinicId, dentistId: sarah, date, time: '14:00', channels: ['email'] });

    // After a reload, the matches say so for that offer alone.
    const after = ours(await matchesOf(sarah, date, '14:00', 60));
    expect(after[0]?.told).toEqual({ at: record?.createdAt.toISOString(), channels: ['email'] });
    expect(after[1]?.told).toBeNull();
    // Another freed time of the same day is another offer.
    const elsewhere = (await matchesOf(sarah, date, '15:00', 60)).find(
      (match) => match.entry.id === entry.id,
    );
    expect(elsewhere).toMatchObject({ offer: { time: '15:00' }, told: null });

    const again = await send(receptionist, 'POST', url, offer);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(
      /^Already told of this time on \d{4}-\d{2}-\d{2} at \d{2}:\d{2}, by e-mail$/,
    );
    // Asked again from two desks at once: both are refused.
    const raced = await Promise.all([
      send(receptionist, 'POST', url, offer),
      send(receptionist, 'POST', url, offer),
    ]);
    expect(raced.map((response) => response.statusCode)).toEqual([409, 409]);
    expect(await messagesOf()).toHaveLength(1);
    const offered = await db().execute(
      sql`select 1 from audit_log where clinic_id = ${clinicId} and entity = 'waitlist'
        and entity_id = ${String(entry.id)} and action = 'waitlist_offered'`,
    );
    expect(offered.rows).toHaveLength(1);

    // A time not told yet, offered from two desks at once: one tells, the other is refused.
    const racedFresh = await Promise.all(
      [0, 1].map(() => send(receptionist, 'POST', url, { ...offer, time: '16:00' })),
    );
    expect(racedFresh.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    expect(await messagesOf()).toHaveLength(2);
    // The database keeps the rule for any writer; the entry's offers go with it.
    await expect(
      db()
        .insert(waitlistOffers)
        .values({ clinicId, entryId: entry.id, dentistId: sarah, date, time: '14:00', channels: ['sms'] }),
    ).rejects.toThrow();
    expect(
      (await send(receptionist, 'DELETE', `/api/waitlist/${entry.id}`, undefined, entry.version)).statusCode,
    ).toBe(200);
    expect(await db().select().from(waitlistOffers).where(eq(waitlistOffers.entryId, entry.id))).toHaveLength(
      0,
    );
  });

  it('refuses to tell of a bad or past time, an unknown entry, or a patient no channel reaches', async () => {
    const patientId = await addPatient(app, clinicId, 'Unreachable Uma');
    const entry = await addEntry(wish(patientId));
    const url = `/api/waitlist/${entry.id}/offer`;
    const bad = await send(receptionist, 'POST', url, {
      dentist_id: sarah,
      date: '2027-02-30',
      time: '25:00',
    });
    expect(bad.statusCode).toBe(400);
    expect(fieldErrorsOf(bad).map((error) => error.field)).toEqual(['date', 'time']);
    const past = await send(receptionist, 'POST', url, {
      dentist_id: sarah,
      date: '2020-03-02',
      time: '10:00',
    });
    expect(past.statusCode).toBe(400);
    expect(fieldErrorsOf(past)).toEqual([{ field: 'date', message: WAITLIST_OFFER_PAST }]);
    const noDentist = await send(receptionist, 'POST', url, {
      dentist_id: 999999,
      date: '2027-03-01',
      time: '10:00',
    });
    expect(noDentist.statusCode).toBe(400);
    expect(fieldErrorsOf(noDentist).map((error) => error.field)).toEqual(['dentist_id']);
    const offer = { dentist_id: michael, date: '2027-03-01', time: '10:00' };
    expect((await send(receptionist, 'POST', '/api/waitlist/999999/offer', offer)).statusCode).toBe(404);
    expect((await send(harbor, 'POST', url, offer)).statusCode).toBe(404);
    // SMS reminders are off in the demo clinic, and this patient has no e-mail address.
    const none = await send(receptionist, 'POST', url, offer);
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe(WAITLIST_NO_CHANNEL);
    expect(await db().select().from(outbox).where(eq(outbox.patientId, patientId))).toHaveLength(0);
  });
});
