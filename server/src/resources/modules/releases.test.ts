import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { apiSender, createTestApp, fieldErrorsOf, login } from '../../test/testApp';
import { removeRelease } from './releaseFiles';
import { pruneReleases } from './releasesData';

const PLATFORM_TOKEN = 'platform-key-for-the-release-tests-0123456789';
/** What the shell of these tests provides (its build's provides.json). */
const PROVIDES = { react: '19.3.1', '@dental/shared': '2.1.0' };

/** A module's build as `module:publish` sends it: each file base64. */
function build(
  entry: string,
  needs: Record<string, string> = { '@dental/shared': '^2.1.0', react: '^19.3.1' },
) {
  const manifest = {
    id: 'mf_dentists',
    name: 'mf_dentists',
    shared: Object.entries(needs).map(([name, requiredVersion]) => ({
      name,
      requiredVersion,
      singleton: true,
    })),
  };
  return {
    version: '1.0.1',
    commit: 'abc1234',
    built_at: '2026-11-29T10:00:00.000Z',
    files: [
      { path: 'remoteEntry.js', content: Buffer.from(entry).toString('base64') },
      { path: 'mf-manifest.json', content: Buffer.from(JSON.stringify(manifest)).toString('base64') },
      { path: 'chunks/12.abc.js', content: Buffer.from(`// a chunk of ${entry}`).toString('base64') },
    ],
  };
}

/** Module releases (docs/architecture.md, Module releases): publish, point, roll back, refuse skew. */
describe('module releases', () => {
  let app: FastifyInstance;
  let root: string;
  let admin: string;
  let harborAdmin: string;
  const send = apiSender(() => app);
  const platform = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, key = PLATFORM_TOKEN) =>
    app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${key}`, 'x-release-actor': 'ci' },
      ...(payload ? { payload } : {}),
    });
  const entryOf = async (token: string, id: string) =>
    ((await send(token, 'GET', '/api/modules')).json().data as Array<Record<string, unknown>>).find(
      (module) => module.id === id,
    );

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'releases-'));
    await mkdir(path.join(root, 'shell', 'dist'), { recursive: true });
    await writeFile(path.join(root, 'shell', 'dist', 'provides.json'), JSON.stringify(PROVIDES));
    app = await createTestApp({
      staticRoot: root,
      moduleReleasesDir: path.join(root, 'releases'),
      platformToken: PLATFORM_TOKEN,
    });
    admin = (await login(app, 'admin', 'admin123')).token;
    harborAdmin = (await login(app, 'harbor.admin', 'harbor123')).token;
  });
  afterAll(async () => {
    await app.close();
    await rm(root, { recursive: true, force: true });
  });

  it('answers only to the platform key: none given or a wrong one is refused, and a clinic admin is no platform', async () => {
    const wrong = await platform('POST', '/platform/modules/dentists/releases', build('v0'), 'not-the-key');
    expect(wrong.statusCode).toBe(401);
    const staff = await send(admin, 'POST', '/platform/modules/dentists/releases', build('v0'));
    expect(staff.statusCode).toBe(401);
    const closed = await createTestApp({ staticRoot: root, moduleReleasesDir: path.join(root, 'releases') });
    try {
      const answer = await closed.inject({
        method: 'PUT',
        url: '/platform/modules/dentists/pointer',
        payload: {},
      });
      expect(answer.statusCode).toBe(404);
    } finally {
      await closed.close();
    }
  });

  it('will not start with a platform key short enough to guess', async () => {
    await expect(createTestApp({ platformToken: 'short-key' })).rejects.toThrow(
      'PLATFORM_TOKEN must be at least 32 characters',
    );
  });

  it('keeps a published build under its content-named release, served for good, and publishing it again changes nothing', async () => {
    const published = await platform(
      'POST',
      '/platform/modules/dentists/releases',
      build('console.log("v1")'),
    );
    expect(published.statusCode).toBe(201);
    const release = published.json();
    expect(release).toMatchObject({
      module_id: 'dentists',
      version: '1.0.1',
      commit: 'abc1234',
      shared: { '@dental/shared': '^2.1.0', react: '^19.3.1' },
      published_by: 'platform (ci)',
      integrity: `sha384-${createHash('sha384').update('console.log("v1")').digest('base64')}`,
    });
    expect(release.release).toMatch(/^1\.0\.1-[0-9a-f]{12}$/);
    const served = await app.inject({
      method: 'GET',
      url: `/modules/dentists/${release.release}/remoteEntry.js`,
    });
    expect(served.statusCode).toBe(200);
    expect(served.body).toBe('console.log("v1")');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const chunk = await app.inject({
      method: 'GET',
      url: `/modules/dentists/${release.release}/chunks/12.abc.js`,
    });
    expect(chunk.body).toBe('// a chunk of console.log("v1")');

    const again = await platform('POST', '/platform/modules/dentists/releases', build('console.log("v1")'));
    expect(again.statusCode).toBe(201);
    expect(again.json().release).toBe(release.release);
    const onDisk = path.join(root, 'releases', 'dentists', release.release, 'remoteEntry.js');
    expect(await readFile(onDisk, 'utf8')).toBe('console.log("v1")');
  });

  it('refuses (409) a build that needs a shared package the deployed shell does not provide, naming both versions', async () => {
    const newer = await platform(
      'POST',
      '/platform/modules/dentists/releases',
      build('console.log("newer")', { '@dental/shared': '^2.4.0' }),
    );
    expect(newer.statusCode).toBe(409);
    expect(newer.json().message).toBe(
      'The dentists module was built for @dental/shared ^2.4.0; the app provides 2.1.0',
    );
    const refused = (await send(admin, 'GET', '/api/modules/dentists/releases')).json();
    expect(refused.releases.map((one: { version: string }) => one.version)).not.toContain('newer');
  });

  it('refuses a build with a file outside its folder or without its entry, naming the field', async () => {
    const outside = build('x');
    outside.files.push({ path: '../escape.js', content: '' });
    const escaped = await platform('POST', '/platform/modules/dentists/releases', outside);
    expect(escaped.statusCode).toBe(400);
    expect(fieldErrorsOf(escaped).map((error) => error.field)).toContain('files.3.path');
    const noEntry = build('x');
    noEntry.files.splice(0, 1);
    const missing = await platform('POST', '/platform/modules/dentists/releases', noEntry);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Invalid files: the build has no remoteEntry.js');
  });

  it('points one clinic at a release first, then the default; rolling back is pointing back; each move is in the history', async () => {
    const v1 = (
      await platform('POST', '/platform/modules/dentists/releases', build('v1 of dentists'))
    ).json();
    const v2 = (
      await platform('POST', '/platform/modules/dentists/releases', build('v2 of dentists'))
    ).json();
    expect(
      (await platform('PUT', '/platform/modules/dentists/pointer', { release: v1.release, clinic: null }))
        .statusCode,
    ).toBe(200);
    const pinned = await platform('PUT', '/platform/modules/dentists/pointer', {
      release: v2.release,
      clinic: 'harbor-dental',
    });
    expect(pinned.statusCode).toBe(200);

    // Harbor runs v2, the other clinic the default's v1, each from its own release folder.
    expect(await entryOf(harborAdmin, 'dentists')).toMatchObject({
      entry: `/modules/dentists/${v2.release}/remoteEntry.js`,
      release: v2.release,
      integrity: v2.integrity,
      version: '1.0.1',
    });
    expect(await entryOf(admin, 'dentists')).toMatchObject({ release: v1.release, integrity: v1.integrity });

    // Rolling harbor back: it follows the default again.
    const back = await platform('DELETE', '/platform/modules/dentists/pointer?clinic=harbor-dental');
    expect(back.statusCode).toBe(204);
    expect(await entryOf(harborAdmin, 'dentists')).toMatchObject({ release: v1.release });

    const history = (await send(harborAdmin, 'GET', '/api/modules/dentists/releases')).json();
    expect(history).toMatchObject({ default_release: v1.release, clinic_release: null });
    expect(history.events.slice(0, 3)).toEqual([
      expect.objectContaining({
        action: 'unpointed',
        release: v2.release,
        clinic: 'harbor-dental',
        actor: 'platform (ci)',
      }),
      expect.objectContaining({ action: 'pointed', release: v2.release, clinic: 'harbor-dental' }),
      expect.objectContaining({ action: 'pointed', release: v1.release, clinic: null }),
    ]);
    // The other clinic's admin does not see harbor's moves.
    const own = (await send(admin, 'GET', '/api/modules/dentists/releases')).json();
    expect(own.events.some((event: { clinic: string | null }) => event.clinic === 'harbor-dental')).toBe(
      false,
    );
    // Harbor's own audit trail names the moves.
    const audit = (await send(harborAdmin, 'GET', '/api/audit?limit=20')).json();
    expect(JSON.stringify(audit)).toContain('module_release_pointed');
  });

  it('refuses to point at a release never published or a clinic unknown, and changes nothing', async () => {
    const before = await entryOf(admin, 'patients');
    const unknown = await platform('PUT', '/platform/modules/patients/pointer', {
      release: '9.9.9-0123456789ab',
      clinic: null,
    });
    expect(unknown.statusCode).toBe(404);
    const v1 = (await platform('POST', '/platform/modules/patients/releases', build('patients v1'))).json();
    const nowhere = await platform('PUT', '/platform/modules/patients/pointer', {
      release: v1.release,
      clinic: 'nowhere',
    });
    expect(nowhere.statusCode).toBe(404);
    expect(await entryOf(admin, 'patients')).toEqual(before);
  });

  it('lands two publishes at once, each under its own release', async () => {
    const [one, two] = await Promise.all([
      platform('POST', '/platform/modules/admin/releases', build('admin build one')),
      platform('POST', '/platform/modules/admin/releases', build('admin build two')),
    ]);
    expect([one?.statusCode, two?.statusCode]).toEqual([201, 201]);
    expect(one?.json().release).not.toBe(two?.json().release);
    for (const answer of [one, two]) {
      const served = await app.inject({
        method: 'GET',
        url: `/modules/admin/${answer?.json().release}/remoteEntry.js`,
      });
      expect(served.statusCode).toBe(200);
    }
  });

  it('prunes releases nothing runs and nothing ran for the grace days, keeping those pointed at or recently left', async () => {
    const [kept = '', left = '', unused = ''] = await Promise.all(
      ['scheduling kept', 'scheduling left', 'scheduling unused'].map(async (entry) => {
        const answer = await platform('POST', '/platform/modules/scheduling/releases', build(entry));
        expect(answer.statusCode).toBe(201);
        return answer.json().release as string;
      }),
    );
    await platform('PUT', '/platform/modules/scheduling/pointer', { release: kept, clinic: null });
    await platform('PUT', '/platform/modules/scheduling/pointer', { release: left, clinic: 'harbor-dental' });
    await platform('DELETE', '/platform/modules/scheduling/pointer?clinic=harbor-dental');
    // All three were published ten days ago; only the pointers moved since.
    await app.database.db.execute(
      sql`update module_releases set published_at = now() - interval '10 days' where module_id = 'scheduling'`,
    );
    const pruned = await pruneReleases(app.database.db, 7);
    expect(pruned).toEqual([{ moduleId: 'scheduling', release: unused }]);
    for (const one of pruned) await removeRelease(path.join(root, 'releases'), one.moduleId, one.release);
    const folder = (release: string) => path.join(root, 'releases', 'scheduling', release, 'remoteEntry.js');
    await expect(readFile(folder(unused), 'utf8')).rejects.toThrow();
    expect(await readFile(folder(kept), 'utf8')).toBe('scheduling kept');
    expect(await readFile(folder(left), 'utf8')).toBe('scheduling left');
    // Once the pointers' moves are older than the grace too, the release left goes; the one run stays.
    await app.database.db.execute(
      sql`update module_release_events set at = now() - interval '10 days' where module_id = 'scheduling'`,
    );
    expect(await pruneReleases(app.database.db, 7)).toEqual([{ moduleId: 'scheduling', release: left }]);
  });
});
