import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { auditLog, dentists, refreshTokens, users } from '../../db/schema';
import { authHeader, createTestApp, login } from '../../test/testApp';

describe('users API', () => {
  let app: FastifyInstance;
  let adminToken: string;
  let adminId: number;
  let receptionistToken: string;
  let dentistToken: string;
  let harborAdminToken: string;
  let harborAdminId: number;
  let counter = 0;

  const db = () => app.database.db;
  const send = (
    token: string | null,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ) =>
    app.inject({
      method,
      url,
      headers: token ? authHeader(token) : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  /** A fresh, valid create body: every call a new username and e-mail. */
  const newUser = (overrides: Record<string, unknown> = {}) => {
    counter += 1;
    return {
      name: `Test Person ${counter}`,
      username: `test.person${counter}`,
      email: `test.person${counter}@example.com`,
      password: 'correct-horse-1',
      role: 'receptionist',
      ...overrides,
    };
  };
  const createUser = async (overrides: Record<string, unknown> = {}) => {
    const body = newUser(overrides);
    const response = await send(adminToken, 'POST', '/api/users', body);
    expect(response.statusCode).toBe(201);
    return { ...response.json(), password: body.password } as {
      id: number;
      username: string;
      password: string;
      role: string;
    };
  };
  const userRow = async (id: number) => {
    const [row] = await db().select().from(users).where(eq(users.id, id));
    return row;
  };
  const liveSessions = async (userId: number) =>
    db()
      .select()
      .from(refreshTokens)
      .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));

  beforeAll(async () => {
    app = await createTestApp();
    const admin = await login(app, 'admin', 'admin123');
    adminToken = admin.token;
    adminId = admin.user.id;
    receptionistToken = (await login(app, 'receptionist', 'receptionist123')).token;
    dentistToken = (await login(app, 'dentist', 'dentist123')).token;
    const harbor = await login(app, 'harbor.admin', 'harbor123');
    harborAdminToken = harbor.token;
    harborAdminId = harbor.user.id;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  }, 60_000);

  describe('list', () => {
    it("answers the clinic's users as a page, without passwords, with last_login", async () => {
      const response = await send(adminToken, 'GET', '/api/users');
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({ page: 1, limit: 20 });
      expect(body.total).toBeGreaterThanOrEqual(3);
      const usernames = body.data.map((user: { username: string }) => user.username);
      expect(usernames).toEqual(expect.arrayContaining(['admin', 'receptionist', 'dentist']));
      expect(usernames).not.toContain('harbor.admin');
      expect(response.body).not.toMatch(/password|hash/i);
      const admin = body.data.find((user: { username: string }) => user.username === 'admin');
      expect(admin.last_login).toEqual(expect.any(String));
      expect(admin).toMatchObject({ role: 'admin', is_active: true, clinic_id: 1 });
      const dentist = body.data.find((user: { username: string }) => user.username === 'dentist');
      expect(dentist.dentist_id).toEqual(expect.any(Number));
    });

    it('searches name, username and e-mail, case-insensitively', async () => {
      const byName = (await send(adminToken, 'GET', '/api/users?search=riley')).json();
      expect(byName.data.map((user: { username: string }) => user.username)).toEqual(['receptionist']);
      const byEmail = (await send(adminToken, 'GET', '/api/users?search=SARAH.JOHNSON')).json();
      expect(byEmail.data.map((user: { username: string }) => user.username)).toEqual(['dentist']);
      const wildcard = (await send(adminToken, 'GET', '/api/users?search=%25')).json();
      expect(wildcard.total).toBe(0);
    });

    it('filters by role and status and sorts by name', async () => {
      const inactive = await createUser({ name: 'Zed Inactive', isActive: false });
      const dentistsOnly = (await send(adminToken, 'GET', '/api/users?role=dentist')).json();
      expect(dentistsOnly.data.every((user: { role: string }) => user.role === 'dentist')).toBe(true);
      const inactiveOnly = (await send(adminToken, 'GET', '/api/users?status=inactive')).json();
      expect(inactiveOnly.data.map((user: { id: number }) => user.id)).toContain(inactive.id);
      expect(inactiveOnly.data.every((user: { is_active: boolean }) => !user.is_active)).toBe(true);
      const activeOnly = (await send(adminToken, 'GET', '/api/users?status=active')).json();
      expect(activeOnly.data.map((user: { id: number }) => user.id)).not.toContain(inactive.id);

      const ascending = (await send(adminToken, 'GET', '/api/users?limit=100')).json();
      const names = ascending.data.map((user: { name: string }) => user.name);
      expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b)));
      const descending = (await send(adminToken, 'GET', '/api/users?sort=-name&limit=1')).json();
      expect(descending.data[0].name).toBe('Zed Inactive');
    });

    it('pages, and a page past the end is empty', async () => {
      const first = (await send(adminToken, 'GET', '/api/users?limit=2&page=1')).json();
      expect(first.data).toHaveLength(2);
      const second = (await send(adminToken, 'GET', '/api/users?limit=2&page=2')).json();
      expect(second.data[0].id).not.toBe(first.data[0].id);
      const past = (await send(adminToken, 'GET', '/api/users?page=999')).json();
      expect(past).toMatchObject({ data: [], page: 999 });
      expect(past.total).toBeGreaterThan(0);
    });

    it.each([
      ['limit=101', 'limit'],
      ['limit=0', 'limit'],
      ['page=0', 'page'],
      ['role=owner', 'role'],
      ['status=gone', 'status'],
      ['sort=password', 'sort'],
    ])('refuses %s with 400 naming %s', async (query, field) => {
      const response = await send(adminToken, 'GET', `/api/users?${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0].field).toBe(field);
    });
  });

  describe('roles', () => {
    it('answers 401 without a token, whatever the body', async () => {
      expect((await send(null, 'POST', '/api/users', { name: 1 })).statusCode).toBe(401);
      expect((await send(receptionistToken, 'POST', '/api/users', { name: 1 })).statusCode).toBe(403);
      expect((await send(null, 'GET', '/api/users')).statusCode).toBe(401);
      expect((await send(null, 'POST', '/api/users', newUser())).statusCode).toBe(401);
    });

    it.each([
      ['GET', '/api/users'],
      ['GET', '/api/users/1'],
      ['PUT', '/api/users/2'],
      ['PATCH', '/api/users/2/status'],
      ['DELETE', '/api/users/2'],
    ] as const)('refuses %s %s to a receptionist and a dentist (403, audited)', async (method, url) => {
      const before = await db().select().from(auditLog).where(eq(auditLog.action, 'access_denied'));
      for (const token of [receptionistToken, dentistToken]) {
        const payload = method === 'PATCH' ? { isActive: false } : method === 'PUT' ? newUser() : undefined;
        const response = await send(token, method, url, payload);
        expect(response.statusCode).toBe(403);
        expect(response.json().message).toBe("You don't have permission to manage users.");
      }
      const after = await db().select().from(auditLog).where(eq(auditLog.action, 'access_denied'));
      expect(after.length).toBe(before.length + 2);
      // Nothing changed: the receptionist is still active, with their name.
      expect(await userRow(2)).toMatchObject({ isActive: true, name: 'Riley Chen' });
    });

    it('refuses creation to a receptionist and creates nothing', async () => {
      const body = newUser();
      const response = await send(receptionistToken, 'POST', '/api/users', body);
      expect(response.statusCode).toBe(403);
      const found = await db().select().from(users).where(eq(users.username, body.username));
      expect(found).toHaveLength(0);
    });
  });

  describe('create', () => {
    it('creates an active user whose password works and is never answered', async () => {
      const body = newUser({ id: 999, clinic_id: 2, created_at: '2000-01-01T00:00:00Z' });
      const response = await send(adminToken, 'POST', '/api/users', body);
      expect(response.statusCode).toBe(201);
      const created = response.json();
      expect(created).toMatchObject({
        username: body.username,
        email: body.email,
        name: body.name,
        role: 'receptionist',
        is_active: true,
        last_login: null,
        dentist_id: null,
        clinic_id: 1,
        clinic_name: 'Bright Smile Dental',
      });
      expect(created.id).not.toBe(999);
      expect(created.created_at).not.toBe('2000-01-01T00:00:00.000Z');
      expect(response.body).not.toMatch(/password|hash/i);
      const row = await userRow(created.id);
      expect(row?.passwordHash).toMatch(/^scrypt\$/);
      expect(row?.passwordHash).not.toContain(body.password);

      const signedIn = await login(app, body.username, body.password);
      expect(signedIn.user.id).toBe(created.id);
      // Its sign-in shows as last_login.
      const fetched = (await send(adminToken, 'GET', `/api/users/${created.id}`)).json();
      expect(fetched.last_login).toEqual(expect.any(String));

      const [audit] = await db()
        .select()
        .from(auditLog)
        .where(
          and(
            eq(auditLog.entity, 'user'),
            eq(auditLog.entityId, String(created.id)),
            eq(auditLog.action, 'create'),
          ),
        );
      expect(audit).toMatchObject({ clinicId: 1, userId: adminId });
    });

    it('takes isActive (or is_active) false', async () => {
      const inactive = await createUser({ isActive: false });
      expect(inactive).toMatchObject({ is_active: false });
      const snake = await createUser({ is_active: false });
      expect(snake).toMatchObject({ is_active: false });
    });

    it('links a dentist account to a dentist of the clinic', async () => {
      const [dentist] = await db()
        .insert(dentists)
        .values({
          clinicId: 1,
          name: 'Dr. Link Test',
          email: 'link.test@example.com',
          phone: '555-010-9999',
          specialty: 'Orthodontics',
          license: 'LINK-1',
        })
        .returning({ id: dentists.id });
      const linked = await createUser({ role: 'dentist', dentist_id: dentist?.id });
      expect(linked).toMatchObject({ role: 'dentist', dentist_id: dentist?.id });

      const again = await send(
        adminToken,
        'POST',
        '/api/users',
        newUser({ role: 'dentist', dentist_id: dentist?.id }),
      );
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe('That dentist already has a user account');
      // Named by its field, so the form shows it beside the Dentist record choice.
      expect(again.json().errors).toEqual([
        { field: 'dentist_id', message: 'That dentist already has a user account' },
      ]);
    });

    it('links a dentist account sent without dentist_id to the dentist record of its e-mail, if free', async () => {
      const [dentist] = await db()
        .insert(dentists)
        .values({
          clinicId: 1,
          name: 'Dr. Mail Link',
          email: 'Mail.Link@example.com',
          phone: '555-010-9998',
          specialty: 'Endodontics',
          license: 'LINK-2',
        })
        .returning({ id: dentists.id });
      const linked = await createUser({ role: 'dentist', email: 'mail.link@example.com' });
      expect(linked).toMatchObject({ role: 'dentist', dentist_id: dentist?.id });
      // Another account of that e-mail cannot exist; one without a matching record stays unlinked.
      const unmatched = await createUser({ role: 'dentist' });
      expect(unmatched).toMatchObject({ role: 'dentist', dentist_id: null });
      // A receptionist turned dentist picks up the record of their e-mail too.
      const [second] = await db()
        .insert(dentists)
        .values({
          clinicId: 1,
          name: 'Dr. Role Change',
          email: 'role.change@example.com',
          phone: '555-010-9997',
          specialty: 'Endodontics',
          license: 'LINK-3',
        })
        .returning({ id: dentists.id });
      const body = newUser({ email: 'role.change@example.com' });
      const created = (await send(adminToken, 'POST', '/api/users', body)).json();
      expect(created.dentist_id).toBeNull();
      const { password: _password, ...withoutPassword } = body;
      const promoted = await send(adminToken, 'PUT', `/api/users/${created.id}`, {
        ...withoutPassword,
        role: 'dentist',
      });
      expect(promoted.statusCode).toBe(200);
      expect(promoted.json().dentist_id).toBe(second?.id);
    });

    it("refuses a dentist_id of another clinic's dentist or of no dentist", async () => {
      const [harborDentist] = await db()
        .insert(dentists)
        .values({
          clinicId: 2,
          name: 'Dr. Harbor Only',
          email: 'harbor.only@example.com',
          phone: '555-020-9999',
          specialty: 'Orthodontics',
          license: 'HARBOR-1',
        })
        .returning({ id: dentists.id });
      for (const dentistId of [harborDentist?.id, 999999]) {
        const body = newUser({ role: 'dentist', dentist_id: dentistId });
        const response = await send(adminToken, 'POST', '/api/users', body);
        expect(response.statusCode).toBe(400);
        expect(response.json().errors[0].field).toBe('dentist_id');
        expect(await db().select().from(users).where(eq(users.username, body.username))).toHaveLength(0);
      }
    });

    it.each([
      ['name', { name: '' }],
      ['name', { name: 'x'.repeat(101) }],
      ['username', { username: 'ab' }],
      ['username', { username: 'a'.repeat(51) }],
      ['username', { username: 'has space' }],
      ['username', { username: 'émile' }],
      ['email', { email: 'not-an-email' }],
      ['password', { password: 'short' }],
      ['password', { password: 'x'.repeat(129) }],
      ['password', { password: 'password1' }],
      ['role', { role: 'owner' }],
      ['dentist_id', { role: 'receptionist', dentist_id: 1 }],
      ['dentist_id', { role: 'dentist', dentist_id: 'one' }],
      ['isActive', { isActive: 'yes' }],
    ])('refuses a bad %s with 400 and creates nothing (%j)', async (field, overrides) => {
      const body = newUser(overrides);
      const response = await send(adminToken, 'POST', '/api/users', body);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors.map((error: { field: string }) => error.field)).toContain(field);
      expect(await db().select().from(users).where(eq(users.email, body.email))).toHaveLength(0);
    });

    it('says why a common password is refused, beside the field', async () => {
      const response = await send(adminToken, 'POST', '/api/users', newUser({ password: 'iloveyou1' }));
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([
        { field: 'password', message: 'This password is among the most common passwords: choose another' },
      ]);
    });

    it.each([
      ['their username', (user: { username: string }) => `${user.username}-2026!`],
      ['their name', () => 'Marguerite-was-here-9'],
      ["their e-mail's name", () => 'xx-margueritep-xx'],
      ["the clinic's name", () => 'BrightSmile-2026'],
    ])('refuses a password made of %s, beside the field, and creates nothing', async (_what, passwordOf) => {
      const body = newUser({
        name: 'Marguerite Pastel',
        username: `marguerite.${counter + 1}`,
        email: `margueritep${counter + 1}@example.com`,
      });
      const response = await send(adminToken, 'POST', '/api/users', { ...body, password: passwordOf(body) });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([
        {
          field: 'password',
          message:
            "This password contains the user's name, username or e-mail, or the clinic's name: choose another",
        },
      ]);
      expect(await db().select().from(users).where(eq(users.email, body.email))).toHaveLength(0);
    });

    it("refuses a new password holding the user's own name when an admin changes it", async () => {
      const body = newUser({ name: 'Octavia Brandt' });
      const created = await send(adminToken, 'POST', '/api/users', body);
      expect(created.statusCode).toBe(201);
      const response = await send(adminToken, 'PUT', `/api/users/${created.json().id}`, {
        name: body.name,
        username: body.username,
        email: body.email,
        role: 'receptionist',
        password: 'octavia-forever',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0].field).toBe('password');
    });

    it.each(['name', 'username', 'email', 'password', 'role'])('requires %s', async (field) => {
      const body: Record<string, unknown> = newUser();
      delete body[field];
      const response = await send(adminToken, 'POST', '/api/users', body);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors.map((error: { field: string }) => error.field)).toContain(field);
    });

    it('refuses unknown fields', async () => {
      const response = await send(adminToken, 'POST', '/api/users', newUser({ password_hash: 'x' }));
      expect(response.statusCode).toBe(400);
    });

    it('answers 409 for a taken username or e-mail, in any case and in any clinic', async () => {
      const taken = await send(adminToken, 'POST', '/api/users', newUser({ username: 'ADMIN' }));
      expect(taken.statusCode).toBe(409);
      expect(taken.json().message).toBe('That username is already taken');

      const otherClinic = await send(
        harborAdminToken,
        'POST',
        '/api/users',
        newUser({ username: 'Receptionist' }),
      );
      expect(otherClinic.statusCode).toBe(409);
      expect(otherClinic.json().message).toBe('That username is already taken');

      const email = await send(
        adminToken,
        'POST',
        '/api/users',
        newUser({ email: 'ADMIN@harbordental.example' }),
      );
      expect(email.statusCode).toBe(409);
      expect(email.json().message).toBe('That e-mail address is already in use');
    });

    it('lets exactly one of two racing creations of one username win', async () => {
      const first = newUser();
      const second = newUser({ username: first.username });
      const answers = await Promise.all([
        send(adminToken, 'POST', '/api/users', first),
        send(adminToken, 'POST', '/api/users', second),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    });
  });

  describe('read one', () => {
    it('answers a user of the clinic', async () => {
      const response = await send(adminToken, 'GET', '/api/users/2');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id: 2, username: 'receptionist', name: 'Riley Chen' });
    });

    it('answers 404 for a missing id and for a user of another clinic', async () => {
      expect((await send(adminToken, 'GET', '/api/users/999999')).json()).toEqual({
        message: 'User not found',
      });
      const foreign = await send(harborAdminToken, 'GET', '/api/users/2');
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().message).toBe('User not found');
    });
  });

  describe('update', () => {
    it('updates fields and keeps the password when it is left out or blank', async () => {
      const user = await createUser();
      const response = await send(adminToken, 'PUT', `/api/users/${user.id}`, {
        name: 'Renamed Person',
        username: `${user.username}.x`,
        email: `renamed.${user.id}@example.com`,
        role: 'dentist',
        password: '',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        name: 'Renamed Person',
        username: `${user.username}.x`,
        role: 'dentist',
        is_active: true,
      });
      await login(app, `${user.username}.x`, user.password);

      // A PUT of what GET answered succeeds and changes nothing.
      const current = (await send(adminToken, 'GET', `/api/users/${user.id}`)).json();
      const echoed = await send(adminToken, 'PUT', `/api/users/${user.id}`, current);
      expect(echoed.statusCode).toBe(200);
      expect(echoed.json()).toMatchObject({ name: 'Renamed Person', role: 'dentist', is_active: true });
      await login(app, `${user.username}.x`, user.password);
    });

    it("sets a new password, hashed, and ends the user's sessions", async () => {
      const user = await createUser();
      await login(app, user.username, user.password);
      expect((await liveSessions(user.id)).length).toBe(1);
      const response = await send(adminToken, 'PUT', `/api/users/${user.id}`, {
        ...newUser(),
        username: user.username,
        email: `${user.username}@example.com`,
        password: 'brand-new-secret',
      });
      expect(response.statusCode).toBe(200);
      expect(await liveSessions(user.id)).toHaveLength(0);
      await expect(login(app, user.username, user.password)).rejects.toThrow(/401/);
      await login(app, user.username, 'brand-new-secret');
    });

    it('answers 409 for a username or e-mail another user has', async () => {
      const user = await createUser();
      const body = { ...newUser(), username: 'dentist' };
      const response = await send(adminToken, 'PUT', `/api/users/${user.id}`, body);
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe('That username is already taken');
      const email = await send(adminToken, 'PUT', `/api/users/${user.id}`, {
        ...newUser(),
        email: 'sarah.johnson@brightsmile.example',
      });
      expect(email.statusCode).toBe(409);
      expect(email.json().message).toBe('That e-mail address is already in use');
      expect(await userRow(user.id)).toMatchObject({ username: user.username });
    });

    it('keeps the dentist link when the form leaves it out, and drops it for other roles', async () => {
      const dentistUser = (await send(adminToken, 'GET', '/api/users?search=sarah')).json().data[0];
      const kept = await send(adminToken, 'PUT', `/api/users/${dentistUser.id}`, {
        name: dentistUser.name,
        username: dentistUser.username,
        email: dentistUser.email,
        role: 'dentist',
      });
      expect(kept.statusCode).toBe(200);
      expect(kept.json().dentist_id).toBe(dentistUser.dentist_id);
    });

    it('validates like creation (400 naming the field, nothing changed)', async () => {
      const user = await createUser();
      for (const [field, overrides] of [
        ['username', { username: 'no' }],
        ['email', { email: 'nope' }],
        ['password', { password: 'short' }],
        ['password', { password: 'qwertyuiop' }],
        ['role', { role: 'boss' }],
      ] as const) {
        const response = await send(adminToken, 'PUT', `/api/users/${user.id}`, newUser(overrides));
        expect(response.statusCode).toBe(400);
        expect(response.json().errors.map((error: { field: string }) => error.field)).toContain(field);
      }
      expect(await userRow(user.id)).toMatchObject({ username: user.username, role: 'receptionist' });
    });

    it('answers 404 for a missing user or one of another clinic, changing nothing', async () => {
      expect((await send(adminToken, 'PUT', '/api/users/999999', newUser())).statusCode).toBe(404);
      const foreign = await send(harborAdminToken, 'PUT', '/api/users/2', newUser());
      expect(foreign.statusCode).toBe(404);
      expect(await userRow(2)).toMatchObject({ username: 'receptionist', name: 'Riley Chen' });
    });

    it('refuses an admin changing their own role or deactivating themself', async () => {
      const second = await createUser({ role: 'admin' });
      const self = (await send(adminToken, 'GET', `/api/users/${adminId}`)).json();
      const demote = await send(adminToken, 'PUT', `/api/users/${adminId}`, {
        ...self,
        role: 'receptionist',
      });
      expect(demote.statusCode).toBe(409);
      expect(demote.json().message).toMatch(/your own role/);
      const deactivate = await send(adminToken, 'PUT', `/api/users/${adminId}`, { ...self, isActive: false });
      expect(deactivate.statusCode).toBe(409);
      expect(deactivate.json().message).toBe('You cannot deactivate your own account');
      expect(await userRow(adminId)).toMatchObject({ role: 'admin', isActive: true });
      // Another admin may be demoted while one active admin remains.
      const other = (await send(adminToken, 'GET', `/api/users/${second.id}`)).json();
      const demoted = await send(adminToken, 'PUT', `/api/users/${second.id}`, {
        ...other,
        role: 'receptionist',
      });
      expect(demoted.statusCode).toBe(200);
    });

    it("refuses to demote the clinic's last active admin", async () => {
      const self = (await send(harborAdminToken, 'GET', `/api/users/${harborAdminId}`)).json();
      const response = await send(harborAdminToken, 'PUT', `/api/users/${harborAdminId}`, {
        ...self,
        role: 'receptionist',
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(
        "The clinic's last active administrator cannot be given another role",
      );
      expect(await userRow(harborAdminId)).toMatchObject({ role: 'admin' });
    });
  });

  describe('status', () => {
    it('deactivates a user: their sessions end and they cannot sign in; reactivates them', async () => {
      const user = await createUser();
      const session = await login(app, user.username, user.password);
      expect((await send(session.token, 'GET', '/api/settings')).statusCode).toBe(200);

      const off = await send(adminToken, 'PATCH', `/api/users/${user.id}/status`, { isActive: false });
      expect(off.statusCode).toBe(200);
      expect(off.json()).toMatchObject({ id: user.id, is_active: false });
      expect(await liveSessions(user.id)).toHaveLength(0);
      expect((await send(session.token, 'GET', '/api/settings')).statusCode).toBe(401);
      await expect(login(app, user.username, user.password)).rejects.toThrow(/403/);
      const [audit] = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entityId, String(user.id)), eq(auditLog.action, 'deactivate')));
      expect(audit).toMatchObject({ entity: 'user', userId: adminId });

      const on = await send(adminToken, 'PATCH', `/api/users/${user.id}/status`, { isActive: true });
      expect(on.json()).toMatchObject({ is_active: true });
      await login(app, user.username, user.password);
    });

    it.each([[{}], [{ isActive: 'no' }], [{ isActive: true, extra: 1 }], [{ active: false }]])(
      'refuses the body %j with 400',
      async (body) => {
        const response = await send(adminToken, 'PATCH', '/api/users/2/status', body);
        expect(response.statusCode).toBe(400);
      },
    );

    it('refuses an admin deactivating themself, and the last active admin', async () => {
      const self = await send(adminToken, 'PATCH', `/api/users/${adminId}/status`, { isActive: false });
      expect(self.statusCode).toBe(409);
      const last = await send(harborAdminToken, 'PATCH', `/api/users/${harborAdminId}/status`, {
        isActive: false,
      });
      expect(last.statusCode).toBe(409);
      expect(last.json().message).toBe("The clinic's last active administrator cannot be deactivated");
      expect(await userRow(harborAdminId)).toMatchObject({ isActive: true });
    });

    it('answers 404 across clinics', async () => {
      const response = await send(harborAdminToken, 'PATCH', '/api/users/2/status', { isActive: false });
      expect(response.statusCode).toBe(404);
      expect(await userRow(2)).toMatchObject({ isActive: true });
    });
  });

  describe('delete', () => {
    it('deletes a user and ends their sessions', async () => {
      const user = await createUser();
      const session = await login(app, user.username, user.password);
      const response = await send(adminToken, 'DELETE', `/api/users/${user.id}`);
      expect(response.statusCode).toBe(200);
      expect(response.json().message).toBe('User deleted');
      expect(await userRow(user.id)).toBeUndefined();
      expect(await liveSessions(user.id)).toHaveLength(0);
      expect((await send(session.token, 'GET', '/api/settings')).statusCode).toBe(401);
      expect((await send(adminToken, 'GET', `/api/users/${user.id}`)).statusCode).toBe(404);
      expect((await send(adminToken, 'DELETE', `/api/users/${user.id}`)).statusCode).toBe(404);
      const [audit] = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entityId, String(user.id)), eq(auditLog.action, 'delete')));
      expect(audit).toMatchObject({ entity: 'user', userId: adminId });
    });

    it('refuses self-deletion and deleting the last active admin', async () => {
      await createUser({ role: 'admin' });
      const self = await send(adminToken, 'DELETE', `/api/users/${adminId}`);
      expect(self.statusCode).toBe(409);
      expect(self.json().message).toBe('You cannot delete your own account');
      const last = await send(harborAdminToken, 'DELETE', `/api/users/${harborAdminId}`);
      expect(last.statusCode).toBe(409);
      expect(last.json().message).toBe("The clinic's last active administrator cannot be deleted");
      expect(await userRow(adminId)).toBeDefined();
      expect(await userRow(harborAdminId)).toBeDefined();
    });

    it('answers 404 across clinics and deletes nothing', async () => {
      const response = await send(harborAdminToken, 'DELETE', '/api/users/2');
      expect(response.statusCode).toBe(404);
      expect(await userRow(2)).toBeDefined();
    });
  });
});
