import { rm } from 'node:fs/promises';
import { Client } from 'pg';
import { postgresTemplateName, TEMPLATES_ENV } from './runTemplates';

/** Jest's global tear-down of the server project: this run's templates go. */
export default async function globalTeardown(): Promise<void> {
  const folder = process.env[TEMPLATES_ENV];
  if (!folder) return;
  await rm(folder, { recursive: true, force: true });
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${postgresTemplateName(folder)} with (force)`);
  } finally {
    await admin.end();
  }
}
