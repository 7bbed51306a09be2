/**
 * `npm run audit:verify`: checks every clinic's audit chain in the database the server uses
 * (DATABASE_URL, else DATA_DIR's embedded database): the hashes, each record's HMAC under AUDIT_KEY,
 * and the latest head kept in AUDIT_HEAD_FILE, so a chain rewritten or cut back by whoever keeps the
 * database shows. Names the first record that does not fit. Exits 1 when a chain is broken.
 */
import { sql } from 'drizzle-orm';
import { loadConfig } from '../config';
import { auditProofOf, checkAuditHeads, verifyAuditChain } from '../db/auditLog';
import { openScriptDatabase } from '../db/client';

const HEAD_WORDS = {
  holds: 'its exported head holds',
  truncated: 'BROKEN: cut back, the exported head is missing',
  rewritten: 'BROKEN: rewritten, the exported head differs',
  forged_head: 'BROKEN: the head file holds a head the server did not write',
} as const;

async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openScriptDatabase(config);
  try {
    const proof = await auditProofOf(database.db, config);
    const heads = proof.headFile
      ? await checkAuditHeads(database.db, { ...proof, headFile: proof.headFile })
      : null;
    const { rows } = await database.db.execute(sql`select id, name from clinics order by id`);
    for (const clinic of rows as Array<{ id: number; name: string }>) {
      const check = await verifyAuditChain(database.db, clinic.id, proof);
      const head = heads?.get(clinic.id);
      const headSays = !heads
        ? 'no head file (set AUDIT_HEAD_FILE)'
        : head
          ? `${HEAD_WORDS[head.state]} (place ${head.place})`
          : 'no head exported yet';
      if (head && head.state !== 'holds') process.exitCode = 1;
      if (check.firstUnfit) {
        const why =
          check.firstUnfit.reason === 'mac' ? 'its HMAC is not the key’s' : 'its hash does not follow';
        console.log(
          `${clinic.name} (clinic ${clinic.id}): BROKEN at audit record ${check.firstUnfit.id} (place ${check.firstUnfit.place} of ${check.records}): ${why}; ${headSays}`,
        );
        process.exitCode = 1;
      } else {
        console.log(
          `${clinic.name} (clinic ${clinic.id}): ${check.records} audit records, the chain holds; ${headSays}`,
        );
      }
    }
  } finally {
    await database.close();
  }
}

void main();
