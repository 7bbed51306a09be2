/**
 * `npm run clinic:import -- <file>`: loads a clinic export (Settings, Backup tab) into the database the
 * server uses (DATABASE_URL, else DATA_DIR's embedded database) as a new clinic.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../config';
import { openScriptDatabase } from '../db/client';
import { importClinic } from '../resources/backup/clinicImport';

async function main(): Promise<void> {
  const given = process.argv[2];
  if (!given) {
    console.error('Usage: npm run clinic:import -- <export file.json>');
    process.exit(2);
  }
  // npm runs the script in server/; a relative path means where the command was typed.
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), given);
  const config = loadConfig();
  let content: unknown;
  try {
    content = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    console.error(`Cannot read ${file} as JSON: ${(error as Error).message}`);
    process.exit(1);
  }
  const database = await openScriptDatabase(config);
  try {
    const result = await importClinic(database.db, content);
    const { counts } = result;
    console.log(
      `Imported "${result.clinicName}" as clinic ${result.clinicId}: ${counts.users} users, ${counts.dentists} dentists, ${counts.patients} patients, ${counts.availability} availability days, ${counts.appointments} appointments.`,
    );
    console.log(
      `With ${counts.appointment_series} series, ${counts.waitlist} waitlist entries, ${counts.recall_types} recall types and ${counts.patient_recalls} patients' recalls.`,
    );
    console.log(
      'Imported accounts have no password. Each active admin signs in once with this one, and chooses their own at that sign-in:',
    );
    for (const admin of result.adminPasswords) console.log(`  ${admin.username}  ${admin.password}`);
    console.log("then sets everyone else's passwords in Users.");
  } catch (error) {
    console.error(`Nothing was imported: ${(error as Error).message}`);
    process.exitCode = 1;
  } finally {
    await database.close();
  }
}

void main();
