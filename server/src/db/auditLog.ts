import { createHmac, timingSafeEqual } from 'node:crypto';
import { appendFile, readFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config';
import type { Database } from './client';
import { auditLog, auditLogMacs } from './schema';
import { sharedSecret } from './secrets';

export interface AuditEntry {
  clinicId: number;
  userId: number | null;
  action: string;
  entity: string;
  entityId?: string | number | null;
  details?: Record<string, unknown>;
  /** The desk (browser tab) the change was made at, for live screens (migration 0026). */
  desk?: string | null;
}

/** Who did what to which row, and when (UTC). Pass the transaction so the record shares its fate. */
export async function recordAudit(db: Pick<Database, 'insert'>, entry: AuditEntry): Promise<void> {
  await recordAudits(db, [entry]);
}

/** Several records in one statement, in their order (their order in the chain). */
export async function recordAudits(db: Pick<Database, 'insert'>, entries: AuditEntry[]): Promise<void> {
  await db.insert(auditLog).values(
    entries.map((entry) => ({
      clinicId: entry.clinicId,
      userId: entry.userId,
      action: entry.action,
      entity: entry.entity,
      entityId: entry.entityId === undefined || entry.entityId === null ? null : String(entry.entityId),
      details: entry.details ?? null,
      desk: entry.desk ?? null,
    })),
  );
}

/**
 * A refused call (403) of a signed-in staff member: the route, the row it named (its `:id`), the
 * method and why it was refused.
 */
export async function recordRefusal(
  db: Pick<Database, 'insert'>,
  request: FastifyRequest,
  staff: { clinicId: number; id: number },
  details: Record<string, unknown>,
): Promise<void> {
  const params = request.params as { id?: unknown } | undefined;
  await recordAudit(db, {
    clinicId: staff.clinicId,
    userId: staff.id,
    action: 'access_denied',
    entity: request.routeOptions.url ?? request.url,
    entityId: typeof params?.id === 'string' || typeof params?.id === 'number' ? params.id : null,
    details: { method: request.method, ...details },
  });
}

/**
 * What proves the audit chain against whoever keeps the database: the HMAC key (AUDIT_KEY, kept
 * outside it) and, when set, the file each sealing appends the chains' heads to (AUDIT_HEAD_FILE), a
 * place the clinic can make write-once. See docs/security.md "The audit trail".
 */
export interface AuditProof {
  key: string;
  headFile: string | null;
}

/** The proof this configuration keeps: AUDIT_KEY, or (development) a key the database keeps. */
export async function auditProofOf(
  db: Database,
  config: Pick<AppConfig, 'auditKey' | 'auditHeadFile'>,
): Promise<AuditProof> {
  return { key: config.auditKey ?? (await sharedSecret(db, 'audit')), headFile: config.auditHeadFile };
}

/** A sealed record's place in its clinic's chain. */
interface SealedRecord {
  clinicId: number;
  place: number;
  hash: string;
}

/** A chain's head as the head file keeps it, one JSON line per sealing and clinic. */
export interface AuditHead {
  clinic_id: number;
  place: number;
  hash: string;
  mac: string;
  at: string;
}

/** The HMAC of a sealed record: its clinic, its place and its hash (which covers all before it). */
export function auditMacOf(key: string, record: SealedRecord): string {
  return createHmac('sha256', key).update(`${record.clinicId}|${record.place}|${record.hash}`).digest('hex');
}

const MAC_BATCH = 1_000;

async function insertMacs(db: Pick<Database, 'insert'>, key: string, records: SealedRecord[]) {
  for (let start = 0; start < records.length; start += MAC_BATCH) {
    await db.insert(auditLogMacs).values(
      records.slice(start, start + MAC_BATCH).map((record) => ({
        clinicId: record.clinicId,
        chainSeq: record.place,
        mac: auditMacOf(key, record),
      })),
    );
  }
}

/**
 * Gives the audit records written since the last sealing their places in their clinics' chains
 * (migration 0028: seal_audit_records) and each its HMAC, in one transaction; appends each clinic's
 * new head to the head file; answers how many were sealed. Safe from any number of API processes at
 * once: one seals a clinic while the others pass it by.
 */
export async function sealAuditChain(db: Database, proof: AuditProof): Promise<number> {
  const sealed = await db.transaction(async (tx) => {
    const { rows } = await tx.execute(sql`select clinic_id, chain_seq, hash from seal_audit_records()`);
    const records = (rows as Array<{ clinic_id: number; chain_seq: number | string; hash: string }>).map(
      (row) => ({ clinicId: Number(row.clinic_id), place: Number(row.chain_seq), hash: row.hash }),
    );
    await insertMacs(tx, proof.key, records);
    return records;
  });
  if (sealed.length > 0 && proof.headFile) await appendHeads(proof.key, proof.headFile, sealed);
  return sealed.length;
}

async function appendHeads(key: string, headFile: string, sealed: SealedRecord[]) {
  const heads = new Map<number, SealedRecord>();
  for (const record of sealed) {
    const known = heads.get(record.clinicId);
    if (!known || record.place > known.place) heads.set(record.clinicId, record);
  }
  const at = new Date().toISOString();
  const lines = [...heads.values()].map((head) =>
    JSON.stringify({
      clinic_id: head.clinicId,
      place: head.place,
      hash: head.hash,
      mac: auditMacOf(key, head),
      at,
    } satisfies AuditHead),
  );
  await appendFile(headFile, `${lines.join('\n')}\n`, { mode: 0o600 });
}

/**
 * Gives an HMAC to the records sealed before HMACs began (0028): once, at the first start with the
 * key, in one transaction, and only while the database holds no HMAC at all. Never again after: a
 * start must not give HMACs to records whose own were removed (a rewritten chain would pass). Answers
 * how many. See docs/security.md "The audit trail".
 */
export async function macUnmarkedRecords(db: Database, key: string): Promise<number> {
  const { rows: begun } = await db.execute(sql`select exists (select 1 from audit_log_macs) as begun`);
  if ((begun[0] as { begun: boolean }).begun) return 0;
  return db.transaction(async (tx) => {
    let marked = 0;
    let after = { clinicId: 0, place: 0 };
    for (;;) {
      const { rows } = await tx.execute(sql`
        select clinic_id, chain_seq, hash from audit_log
        where chain_seq > 0 and (clinic_id, chain_seq) > (${after.clinicId}, ${after.place})
        order by clinic_id, chain_seq limit ${MAC_BATCH * 5}`);
      const records = (rows as Array<{ clinic_id: number; chain_seq: number | string; hash: string }>).map(
        (row) => ({ clinicId: Number(row.clinic_id), place: Number(row.chain_seq), hash: row.hash }),
      );
      if (records.length === 0) return marked;
      await insertMacs(tx, key, records);
      marked += records.length;
      after = records[records.length - 1] ?? after;
    }
  });
}

/** What a check of a clinic's chain found. */
export interface AuditChainCheck {
  /** Sealed records checked. */
  records: number;
  /**
   * The first record that does not fit: edited, its neighbour deleted (`chain`), or without the HMAC
   * only the key's holder can write (`mac`: the chain was rewritten in the database), or null.
   */
  firstUnfit: { id: number; place: number; reason: 'chain' | 'mac' } | null;
}

const VERIFY_PAGE = 10_000;

/**
 * Checks a clinic's audit chain after sealing what is new: each record's hash must be that of the
 * record before it and its own fields, the places must run 1, 2, 3… without a gap, and each record's
 * HMAC must be the key's. A record edited behind the API's back (the database refuses it, unless its
 * triggers were disabled by its owner), a record removed, or a chain recomputed breaks it there.
 */
export async function verifyAuditChain(
  db: Database,
  clinicId: number,
  proof: AuditProof,
): Promise<AuditChainCheck> {
  await sealAuditChain(db, proof);
  const { rows } = await db.execute(sql`
    with checked as (
      select a.id, a.chain_seq,
        a.hash = audit_chain_hash(coalesce(lag(a.hash) over w, ''), a) as fits,
        a.chain_seq = row_number() over w as in_place
      from audit_log a
      where a.clinic_id = ${clinicId} and a.chain_seq > 0
      window w as (order by a.chain_seq)
    )
    select (select count(*) from checked) as records,
      (select json_build_object('id', id, 'place', chain_seq) from checked
       where not fits or not in_place order by chain_seq limit 1) as first_unfit
  `);
  const row = rows[0] as {
    records: number | string;
    first_unfit: { id: number; place: number | string } | null;
  };
  const chainUnfit = row.first_unfit
    ? { id: Number(row.first_unfit.id), place: Number(row.first_unfit.place), reason: 'chain' as const }
    : null;
  const macUnfit = await firstUnmacked(db, clinicId, proof.key, chainUnfit?.place ?? null);
  return { records: Number(row.records), firstUnfit: macUnfit ?? chainUnfit };
}

/** The first record (before `before`, when given) whose HMAC is missing or not the key's. */
async function firstUnmacked(db: Database, clinicId: number, key: string, before: number | null) {
  let after = 0;
  for (;;) {
    const { rows } = await db.execute(sql`
      select a.id, a.chain_seq, a.hash, m.mac from audit_log a
      left join audit_log_macs m on m.clinic_id = a.clinic_id and m.chain_seq = a.chain_seq
      where a.clinic_id = ${clinicId} and a.chain_seq > ${after}
        ${before === null ? sql`` : sql`and a.chain_seq < ${before}`}
      order by a.chain_seq limit ${VERIFY_PAGE}`);
    const page = rows as Array<{ id: number; chain_seq: number | string; hash: string; mac: string | null }>;
    for (const record of page) {
      const place = Number(record.chain_seq);
      const expected = auditMacOf(key, { clinicId, place, hash: record.hash });
      if (record.mac === null || !macsEqual(record.mac, expected)) {
        return { id: Number(record.id), place, reason: 'mac' as const };
      }
    }
    if (page.length < VERIFY_PAGE) return null;
    after = Number(page[page.length - 1]?.chain_seq ?? 0);
  }
}

const macsEqual = (stored: string, expected: string) =>
  stored.length === expected.length && timingSafeEqual(Buffer.from(stored), Buffer.from(expected));

/** What the head file says of a clinic's chain, checked against the database. */
export type AuditHeadCheck =
  | { state: 'holds'; place: number }
  | { state: 'truncated'; place: number }
  | { state: 'rewritten'; place: number }
  | { state: 'forged_head'; place: number };

/**
 * Checks the latest head the head file kept for each clinic against the database: the record at that
 * place must still be there (else the chain was cut back: `truncated`) with the same hash (else
 * `rewritten`); a head line whose HMAC is not the key's was not written by the API (`forged_head`).
 */
export async function checkAuditHeads(
  db: Database,
  proof: AuditProof & { headFile: string },
): Promise<Map<number, AuditHeadCheck>> {
  const text = await readFile(proof.headFile, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  const latest = new Map<number, AuditHead>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const head = JSON.parse(line) as AuditHead;
    const known = latest.get(head.clinic_id);
    if (!known || head.place >= known.place) latest.set(head.clinic_id, head);
  }
  const checks = new Map<number, AuditHeadCheck>();
  for (const [clinicId, head] of latest) {
    const expectedMac = auditMacOf(proof.key, { clinicId, place: head.place, hash: head.hash });
    if (!macsEqual(head.mac, expectedMac)) {
      checks.set(clinicId, { state: 'forged_head', place: head.place });
      continue;
    }
    const { rows } = await db.execute(
      sql`select hash from audit_log where clinic_id = ${clinicId} and chain_seq = ${head.place}`,
    );
    const stored = (rows[0] as { hash: string } | undefined)?.hash;
    checks.set(
      clinicId,
      stored === undefined
        ? { state: 'truncated', place: head.place }
        : stored === head.hash
          ? { state: 'holds', place: head.place }
          : { state: 'rewritten', place: head.place },
    );
  }
  return checks;
}
