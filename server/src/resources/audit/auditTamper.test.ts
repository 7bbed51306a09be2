import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Client } from 'pg';
import { type AuditProof, checkAuditHeads, macUnmarkedRecords, verifyAuditChain } from '../../db/auditLog';
import { authHeader, createTestApp, login, ownerDatabaseUrlOf } from '../../test/testApp';

const AUDIT_KEY = 'an audit key of the clinic, kept outside the database';
const CLINIC = 1;

/** A test app whose sealings export their heads to a file of its own; closing it removes the file. */
async function appExportingHeads(): Promise<{
  app: FastifyInstance;
  proof: AuditProof & { headFile: string };
}> {
  const folder = await mkdtemp(path.join(tmpdir(), 'dental-audit-heads-'));
  const headFile = path.join(folder, 'audit-heads.jsonl');
  const app = await createTestApp({ auditKey: AUDIT_KEY, auditHeadFile: headFile });
  app.addHook('onClose', async () => rm(folder, { recursive: true, force: true }));
  return { app, proof: { key: AUDIT_KEY, headFile } };
}

/** As the tables' owner: the audit tables' triggers off, `change` run, the triggers on again. */
async function asOwner(app: FastifyInstance, change: string): Promise<void> {
  await app.database.db.execute(
    sql.raw(`
      alter table audit_log disable trigger user;
      alter table audit_log_macs disable trigger user;
      ${change};
      alter table audit_log enable trigger user;
      alter table audit_log_macs enable trigger user;`),
  );
}

/**
 * The audit trail against whoever keeps the database: a chain rewritten or cut back by the tables'
 * owner shows in `audit:verify`, and on PostgreSQL the role that serves requests cannot touch it.
 */
describe('the audit trail against its keeper', () => {
  let app: FastifyInstance;
  let proof: AuditProof & { headFile: string };

  /** A few records sealed: sign-ins, each sealed and its head exported. */
  const writeAndSeal = async () => {
    for (let index = 0; index < 3; index += 1) await login(app, 'receptionist', 'receptionist123');
    const check = await verifyAuditChain(app.database.db, CLINIC, proof);
    expect(check.firstUnfit).toBeNull();
    return check.records;
  };
  beforeAll(async () => {
    ({ app, proof } = await appExportingHeads());
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  }, 60_000);

  it("exports each sealing's head, an HMAC with it, and finds it in the database", async () => {
    const records = await writeAndSeal();
    const heads = (await readFile(proof.headFile, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { clinic_id: number });
    const last = heads.filter((head) => head.clinic_id === CLINIC).at(-1);
    expect(last).toMatchObject({
      clinic_id: CLINIC,
      place: records,
      mac: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect((await checkAuditHeads(app.database.db, proof)).get(CLINIC)).toEqual({
      state: 'holds',
      place: records,
    });
  });

  it('a record edited and the whole chain recomputed by the owner fails its HMAC', async () => {
    await writeAndSeal();
    const { rows } = await app.database.db.execute(
      sql`select id, chain_seq from audit_log where clinic_id = ${CLINIC} and chain_seq > 0 order by chain_seq desc limit 1 offset 1`,
    );
    const victim = rows[0] as { id: number; chain_seq: number | string };
    // The owner's rewrite: the record edited, then every hash after it recomputed with the
    // database's own function, so the unkeyed chain holds again.
    await asOwner(
      app,
      `
      update audit_log set details = '{"ip":"10.0.0.1"}' where clinic_id = ${CLINIC} and id = ${victim.id};
      do $$
      declare rec audit_log; previous text := '';
      begin
        for rec in select * from audit_log where clinic_id = ${CLINIC} and chain_seq > 0 order by chain_seq loop
          previous := audit_chain_hash(previous, rec);
          update audit_log set hash = previous where clinic_id = rec.clinic_id and id = rec.id;
        end loop;
      end $$`,
    );
    const check = await verifyAuditChain(app.database.db, CLINIC, proof);
    expect(check.firstUnfit).toEqual({
      id: Number(victim.id),
      place: Number(victim.chain_seq),
      reason: 'mac',
    });
    // The exported head names the hash the chain had: it was rewritten.
    expect((await checkAuditHeads(app.database.db, proof)).get(CLINIC)?.state).toBe('rewritten');
    const api = await app.inject({
      method: 'GET',
      url: '/api/audit/verify',
      headers: authHeader((await login(app, 'admin', 'admin123')).token),
    });
    expect(api.json()).toMatchObject({ holds: false, first_unfit: { id: Number(victim.id) } });
  });
});

describe('the audit trail cut back by its keeper', () => {
  let app: FastifyInstance;
  let proof: AuditProof & { headFile: string };

  beforeAll(async () => {
    ({ app, proof } = await appExportingHeads());
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  }, 60_000);

  it('the newest records deleted, HMACs and all: the chain holds, the exported head is missing', async () => {
    for (let index = 0; index < 3; index += 1) await login(app, 'receptionist', 'receptionist123');
    const before = await verifyAuditChain(app.database.db, CLINIC, proof);
    expect(before.firstUnfit).toBeNull();
    await asOwner(
      app,
      `delete from audit_log where clinic_id = ${CLINIC} and chain_seq > ${before.records - 2};
       delete from audit_log_macs where clinic_id = ${CLINIC} and chain_seq > ${before.records - 2}`,
    );
    // What is left is a chain that holds, HMACs and all: only the exported head tells.
    const after = await verifyAuditChain(app.database.db, CLINIC, proof);
    expect(after).toEqual({ records: before.records - 2, firstUnfit: null });
    expect((await checkAuditHeads(app.database.db, proof)).get(CLINIC)).toEqual({
      state: 'truncated',
      place: before.records,
    });
    // `npm run audit:verify` says so, beside the running server (PostgreSQL: PGlite's folder is the
    // running server's alone).
    const databaseUrl = ownerDatabaseUrlOf(app);
    if (!databaseUrl) return;
    const run = promisify(execFile);
    const verified = await run('npx', ['tsx', 'src/scripts/auditVerify.ts'], {
      cwd: path.join(__dirname, '..', '..', '..'),
      env: { ...process.env, DATABASE_URL: databaseUrl, AUDIT_KEY, AUDIT_HEAD_FILE: proof.headFile },
    }).then(
      () => ({ code: 0, stdout: '' }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
    expect(verified.code).toBe(1);
    expect(verified.stdout).toMatch(
      /Bright Smile Dental \(clinic 1\): \d+ audit records, the chain holds; BROKEN: cut back/,
    );
  }, 60_000);

  it('a start gives no HMAC to a record whose own was removed: the rewrite stays in sight', async () => {
    const before = await verifyAuditChain(app.database.db, CLINIC, proof);
    expect(before.firstUnfit).toBeNull();
    await asOwner(
      app,
      `delete from audit_log_macs where clinic_id = ${CLINIC} and chain_seq = ${before.records}`,
    );
    // What every start runs: HMACs for records sealed before HMACs began, and only then.
    expect(await macUnmarkedRecords(app.database.db, AUDIT_KEY)).toBe(0);
    expect((await verifyAuditChain(app.database.db, CLINIC, proof)).firstUnfit).toMatchObject({
      place: before.records,
      reason: 'mac',
    });
  });

  it('the first start with the key, no HMAC anywhere yet (an upgrade), gives every sealed record its own', async () => {
    await asOwner(app, 'delete from audit_log_macs');
    const records = (
      await app.database.db.execute(sql`select count(*)::int as n from audit_log where chain_seq > 0`)
    ).rows[0] as { n: number };
    expect(await macUnmarkedRecords(app.database.db, AUDIT_KEY)).toBe(records.n);
    expect((await verifyAuditChain(app.database.db, CLINIC, proof)).firstUnfit).toBeNull();
  });
});

describe('the role that serves requests (PostgreSQL)', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await createTestApp({ auditKey: AUDIT_KEY }, 'dental_serving');
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  }, 60_000);

  it('writes and seals audit records, and can neither change, delete, truncate nor unguard them', async () => {
    const ownerUrl = ownerDatabaseUrlOf(app);
    if (!ownerUrl) return; // PGlite: one role, the owner; see docs/security.md.
    // The API works as that role: a sign-in is recorded and sealed.
    const admin = await login(app, 'admin', 'admin123');
    const verified = await app.inject({
      method: 'GET',
      url: '/api/audit/verify',
      headers: authHeader(admin.token),
    });
    expect(verified.json()).toMatchObject({ holds: true });

    const url = new URL(ownerUrl);
    url.username = 'dental_serving';
    const serving = new Client({ connectionString: url.toString() });
    await serving.connect();
    try {
      const refused = async (statement: string) =>
        serving.query(statement).then(
          () => 'done',
          (error: { message: string }) => error.message,
        );
      expect(await refused('alter table audit_log disable trigger user')).toMatch(/must be owner/);
      expect(await refused('alter table audit_log_macs disable trigger user')).toMatch(/must be owner/);
      expect(await refused("update audit_log set details = '{}' where clinic_id = 1")).toMatch(
        /permission denied/,
      );
      expect(await refused('delete from audit_log where clinic_id = 1')).toMatch(/permission denied/);
      expect(await refused('truncate audit_log')).toMatch(/permission denied/);
      expect(await refused('delete from audit_log_macs')).toMatch(/permission denied/);
      expect(await refused("update audit_log_macs set mac = repeat('0', 64)")).toMatch(/permission denied/);
      expect(await refused('drop function seal_audit_records()')).toMatch(/must be owner/);
      // Reading and adding stay its own: the trail is written by the API.
      expect(await refused('select count(*) from audit_log')).toBe('done');
    } finally {
      await serving.end();
    }
  });
});
