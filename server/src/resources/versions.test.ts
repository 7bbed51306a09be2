import { etagOf, STALE_WRITE_MESSAGE } from '@dental/shared/domain';
import { and, count, eq, ne, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { addDays, clinicToday, isoWeekday } from '../db/clinicTime';
import { auditLog, dentists, users } from '../db/schema';
import { authHeader, createTestApp, login } from '../test/testApp';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Row = Record<string, unknown> & { id: number; version: number };

/** A write the API takes with If-Match: its method, URL and body, made from the row as GET answers it. */
interface Write {
  name: string;
  method: 'PUT' | 'PATCH' | 'DELETE';
  url: (row: Row) => string;
  body?: (row: Row) => Record<string, unknown>;
}

/** A resource whose rows carry a version: how a test makes a row of its own, and its writes. */
interface Resource {
  name: string;
  /** The audit log's `entity` of its records. */
  entity: string;
  /** The URL of one row. */
  url: (id: number) => string;
  /** Lists that hold the row (screens open edit forms from their rows). */
  lists: (row: Row) => string[];
  /** Fields only the row's own read answers (a patient's medical history): its lists leave them out. */
  ownReadOnly?: string[];
  create: () => Promise<Row>;
  writes: Write[];
}

/** Versions and conditional writes (RFC 9110): ETag on every single row, If-Match on every write. */
describe('versions and If-Match', () => {
  let app: FastifyInstance;
  let adminToken: string;
  let clinicId: number;
  let dentistId: number;
  let today: string;
  let made = 0;
  /** Days far past the demo data, each test's visits and availability on days of their own. */
  let dayOffset = 800;
  const nextWeekday = (weekdays: string) => {
    do dayOffset += 1;
    while (!weekdays.includes(String(isoWeekday(addDays(today, dayOffset)))));
    return addDays(today, dayOffset);
  };

  const send = (method: Method, url: string, options: { body?: unknown; ifMatch?: string } = {}) =>
    app.inject({
      method,
      url,
      headers: {
        ...authHeader(adminToken),
        ...(options.ifMatch === undefined ? {} : { 'if-match': options.ifMatch }),
      },
      ...(options.body === undefined ? {} : { payload: options.body as object }),
    });
  const created = async (url: string, body: Record<string, unknown>): Promise<Row> => {
    const response = await send('POST', url, { body });
    expect(response.statusCode).toBe(201);
    const row = response.json() as Row;
    expect(row.version).toBe(1);
    expect(response.headers.etag).toBe(etagOf(1));
    return row;
  };
  const read = async (url: string): Promise<LightMyRequestResponse> => send('GET', url);
  /**
   * The records of writes to a row. A read of a patient is recorded too, after its answer has gone:
   * the test's own reads would land in the count at any moment, so they are not counted.
   */
  const auditsOf = async (entity: string, id: number) => {
    const [row] = await app.database.db
      .select({ total: count() })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.clinicId, clinicId),
          eq(auditLog.entity, entity),
          eq(auditLog.entityId, String(id)),
          ne(auditLog.action, 'view'),
        ),
      );
    return row?.total ?? 0;
  };
  const unique = () => {
    made += 1;
    return made;
  };

  const resources: Resource[] = [
    {
      name: 'appointments',
      entity: 'appointment',
      url: (id) => `/api/appointments/${id}`,
      lists: (row) => {
        const [year, month] = String(row.date).split('-').map(Number);
        return [
          `/api/appointments?patient_id=${row.patient_id}`,
          `/api/calendar/appointments?year=${year}&month=${month}&dentist_id=${row.dentist_id}`,
        ];
      },
      create: async () => {
        const n = unique();
        return created('/api/appointments', {
          patient: `Version Tester ${n}`,
          phone: `555 800 ${String(n).padStart(4, '0')}`,
          date: nextWeekday('2'),
          time: '10:00',
          dentist_id: dentistId,
          treatment: 'Dental Checkup',
          notes: null,
        });
      },
      writes: [
        {
          name: 'PUT',
          method: 'PUT',
          url: (row) => `/api/appointments/${row.id}`,
          body: (row) => ({ ...row, notes: `Edited ${unique()}` }),
        },
        {
          name: 'status PATCH',
          method: 'PATCH',
          url: (row) => `/api/appointments/${row.id}/status`,
          body: (row) => ({ status: row.status === 'confirmed' ? 'pending' : 'confirmed' }),
        },
        { name: 'DELETE', method: 'DELETE', url: (row) => `/api/appointments/${row.id}` },
      ],
    },
    {
      name: 'patients',
      entity: 'patient',
      url: (id) => `/api/patients/${id}`,
      lists: (row) => [`/api/patients?search=${encodeURIComponent(String(row.name))}`],
      ownReadOnly: ['medicalHistory'],
      create: async () => {
        const n = unique();
        return created('/api/patients', {
          name: `Version Patient ${n}`,
          email: `version.patient.${n}@example.com`,
          phone: `555 801 ${String(n).padStart(4, '0')}`,
          dateOfBirth: '1980-05-06',
        });
      },
      writes: [
        {
          name: 'PUT',
          method: 'PUT',
          url: (row) => `/api/patients/${row.id}`,
          body: (row) => ({ ...row, address: `${unique()} Harbour Street` }),
        },
        { name: 'DELETE', method: 'DELETE', url: (row) => `/api/patients/${row.id}` },
      ],
    },
    {
      name: 'dentists',
      entity: 'dentist',
      url: (id) => `/api/dentists/${id}`,
      lists: (row) => [`/api/dentists?search=${encodeURIComponent(String(row.name))}`],
      create: async () => {
        const n = unique();
        return created('/api/dentists', {
          name: `Dr. Version ${n}`,
          email: `version.dentist.${n}@example.com`,
          phone: '555 802 0000',
          specialty: 'General Dentistry',
          license: `VER-${n}`,
        });
      },
      writes: [
        {
          name: 'PUT',
          method: 'PUT',
          url: (row) => `/api/dentists/${row.id}`,
          body: (row) => ({ ...row, years_of_experience: unique() % 60 }),
        },
        { name: 'DELETE', method: 'DELETE', url: (row) => `/api/dentists/${row.id}` },
      ],
    },
    {
      name: 'availability',
      entity: 'availability',
      url: (id) => `/api/availability/${id}`,
      lists: (row) => {
        const [year, month] = String(row.date).split('-').map(Number);
        return [
          `/api/availability?dentist_id=${row.dentist_id}&date=${row.date}`,
          `/api/availability/dentist/${row.dentist_id}?date=${row.date}`,
          `/api/calendar/availability?year=${year}&month=${month}&dentist_id=${row.dentist_id}`,
        ];
      },
      create: async () =>
        created('/api/availability', {
          dentist_id: dentistId,
          date: nextWeekday('12345'),
          time_slots: [
            { start: '09:00', end: '10:00' },
            { start: '10:00', end: '11:00' },
          ],
        }),
      writes: [
        {
          name: 'PUT',
          method: 'PUT',
          url: (row) => `/api/availability/${row.id}`,
          body: (row) => ({
            ...row,
            time_slots: [{ start: '09:00', end: `1${unique() % 8}:30` }],
          }),
        },
        {
          name: 'slot PATCH',
          method: 'PATCH',
          url: (row) => `/api/availability/${row.id}/slot`,
          body: (row) => {
            const [first] = row.time_slots as Array<{ start: string; end: string; available: boolean }>;
            if (!first) throw new Error('the day has no slot');
            return { start: first.start, end: first.end, available: !first.available };
          },
        },
        { name: 'DELETE', method: 'DELETE', url: (row) => `/api/availability/${row.id}` },
      ],
    },
    {
      name: 'users',
      entity: 'user',
      url: (id) => `/api/users/${id}`,
      lists: (row) => [`/api/users?search=${encodeURIComponent(String(row.username))}`],
      create: async () => {
        const n = unique();
        return created('/api/users', {
          name: `Version User ${n}`,
          username: `version.user.${n}`,
          email: `version.user.${n}@example.com`,
          role: 'receptionist',
          password: 'sturdy-kept-pass-1',
        });
      },
      writes: [
        {
          name: 'PUT',
          method: 'PUT',
          url: (row) => `/api/users/${row.id}`,
          body: (row) => ({ ...row, name: `Version User renamed ${unique()}` }),
        },
        {
          name: 'status PATCH',
          method: 'PATCH',
          url: (row) => `/api/users/${row.id}/status`,
          body: (row) => ({ isActive: !row.is_active }),
        },
        { name: 'DELETE', method: 'DELETE', url: (row) => `/api/users/${row.id}` },
      ],
    },
  ];

  beforeAll(async () => {
    app = await createTestApp();
    const admin = await login(app, 'admin', 'admin123');
    adminToken = admin.token;
    clinicId = admin.user.clinic_id;
    today = await clinicToday(app.database.db, clinicId);
    const [tuesdays] = await app.database.db
      .select({ id: dentists.id })
      .from(dentists)
      .where(
        and(
          eq(dentists.clinicId, clinicId),
          eq(dentists.status, 'active'),
          sql`${dentists.workingDays} like '%2%'`,
        ),
      )
      .orderBy(dentists.id)
      .limit(1);
    if (!tuesdays) throw new Error('the demo clinic has a dentist working Tuesdays');
    dentistId = tuesdays.id;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  }, 60_000);

  describe.each(resources)('$name', (resource) => {
    it('answers a row with its version and ETag, and lists rows with theirs', async () => {
      const row = await resource.create();
      const got = await read(resource.url(row.id));
      expect(got.statusCode).toBe(200);
      expect(got.json()).toMatchObject({ id: row.id, version: 1 });
      expect(got.headers.etag).toBe('"1"');
      for (const url of resource.lists(row)) {
        const list = await read(url);
        expect(list.statusCode).toBe(200);
        // A list has no version of its own.
        expect(list.headers.etag).toBeUndefined();
        const listed = (list.json() as { data: Row[] }).data.find((item) => item.id === row.id);
        const { ...own } = got.json() as Row;
        for (const field of resource.ownReadOnly ?? []) delete own[field];
        expect(listed).toEqual(own);
        for (const field of resource.ownReadOnly ?? []) expect(listed).not.toHaveProperty(field);
      }
    });

    describe.each(resource.writes)('$name', (write) => {
      it('with the current version in If-Match, writes and moves the version on', async () => {
        const row = await resource.create();
        const response = await send(write.method, write.url(row), {
          body: write.body?.(row),
          ifMatch: etagOf(row.version),
        });
        expect(response.statusCode).toBe(200);
        const after = await read(resource.url(row.id));
        if (write.method === 'DELETE') {
          expect(after.statusCode).toBe(404);
          return;
        }
        const answered = response.json() as Row;
        expect(answered.version).toBe(2);
        expect(response.headers.etag).toBe(etagOf(2));
        expect(after.json()).toMatchObject({ version: 2 });
        expect(after.headers.etag).toBe(etagOf(2));
      });

      it('with an older version in If-Match, answers 412 with the current row and changes nothing', async () => {
        const row = await resource.create();
        // Another desk changes the row: its version moves on to 2.
        const [edit] = resource.writes;
        if (!edit || edit.method === 'DELETE') throw new Error('a resource has an edit');
        const edited = await send(edit.method, edit.url(row), { body: edit.body?.(row) });
        expect(edited.statusCode).toBe(200);
        const current = await read(resource.url(row.id));
        expect(current.json()).toMatchObject({ version: 2 });
        const audits = await auditsOf(resource.entity, row.id);

        const stale = await send(write.method, write.url(row), {
          body: write.body?.(row),
          ifMatch: etagOf(row.version),
        });
        expect(stale.statusCode).toBe(412);
        expect(stale.json()).toEqual({ message: STALE_WRITE_MESSAGE, current: current.json() });
        // Nothing was recorded, nothing changed.
        expect(await auditsOf(resource.entity, row.id)).toBe(audits);
        const after = await read(resource.url(row.id));
        expect(after.statusCode).toBe(200);
        expect(after.json()).toEqual(current.json());
      });

      it('without If-Match (or with *), writes as before', async () => {
        const row = await resource.create();
        const plain = await send(write.method, write.url(row), { body: write.body?.(row) });
        expect(plain.statusCode).toBe(200);
        if (write.method === 'DELETE') {
          expect((await read(resource.url(row.id))).statusCode).toBe(404);
          return;
        }
        const again = await send(write.method, write.url(row), {
          body: write.body?.(plain.json() as Row),
          ifMatch: '*',
        });
        expect(again.statusCode).toBe(200);
        expect((again.json() as Row).version).toBe(3);
      });

      it('answers 404 for a row that is not there, whatever If-Match says', async () => {
        const row = await resource.create();
        const missing = { ...row, id: 2_000_000_000 };
        const response = await send(write.method, write.url(missing), {
          body: write.body?.(row),
          ifMatch: etagOf(1),
        });
        expect(response.statusCode).toBe(404);
      });
    });
  });

  describe('settings', () => {
    type Settings = { version: number; address: string };
    const readSettings = async () => {
      const response = await read('/api/settings');
      expect(response.statusCode).toBe(200);
      expect(response.headers.etag).toBe(etagOf((response.json() as Settings).version));
      return response.json() as Settings;
    };

    it('answers a version and ETag; a save with the current one moves it on, an older one is refused', async () => {
      const before = await readSettings();
      const saved = await send('PUT', '/api/settings', {
        body: { ...before, address: '1 Version Street' },
        ifMatch: etagOf(before.version),
      });
      expect(saved.statusCode).toBe(200);
      const after = saved.json() as Settings;
      expect(after.version).toBe(before.version + 1);
      expect(saved.headers.etag).toBe(etagOf(after.version));
      expect(await readSettings()).toEqual(after);

      const audits = await auditsOf('settings', clinicId);
      const stale = await send('PUT', '/api/settings', {
        body: { address: '2 Stale Street' },
        ifMatch: etagOf(before.version),
      });
      expect(stale.statusCode).toBe(412);
      expect(stale.json()).toEqual({ message: STALE_WRITE_MESSAGE, current: after });
      expect(await readSettings()).toEqual(after);
      expect(await auditsOf('settings', clinicId)).toBe(audits);

      const plain = await send('PUT', '/api/settings', { body: { address: '3 Plain Street' } });
      expect(plain.statusCode).toBe(200);
      expect((plain.json() as Settings).version).toBe(after.version + 1);
    });

    it('a save that changes nothing keeps the version', async () => {
      const before = await readSettings();
      const saved = await send('PUT', '/api/settings', { body: before, ifMatch: etagOf(before.version) });
      expect(saved.statusCode).toBe(200);
      expect((saved.json() as Settings).version).toBe(before.version);
    });
  });

  it("a user's sign-in does not move their version; an edit of them does", async () => {
    const n = unique();
    const account = await created('/api/users', {
      name: `Signing In ${n}`,
      username: `signing.in.${n}`,
      email: `signing.in.${n}@example.com`,
      role: 'receptionist',
      password: 'sturdy-kept-pass-1',
    });
    const signedIn = await login(app, `signing.in.${n}`, 'sturdy-kept-pass-1');
    expect(signedIn.user.version).toBe(1);
    const [stored] = await app.database.db
      .select({ lastLogin: users.lastLogin, version: users.version })
      .from(users)
      .where(and(eq(users.clinicId, clinicId), eq(users.id, account.id)));
    expect(stored?.lastLogin).not.toBeNull();
    expect(stored?.version).toBe(1);
    // The If-Match of a form opened before the sign-in still holds.
    const renamed = await send('PUT', `/api/users/${account.id}`, {
      body: { ...account, name: `Signed In ${n}` },
      ifMatch: etagOf(1),
    });
    expect(renamed.statusCode).toBe(200);
    expect((renamed.json() as Row).version).toBe(2);
  });

  it('judges If-Match after who may write: a stranger to the row is refused (403), not told its version', async () => {
    const dentist = await login(app, 'dentist', 'dentist123');
    const [other] = await app.database.db
      .select({ id: dentists.id })
      .from(dentists)
      .where(
        and(
          eq(dentists.clinicId, clinicId),
          eq(dentists.status, 'active'),
          sql`${dentists.id} <> ${dentist.user.dentist_id ?? 0}`,
        ),
      )
      .limit(1);
    if (!other) throw new Error('the demo clinic has two dentists');
    const day = await created('/api/availability', {
      dentist_id: other.id,
      date: nextWeekday('12345'),
      time_slots: [{ start: '09:00', end: '10:00' }],
    });
    const refused = await app.inject({
      method: 'PATCH',
      url: `/api/availability/${day.id}/slot`,
      headers: { ...authHeader(dentist.token), 'if-match': etagOf(day.version + 1) },
      payload: { start: '09:00', end: '10:00', available: false },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).not.toHaveProperty('current');
  });

  it('of two writes made from the same version at once, one lands and the other is refused', async () => {
    const n = unique();
    const patient = await created('/api/patients', {
      name: `Race Patient ${n}`,
      email: `race.patient.${n}@example.com`,
      phone: `555 803 ${String(n).padStart(4, '0')}`,
      dateOfBirth: '1975-01-02',
    });
    const edits = await Promise.all(
      ['1 First Desk Road', '2 Second Desk Road'].map((address) =>
        send('PUT', `/api/patients/${patient.id}`, {
          body: { ...patient, address },
          ifMatch: etagOf(patient.version),
        }),
      ),
    );
    expect(edits.map((edit) => edit.statusCode).sort()).toEqual([200, 412]);
    const winner = edits.find((edit) => edit.statusCode === 200)?.json() as Row;
    const loser = edits.find((edit) => edit.statusCode === 412)?.json() as { current: Row };
    expect(loser.current).toEqual(winner);
    expect(winner.version).toBe(2);
    expect(await auditsOf('patient', patient.id)).toBe(2);
  });
});
