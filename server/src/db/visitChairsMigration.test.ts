import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { MIGRATIONS_FOLDER } from './client';

/** Migrations up to and including `tag`, as a folder of their own (the release that shipped them). */
async function migrationsUpTo(scratch: string, tag: string): Promise<string> {
  const folder = path.join(scratch, `migrations-${tag}`);
  await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
  const last = journal.entries.findIndex((entry) => entry.tag === tag);
  journal.entries = journal.entries.slice(0, last + 1);
  await writeFile(journalPath, JSON.stringify(journal));
  return folder;
}

/**
 * Migration 0034 on a clinic of the release before it (docs/product.md, Chairs): every visit is put
 * in its dentist's chair and keeps its day, time, length, dentist and patient; visits that already
 * overlapped (kept groups) and visits of inactive and deleted dentists are taken as they are.
 */
describe('migration 0034: every visit in a chair', () => {
  let scratch: string;
  let database: PGlite;
  const rows = async <Row>(text: string) => (await database.query<Row>(text)).rows;

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(os.tmpdir(), 'dental-chairs-'));
    database = new PGlite({ extensions: { btree_gist, pg_trgm } });
    await migrate(drizzle(database), { migrationsFolder: await migrationsUpTo(scratch, '0033_chairs') });
    await database.exec(`
      insert into clinics (id, name) values (1, 'Older Clinic');
      insert into dentists (clinic_id, id, name, email, phone, specialty, license, status, deleted_at) values
        (1, 1, 'Dr. Active One', 'one@older.example', '555', 'General Dentistry', 'L-1', 'active', null),
        (1, 2, 'Dr. Active Two', 'two@older.example', '555', 'General Dentistry', 'L-2', 'active', null),
        (1, 3, 'Dr. Gone Quiet', 'three@older.example', '555', 'General Dentistry', 'L-3', 'inactive', null),
        (1, 4, 'Dr. Left Long Ago', 'four@older.example', '555', 'General Dentistry', 'L-4', 'inactive', now());
      insert into patients (clinic_id, id, name, phone) values
        (1, 1, 'Pat One', '555 0001'), (1, 2, 'Pat Two', '555 0002'), (1, 3, 'Pat Three', '555 0003');
      select chairs_for_dentists(1);
      insert into appointments (clinic_id, patient_id, dentist_id, date, time, treatment, status) values
        (1, 1, 1, '2027-01-12', '09:00', 'Cavity Filling', 'confirmed'),
        (1, 2, 2, '2027-01-12', '09:00', 'Cavity Filling', 'pending'),
        (1, 3, 3, '2027-01-12', '09:00', 'Dental Checkup', 'pending'),
        (1, 3, 4, '2025-01-12', '09:00', 'Dental Checkup', 'completed'),
        (1, 2, 1, '2027-01-12', '09:00', 'Root Canal', 'cancelled');
      -- Two visits that overlapped before overlaps were refused: a kept group (migration 0015).
      select set_config('dental.keeping_overlaps', 'on', false);
      insert into appointments (clinic_id, patient_id, dentist_id, date, time, treatment, status, overlap_group) values
        (1, 1, 2, '2027-01-13', '10:00', 'Root Canal', 'pending', 0),
        (1, 3, 2, '2027-01-13', '10:30', 'Dental Checkup', 'pending', 0);
      select settle_overlap_groups(1);
      select set_config('dental.keeping_overlaps', '', false);
    `);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it('keeps every visit as it was and puts it in its dentist’s chair', async () => {
    const visitsBefore = await rows(
      'select id, patient_id, dentist_id, date::text, time, duration, status, overlap_group from appointments order by id',
    );
    await migrate(drizzle(database), { migrationsFolder: MIGRATIONS_FOLDER });
    const visitsAfter = await rows(
      'select id, patient_id, dentist_id, date::text, time, duration, status, overlap_group from appointments order by id',
    );
    expect(visitsAfter).toEqual(visitsBefore);
    const placed = await rows<{ dentist: number; chair: string; default_dentist: number; turnover: number }>(`
      select a.dentist_id as dentist, c.name as chair, c.default_dentist_id as default_dentist, a.turnover
      from appointments a join chairs c on c.clinic_id = a.clinic_id and c.id = a.chair_id order by a.id`);
    expect(placed).toHaveLength(visitsBefore.length);
    for (const visit of placed) {
      expect(visit.default_dentist).toBe(visit.dentist);
      expect(visit.turnover).toBe(0);
    }
  });

  it('gives inactive and deleted dentists a chair of their own, out of service or retired', async () => {
    const chairs = await rows<{ name: string; dentist: number; in_service: boolean; retired: boolean }>(`
      select name, default_dentist_id as dentist, in_service, retired_at is not null as retired
      from chairs order by position`);
    expect(chairs).toEqual([
      { name: 'Chair 1', dentist: 1, in_service: true, retired: false },
      { name: 'Chair 2', dentist: 2, in_service: true, retired: false },
      { name: 'Chair 3', dentist: 3, in_service: false, retired: false },
      { name: 'Chair 4', dentist: 4, in_service: false, retired: true },
    ]);
  });

  it('keeps the chairs apart from then on, as it does dentists and patients', async () => {
    await database.exec(`insert into dentists (clinic_id, id, name, email, phone, specialty, license)
      values (1, 5, 'Dr. New Hire', 'five@older.example', '555', 'General Dentistry', 'L-5')`);
    // Chair 1 holds Dr. Active One's 09:00-10:00; Dr. New Hire and Pat Three are free at 09:30.
    const taken = database.query(`
      insert into appointments (clinic_id, patient_id, dentist_id, chair_id, date, time, treatment, status)
      values (1, 3, 5, 1, '2027-01-12', '09:30', 'Dental Checkup', 'pending')`);
    await expect(taken).rejects.toMatchObject({
      message: expect.stringContaining('appointments_chair_time_excl'),
    });
    const given = await rows<{ chair_id: number }>(`
      insert into appointments (clinic_id, patient_id, dentist_id, date, time, treatment, status)
      values (1, 3, 1, '2027-01-14', '09:00', 'Dental Checkup', 'pending') returning chair_id`);
    expect(given).toEqual([{ chair_id: 1 }]);
  });
});
