import type { AuditRecord } from '@dental/shared/domain';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { authHeader, createTestApp, login, type SignedIn } from '../../test/testApp';

interface AuditPage {
  data: AuditRecord[];
  total: number;
}

/** The audit log: who did and who looked at what, kept in a chain the database will not let anyone edit. */
describe('the audit log', () => {
  let app: FastifyInstance;
  let admin: SignedIn;
  let receptionist: SignedIn;
  const get = (token: string, url: string) => app.inject({ method: 'GET', url, headers: authHeader(token) });
  const db = () => app.database.db;
  const createPatient = async (name: string) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/patients',
      headers: authHeader(receptionist.token),
      payload: { name, email: 'audit.test@example.com', phone: '555-0170', dateOfBirth: '1980-02-03' },
    });
    expect(response.statusCode).toBe(201);
    return (response.json() as { id: number }).id;
  };

  beforeAll(async () => {
    app = await createTestApp();
    admin = await login(app, 'admin', 'admin123');
    receptionist = await login(app, 'receptionist', 'receptionist123');
  });
  afterAll(async () => {
    await app.close();
  });

  it('lists the clinic’s records newest first for admins, filtered by user, patient, action and days', async () => {
    const patientId = await createPatient('Audit Person');
    const all = await get(admin.token, '/api/audit?limit=5');
    expect(all.statusCode).toBe(200);
    const page = all.json() as AuditPage;
    expect(page.data[0]).toMatchObject({
      action: 'create',
      entity: 'patient',
      entity_id: String(patientId),
      user_id: receptionist.user.id,
      user_name: receptionist.user.name,
    });
    const times = page.data.map((record) => record.created_at);
    expect([...times].sort().reverse()).toEqual(times);

    const byPatient = (await get(admin.token, `/api/audit?patient_id=${patientId}`)).json() as AuditPage;
    expect(byPatient.data.map((record) => record.action)).toEqual(['create']);
    const byUser = (
      await get(admin.token, `/api/audit?user_id=${receptionist.user.id}&action=login`)
    ).json() as AuditPage;
    expect(byUser.data.length).toBeGreaterThan(0);
    expect(
      byUser.data.every((record) => record.user_id === receptionist.user.id && record.action === 'login'),
    ).toBe(true);
    // Every sign-in says how and from where.
    expect(byUser.data[0]?.details).toMatchObject({ factor: 'password', ip: expect.any(String) });
    const none = (await get(admin.token, '/api/audit?from=2001-01-01&to=2001-01-31')).json() as AuditPage;
    expect(none).toMatchObject({ data: [], total: 0 });
    expect((await get(admin.token, '/api/audit?from=someday')).statusCode).toBe(400);
    expect((await get(receptionist.token, '/api/audit')).statusCode).toBe(403);
  });

  it('downloads what the filters show as CSV', async () => {
    const patientId = await createPatient('Csv, "Quoted" Person');
    const response = await get(admin.token, `/api/audit/csv?patient_id=${patientId}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toBe('attachment; filename="audit.csv"');
    const lines = response.body.trim().split('\r\n');
    expect(lines[0]).toBe('id,place,when,user_id,user,action,entity,entity_id,details');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,create,patient,${patientId},`);
    // The details as JSON in one quoted cell: its quotes doubled, its comma kept inside.
    expect(lines[1]).toMatch(/,"\{""name"":""Csv, .*Person""\}"$/);
  });

  it('records sign-outs', async () => {
    const signIn = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { username: 'dentist', password: 'dentist123' },
    });
    const cookie = signIn.cookies.find((each) => each.name === 'dental_refresh');
    await app.inject({
      method: 'POST',
      url: '/auth/logout',
      cookies: { dental_refresh: cookie?.value ?? '' },
    });
    const dentistId = (signIn.json() as { user: { id: number } }).user.id;
    const outs = (
      await get(admin.token, `/api/audit?user_id=${dentistId}&action=logout`)
    ).json() as AuditPage;
    expect(outs.data).toHaveLength(1);
  });

  it('keeps every record in a chain that holds, and refuses to update or delete a record', async () => {
    await createPatient('Chain Person');
    const check = await get(admin.token, '/api/audit/verify');
    expect(check.statusCode).toBe(200);
    expect(check.json()).toMatchObject({ holds: true, first_unfit: null });
    expect((check.json() as { records: number }).records).toBeGreaterThan(3);
    await expect(
      db().execute(sql`update audit_log set action = 'nothing' where clinic_id = 1`),
    ).rejects.toThrow();
    await expect(db().execute(sql`delete from audit_log where clinic_id = 1`)).rejects.toThrow();
    await expect(db().execute(sql`truncate audit_log`)).rejects.toThrow();
    expect((await get(receptionist.token, '/api/audit/verify')).statusCode).toBe(403);
  });

  it('names the first record that does not fit when a record was edited behind the API’s back', async () => {
    await createPatient('Edited Person');
    await get(admin.token, '/api/audit/verify');
    const { rows } = await db().execute(
      sql`select id, chain_seq from audit_log where clinic_id = 1 and chain_seq > 0 order by chain_seq desc limit 1 offset 2`,
    );
    const victim = rows[0] as { id: number; chain_seq: number | string };
    // Only with the triggers switched off, as a database owner could.
    await db().execute(sql`alter table audit_log disable trigger audit_log_unchangeable`);
    try {
      await db().execute(
        sql`update audit_log set details = '{"forged":true}' where clinic_id = 1 and id = ${victim.id}`,
      );
    } finally {
      await db().execute(sql`alter table audit_log enable trigger audit_log_unchangeable`);
    }
    const check = (await get(admin.token, '/api/audit/verify')).json();
    expect(check).toMatchObject({
      holds: false,
      first_unfit: { id: victim.id, place: Number(victim.chain_seq) },
    });
  });

  it("records who opened a patient's details and history, for the record's access history", async () => {
    const patientId = await createPatient('Opened Person');
    expect((await get(receptionist.token, `/api/patients/${patientId}`)).statusCode).toBe(200);
    expect((await get(receptionist.token, `/api/patients/${patientId}/appointments`)).statusCode).toBe(200);
    expect((await get(receptionist.token, '/api/patients/999999')).statusCode).toBe(404);
    // Recorded before the answer left: the trail has it as soon as the answer is in.
    const views = (
      await get(admin.token, `/api/audit?patient_id=${patientId}&action=view`)
    ).json() as AuditPage;
    expect(views.data.map((record) => [record.user_id, record.details])).toEqual([
      [receptionist.user.id, { opened: 'appointments' }],
      [receptionist.user.id, { opened: 'details' }],
    ]);
  });

  it('records which patients a list or search answered, from the read cache too, one record an answer', async () => {
    const patientId = await createPatient('Listed Trailperson');
    const lastView = async () => {
      const page = (await get(admin.token, '/api/audit?action=view&limit=1')).json() as AuditPage;
      return page.data[0];
    };
    // Searched until an answer comes from the read cache (the new patient's announcement may move
    // the clinic's version once more after the first search): every answer is on the trail.
    const readers = [receptionist, admin, admin, admin, admin, admin];
    const sources: Array<string | undefined> = [];
    for (const reader of readers) {
      const response = await get(reader.token, '/api/patients?search=Trailperson');
      expect(response.statusCode).toBe(200);
      expect(response.json().data.map((row: { id: number }) => row.id)).toEqual([patientId]);
      expect(await lastView()).toMatchObject({
        user_id: reader.user.id,
        entity: 'patient',
        entity_id: null,
        details: { opened: 'list', patients: [patientId] },
      });
      sources.push(response.headers['x-read-cache'] as string | undefined);
      if (sources.at(-1) === 'hit') break;
    }
    expect(sources).toContain('hit');
    // The patient's access history names the searches that showed them.
    const history = (
      await get(admin.token, `/api/audit?patient_id=${patientId}&action=view`)
    ).json() as AuditPage;
    expect(history.data.map((record) => record.details?.opened)).toEqual(sources.map(() => 'list'));
  });

  it('answers no record whose read cannot be recorded', async () => {
    const patientId = await createPatient('Unrecorded Person');
    await db().execute(sql`
      create function refuse_views() returns trigger language plpgsql as $$
      begin
        if new.action = 'view' then raise exception 'the trail is unavailable'; end if;
        return new;
      end $$`);
    await db().execute(sql`create trigger refuse_views before insert on audit_log
      for each row execute function refuse_views()`);
    try {
      for (const url of [`/api/patients/${patientId}`, '/api/patients?search=Unrecorded']) {
        const response = await get(receptionist.token, url);
        expect(response.statusCode).toBe(500);
        expect(response.body).not.toContain('Unrecorded Person');
      }
    } finally {
      await db().execute(sql`drop trigger refuse_views on audit_log`);
      await db().execute(sql`drop function refuse_views()`);
    }
    expect((await get(receptionist.token, `/api/patients/${patientId}`)).statusCode).toBe(200);
  });

  it('writes no cell a spreadsheet would run as a formula', async () => {
    const formula = '=HYPERLINK("http://example.com","Open")';
    const created = await app.inject({
      method: 'POST',
      url: '/api/users',
      headers: authHeader(admin.token),
      payload: {
        name: formula,
        username: 'formula.person',
        email: 'formula.person@example.com',
        password: 'a-long-secret-of-theirs',
        role: 'receptionist',
      },
    });
    expect(created.statusCode).toBe(201);
    const userId = created.json().id as number;
    await login(app, 'formula.person', 'a-long-secret-of-theirs');
    const csv = await get(admin.token, `/api/audit/csv?user_id=${userId}`);
    expect(csv.statusCode).toBe(200);
    const rows = csv.body.trim().split('\r\n').slice(1);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      // The name's cell, quoted for its commas and quotes, starts with ' and so reads as text.
      expect(row).toContain(`"'=HYPERLINK(""http://example.com"",""Open"")"`);
      for (const cell of row.split(',')) expect(cell).not.toMatch(/^"?[=+@]/);
    }
  });

  it('records the download of the audit CSV and each fetch of a calendar feed', async () => {
    const csv = await get(admin.token, '/api/audit/csv?action=login');
    expect(csv.statusCode).toBe(200);
    const [download] = ((await get(admin.token, '/api/audit?action=view&limit=1')).json() as AuditPage).data;
    expect(download).toMatchObject({
      user_id: admin.user.id,
      entity: 'audit',
      details: { download: 'csv', filters: { action: 'login' } },
    });

    const dentist = await login(app, 'dentist', 'dentist123');
    const created = await app.inject({
      method: 'POST',
      url: `/api/calendar/feeds/${dentist.user.dentist_id}`,
      headers: authHeader(dentist.token),
    });
    expect(created.statusCode).toBe(201);
    const feedPath = new URL(created.json().url as string).pathname;
    expect((await app.inject({ method: 'GET', url: feedPath })).statusCode).toBe(200);
    const [fetched] = ((await get(admin.token, '/api/audit?action=view&limit=1')).json() as AuditPage).data;
    expect(fetched).toMatchObject({
      user_id: null,
      entity: 'calendar_feed',
      entity_id: String(dentist.user.dentist_id),
      details: { ip: '127.0.0.1', visits: expect.any(Number) },
    });
  });

  it('sends Cache-Control: no-store with records of patients and staff', async () => {
    const patientId = await createPatient('Private Person');
    for (const url of [`/api/patients/${patientId}`, '/api/patients', '/auth/me', '/api/users']) {
      const response = await get(admin.token, url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });
});
