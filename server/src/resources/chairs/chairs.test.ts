import {
  CHAIR_DENTIST_UNKNOWN,
  CHAIR_NAME_TAKEN,
  CHAIR_ORDER_MISMATCH,
  type Chair,
} from '@dental/shared/domain';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { dentists } from '../../db/schema';
import { apiSender, createTestApp, fieldErrorsOf, login } from '../../test/testApp';

/** Chairs: each clinic's operatories, one for each active dentist to start with; admins change them. */
describe('chairs', () => {
  let app: FastifyInstance;
  let admin: string;
  let receptionist: string;
  let dentist: string;
  let clinicId: number;
  const db = () => app.database.db;
  const send = apiSender(() => app);
  const chairs = async (token = receptionist) => {
    const response = await send(token, 'GET', '/api/chairs');
    expect(response.statusCode).toBe(200);
    return response.json().data as Chair[];
  };

  beforeAll(async () => {
    app = await createTestApp();
    const signedIn = await login(app, 'admin', 'admin123');
    admin = signedIn.token;
    clinicId = signedIn.user.clinic_id;
    receptionist = (await login(app, 'receptionist', 'receptionist123')).token;
    dentist = (await login(app, 'dentist', 'dentist123')).token;
  });
  afterAll(() => app.close());

  it('gives a clinic one chair for each active dentist, named in order, that dentist its default', async () => {
    const active = await db()
      .select({ id: dentists.id, name: dentists.name })
      .from(dentists)
      .where(and(eq(dentists.clinicId, clinicId), eq(dentists.status, 'active'), isNull(dentists.deletedAt)))
      .orderBy(dentists.id);
    expect(active.length).toBeGreaterThan(1);
    expect((await chairs()).map((chair) => [chair.name, chair.position, chair.default_dentist_name])).toEqual(
      active.map((row, index) => [`Chair ${index + 1}`, index + 1, row.name]),
    );
    // Every role reads them; signed out, nobody.
    expect(await chairs(dentist)).toHaveLength(active.length);
    expect((await send(null, 'GET', '/api/chairs')).statusCode).toBe(401);
  });

  it('lets only an admin add one, last, with a name no other chair in use has (any case)', async () => {
    const before = await chairs();
    const body = { name: 'Hygiene Room', bookable_online: false };
    expect((await send(receptionist, 'POST', '/api/chairs', body)).statusCode).toBe(403);
    const created = await send(admin, 'POST', '/api/chairs', body);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      name: 'Hygiene Room',
      position: before.length + 1,
      in_service: true,
      bookable_online: false,
      default_dentist_id: null,
      version: 1,
    });
    const again = await send(admin, 'POST', '/api/chairs', { name: 'hygiene room' });
    expect(again.statusCode).toBe(409);
    expect(fieldErrorsOf(again)).toEqual([{ field: 'name', message: CHAIR_NAME_TAKEN }]);
    const blank = await send(admin, 'POST', '/api/chairs', { name: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(fieldErrorsOf(blank).map((error) => error.field)).toEqual(['name']);
    expect(await chairs()).toHaveLength(before.length + 1);
  });

  it('takes as default dentist only an active dentist of the clinic', async () => {
    const [inactive] = await db()
      .insert(dentists)
      .values({
        clinicId,
        name: 'Dr. Away',
        email: 'away@chairs.example',
        phone: '(555) 000-0001',
        specialty: 'General Dentistry',
        license: 'CH-AWAY-1',
        yearsOfExperience: 3,
        workingDays: '12345',
        status: 'inactive',
      })
      .returning({ id: dentists.id });
    for (const id of [inactive?.id, 999_999]) {
      const refused = await send(admin, 'POST', '/api/chairs', {
        name: `Chair for ${id}`,
        default_dentist_id: id,
      });
      expect(refused.statusCode).toBe(400);
      expect(fieldErrorsOf(refused)).toEqual([
        { field: 'default_dentist_id', message: CHAIR_DENTIST_UNKNOWN },
      ]);
    }
  });

  it('renames a chair and takes it out of service under If-Match; a stale write changes nothing', async () => {
    const [first] = await chairs();
    if (!first) throw new Error('no chair');
    const body = {
      name: 'Surgery 1',
      in_service: false,
      bookable_online: first.bookable_online,
      default_dentist_id: first.default_dentist_id,
    };
    const saved = await send(admin, 'PUT', `/api/chairs/${first.id}`, body, first.version);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ name: 'Surgery 1', in_service: false, version: first.version + 1 });
    const stale = await send(
      admin,
      'PUT',
      `/api/chairs/${first.id}`,
      { ...body, name: 'Stale name' },
      first.version,
    );
    expect(stale.statusCode).toBe(412);
    expect(stale.json().current).toMatchObject({ name: 'Surgery 1', version: first.version + 1 });
    expect((await chairs()).find((chair) => chair.id === first.id)?.name).toBe('Surgery 1');
    expect((await send(receptionist, 'PUT', `/api/chairs/${first.id}`, body)).statusCode).toBe(403);
    expect((await send(admin, 'PUT', '/api/chairs/999999', body)).statusCode).toBe(404);
  });

  it('reorders every chair in use, and refuses an order that leaves one out or names one twice', async () => {
    const ids = (await chairs()).map((chair) => chair.id);
    const reversed = [...ids].reverse();
    const moved = await send(admin, 'PUT', '/api/chairs/order', { ids: reversed });
    expect(moved.statusCode).toBe(200);
    expect((moved.json().data as Chair[]).map((chair) => [chair.id, chair.position])).toEqual(
      reversed.map((id, index) => [id, index + 1]),
    );
    for (const wrong of [reversed.slice(1), [...reversed, reversed[0]], [...reversed.slice(1), 999_999]]) {
      const refused = await send(admin, 'PUT', '/api/chairs/order', { ids: wrong });
      expect(refused.statusCode).toBe(400);
      expect(fieldErrorsOf(refused)[0]?.message).toBe(CHAIR_ORDER_MISMATCH);
    }
    expect((await chairs()).map((chair) => chair.id)).toEqual(reversed);
  });

  it('retires a chair: it leaves the list, the order closes up, its row and its name stay for history', async () => {
    // A chair of its own, moved second: the demo's chairs hold visits to come, which a retire refuses.
    const added = (await send(admin, 'POST', '/api/chairs', { name: 'Chair to Retire' })).json() as Chair;
    const order = (await chairs()).map((chair) => chair.id).filter((id) => id !== added.id);
    const placed = await send(admin, 'PUT', '/api/chairs/order', {
      ids: [order[0], added.id, ...order.slice(1)],
    });
    expect(placed.statusCode).toBe(200);
    const before = await chairs();
    const [, retiring] = before;
    if (!retiring) throw new Error('no second chair');
    expect(retiring.id).toBe(added.id);
    expect(
      (await send(admin, 'DELETE', `/api/chairs/${retiring.id}`, undefined, retiring.version - 1)).statusCode,
    ).toBe(412);
    const retired = await send(admin, 'DELETE', `/api/chairs/${retiring.id}`, undefined, retiring.version);
    expect(retired.statusCode).toBe(200);
    const after = await chairs();
    expect(after.map((chair) => chair.id)).toEqual(
      before.filter((chair) => chair.id !== retiring.id).map((c) => c.id),
    );
    expect(after.map((chair) => chair.position)).toEqual(after.map((_, index) => index + 1));
    const { rows } = await db().execute(
      sql`select name, retired_at is not null as retired from chairs where clinic_id = ${clinicId} and id = ${retiring.id}`,
    );
    expect(rows).toEqual([{ name: retiring.name, retired: true }]);
    // Its name is free again; it is gone for writes.
    expect((await send(admin, 'POST', '/api/chairs', { name: retiring.name })).statusCode).toBe(201);
    expect((await send(admin, 'DELETE', `/api/chairs/${retiring.id}`)).statusCode).toBe(404);
    const { rows: trail } = await db().execute(
      sql`select action from audit_log where clinic_id = ${clinicId} and entity = 'chair' and entity_id = ${String(retiring.id)} order by id`,
    );
    expect(trail).toContainEqual({ action: 'delete' });
  });

  it("keeps each clinic's chairs its own", async () => {
    const other = await send(admin, 'GET', '/api/chairs');
    const ids = (other.json().data as Chair[]).map((chair) => chair.id);
    const { rows } = await db().execute(
      sql`select id from chairs where clinic_id <> ${clinicId} and retired_at is null order by id limit 1`,
    );
    const foreign = (rows[0] as { id: number } | undefined)?.id;
    expect(foreign).toBeDefined();
    expect(ids).not.toContain(foreign);
    expect((await send(admin, 'PUT', `/api/chairs/${foreign}`, { name: 'Taken over' })).statusCode).toBe(404);
  });
});
