import path from 'node:path';

/**
 * Where a jest run keeps the demo clinics it migrated and seeded once (a PGlite data folder, and the
 * name of a template database on a PostgreSQL server): a folder the server project's global set-up
 * makes for the run and its global tear-down removes.
 */
export const TEMPLATES_ENV = 'DENTAL_TEST_TEMPLATES';

export function templatesFolder(): string {
  const folder = process.env[TEMPLATES_ENV];
  if (!folder) throw new Error(`${TEMPLATES_ENV} is not set: run the server tests through jest.config.js`);
  return folder;
}

/** The run's template database on a PostgreSQL server, named after the run's folder. */
export function postgresTemplateName(folder: string): string {
  return `test_template_${path
    .basename(folder)
    .replace(/[^a-z0-9]/gi, '')
    .toLowerCase()}`;
}
