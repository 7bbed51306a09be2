import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TEMPLATES_ENV } from './runTemplates';

/** Jest's global set-up of the server project: a folder for this run's database templates. */
export default async function globalSetup(): Promise<void> {
  // Set before jest starts its workers, which inherit it.
  process.env[TEMPLATES_ENV] = await mkdtemp(path.join(os.tmpdir(), 'dental-test-templates-'));
}
