/**
 * `npm run audit:verify`: checks every clinic's audit chain in the database the server uses
 * (DATABASE_URL, else DATA_DIR's embedded database) and names the first record that does not fit.
 * Exits 1 when a chain is broken.
 */
import { sql } from 'drizzle-orm';
import { loadConfig } from '../config';
import { verifyAuditChain } from '../db/auditLog';
import { openDatabase } from '../db/client';

async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const { rows } = await database.db.execute(sql`select id, name from clinics order by id`);
    for (const clinic of rows as Array<{ id: number; name: string }>) {
      const check = await verifyAuditChain(database.db, clinic.id);
      if (check.firstUnfit) {
        console.log(
          `${clinic.name} (clinic ${clinic.id}): BROKEN at audit record ${check.firstUnfit.id} (place ${check.firstUnfit.place} of ${check.records})`,
        );
        process.exitCode = 1;
      } else {
        console.log(`${clinic.name} (clinic ${clinic.id}): ${check.records} audit records, the chain holds`);
      }
    }
  } finally {
    await database.close();
  }
}

void main();
