import { MODULE_OWNED_API, type ModuleId } from '@dental/shared/domain';
import { asc, eq, max } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { appointments, auditLog, availability, dentists, patients, users } from '../../db/schema';
import { addStaff, apiSender, createTestApp, login } from '../../test/testApp';
import { apiOwnerOf } from './moduleApiGate';

type StaffModule = Exclude<ModuleId, 'booking'>;
interface Call {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  payload?: unknown;
}
/** The rows the calls name: the demo clinic's first of each kind, Harbor Dental's first dentist, a member of staff. */
interface Rows {
  appointment: number;
  patient: number;
  dentist: number;
  harborDentist: number;
  availability: number;
  staff: number;
}
interface Case {
  /** An owned read, and one Harbor Dental makes of the same module. */
  owned: (rows: Rows) => Call;
  harbor: (rows: Rows) => Call;
  /** An owned write that would succeed when on: off, it changes nothing. */
  write: (rows: Rows) => Call;
  /** Reads other screens or the shell need: they stay. */
  shared: (rows: Rows) => Call[];
}

const NOT_FOUND = { message: 'Not found' };
const NEW_PATIENT = { name: 'Gate Testpatient', phone: '+1 (555) 010-7331', email: 'gate@example.com' };
const now = new Date();
const MONTH = `month=${now.getMonth() + 1}&year=${now.getFullYear()}`;
const get = (url: string): Call => ({ method: 'GET', url });
const DENTIST_CHOICES = get('/api/dentists?status=active&limit=100');

const CASES: Array<[StaffModule, Case]> = [
  [
    'appointments',
    {
      owned: () => get('/api/appointments?limit=1'),
      harbor: () => get('/api/appointments?limit=1'),
      write: (rows) => ({ method: 'DELETE', url: `/api/appointments/${rows.appointment}` }),
      // The Calendar reads a visit (to move it) and its month.
      shared: (rows) => [
        get(`/api/appointments/${rows.appointment}`),
        get(`/api/calendar/appointments?${MONTH}`),
      ],
    },
  ],
  [
    'patients',
    {
      owned: () => get('/api/recall'),
      harbor: () => get('/api/recall'),
      write: () => ({ method: 'POST', url: '/api/patients', payload: NEW_PATIENT }),
      // The booking form finds and shows its patient; Settings lists the recall types.
      shared: (rows) => [
        get('/api/patients?search=a&limit=5'),
        get(`/api/patients/${rows.patient}`),
        get('/api/recall-types'),
      ],
    },
  ],
  [
    'dentists',
    {
      owned: (rows) => get(`/api/dentists/${rows.dentist}`),
      harbor: (rows) => get(`/api/dentists/${rows.harborDentist}`),
      write: (rows) => ({ method: 'DELETE', url: `/api/dentists/${rows.dentist}` }),
      shared: () => [DENTIST_CHOICES],
    },
  ],
  [
    'scheduling',
    {
      owned: () => get(`/api/calendar/appointments?${MONTH}`),
      harbor: () => get('/api/availability'),
      write: (rows) => ({ method: 'DELETE', url: `/api/availability/${rows.availability}` }),
      // The booking form: a visit, the dentist choices.
      shared: (rows) => [get(`/api/appointments/${rows.appointment}`), DENTIST_CHOICES],
    },
  ],
  [
    'admin',
    {
      owned: () => get('/api/users'),
      harbor: () => get('/api/users'),
      write: (rows) => ({ method: 'DELETE', url: `/api/users/${rows.staff}` }),
      // The shell's idle sign-out and the booking form read the settings, the booking form the chairs.
      shared: () => [get('/api/settings'), get('/api/chairs'), get('/auth/me'), get('/api/modules')],
    },
  ],
];

describe('switched off means off: a module’s own API answers 404 for its clinic', () => {
  let app: FastifyInstance;
  let adminToken: string;
  let harborToken: string;
  let clinicId: number;
  let rows: Rows;
  const send = apiSender(() => app);
  const call = (token: string, { method, url, payload }: Call) => send(token, method, url, payload);
  const setEnabled = async (id: StaffModule, enabled: boolean) => {
    expect((await send(adminToken, 'PUT', `/api/modules/${id}`, { enabled })).statusCode).toBe(200);
  };
  /** Every write to clinic data is audited: a write that changed nothing added no record. */
  const latestAudit = async () =>
    (
      await app.database.db
        .select({ id: max(auditLog.id) })
        .from(auditLog)
        .where(eq(auditLog.clinicId, clinicId))
    )[0]?.id;
  type Table = typeof appointments | typeof dentists | typeof availability | typeof patients;
  const firstOf = async (table: Table, clinic: number) => {
    const [row] = await app.database.db
      .select({ id: table.id })
      .from(table)
      .where(eq(table.clinicId, clinic))
      .orderBy(asc(table.id))
      .limit(1);
    if (!row) throw new Error('The demo clinic has no such row');
    return row.id;
  };

  beforeAll(async () => {
    app = await createTestApp();
    const admin = await login(app, 'admin', 'admin123');
    adminToken = admin.token;
    clinicId = admin.user.clinic_id;
    const harbor = await login(app, 'harbor.admin', 'harbor123');
    harborToken = harbor.token;
    rows = {
      appointment: await firstOf(appointments, clinicId),
      patient: await firstOf(patients, clinicId),
      dentist: await firstOf(dentists, clinicId),
      harborDentist: await firstOf(dentists, harbor.user.clinic_id),
      availability: await firstOf(availability, clinicId),
      staff: (await addStaff(app, adminToken)).id,
    };
  }, 60_000);

  afterEach(async () => {
    for (const id of Object.keys(MODULE_OWNED_API) as StaffModule[]) await setEnabled(id, true);
  });

  afterAll(async () => {
    await app?.close();
  }, 60_000);

  it.each(CASES)(
    '%s off: its routes answer 404 and change nothing; shared routes and Harbor stay',
    async (module, c) => {
      // Read once while on: the clinic's switches are then held in memory, and switching must still bite at once.
      expect((await call(adminToken, c.owned(rows))).statusCode).toBe(200);
      await setEnabled(module, false);

      const owned = await call(adminToken, c.owned(rows));
      expect({ status: owned.statusCode, body: owned.json() }).toEqual({ status: 404, body: NOT_FOUND });
      const before = await latestAudit();
      const write = await call(adminToken, c.write(rows));
      expect({ status: write.statusCode, body: write.json() }).toEqual({ status: 404, body: NOT_FOUND });
      expect(await latestAudit()).toBe(before);
      for (const shared of c.shared(rows)) {
        const status = (await call(adminToken, shared)).statusCode;
        expect({ url: shared.url, status }).toEqual({ url: shared.url, status: 200 });
      }
      expect((await call(harborToken, c.harbor(rows))).statusCode).toBe(200);

      await setEnabled(module, true);
      expect((await call(adminToken, c.owned(rows))).statusCode).toBe(200);
    },
  );

  it('the writes refused while off left their rows in place, and added no patient', async () => {
    const db = app.database.db;
    const count = async (table: Table, id: number) =>
      (await db.select({ id: table.id }).from(table).where(eq(table.id, id))).length;
    expect(await count(appointments, rows.appointment)).toBe(1);
    expect(await count(dentists, rows.dentist)).toBe(1);
    expect(await count(availability, rows.availability)).toBe(1);
    expect(await db.select({ id: users.id }).from(users).where(eq(users.id, rows.staff))).toHaveLength(1);
    expect(
      await db.select({ id: patients.id }).from(patients).where(eq(patients.name, NEW_PATIENT.name)),
    ).toEqual([]);
  });

  it('owns routes by method and pattern: the shared ones are nobody’s', () => {
    expect(apiOwnerOf('GET', '/api/appointments')).toBe('appointments');
    expect(apiOwnerOf('GET', '/api/appointments/:id')).toBeNull();
    expect(apiOwnerOf('PUT', '/api/appointments/:id')).toBeNull();
    expect(apiOwnerOf('DELETE', '/api/appointments/:id')).toBe('appointments');
    expect(apiOwnerOf('HEAD', '/api/users/:id')).toBe('admin');
    expect(apiOwnerOf('GET', '/api/recall-types')).toBeNull();
    expect(apiOwnerOf('PUT', '/api/recall-types/:id')).toBe('admin');
    expect(apiOwnerOf('PATCH', '/api/recall/:patientId/:typeId')).toBe('patients');
    expect(apiOwnerOf('GET', '/api/dentists/:id/free-times')).toBeNull();
    expect(apiOwnerOf('GET', '/api/waitlist/matches')).toBeNull();
    expect(apiOwnerOf('POST', '/api/waitlist/:id/offer')).toBeNull();
    for (const route of [
      '/api/modules',
      '/api/dashboard/stats',
      '/api/events',
      '/auth/me',
      '/api/settings',
    ]) {
      expect(apiOwnerOf('GET', route)).toBeNull();
    }
  });
});
