import { DEFAULT_TREATMENT_MINUTES, wholeVisitParts } from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import { type DatabaseHandle, openDatabase } from '../../db/client';
import { authHeader, createTestApp, login } from '../../test/testApp';
import { readSettings } from '../settings/settingsData';
import { importClinic } from './clinicImport';

/** The turnover and the dentist's parts (docs/product.md, Settings) through an export and clinic:import. */
describe('backup: turnover and dentist parts', () => {
  let app: FastifyInstance;
  let adminToken: string;
  let fresh: DatabaseHandle;

  beforeAll(async () => {
    app = await createTestApp();
    adminToken = (await login(app, 'admin', 'admin123')).token;
    fresh = await openDatabase({ databaseUrl: null, dataDir: null });
    // Two databases migrated from nothing: slow on a busy machine.
  }, 120_000);

  afterAll(async () => {
    await fresh?.close();
    await app?.close();
  }, 60_000);

  const exported = async () =>
    (await app.inject({ method: 'GET', url: '/api/backup/export', headers: authHeader(adminToken) })).json();

  it('carries the turnover and the parts set, stored as the database reads them, and imports them', async () => {
    const saved = await app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: authHeader(adminToken),
      payload: {
        turnoverMinutes: 15,
        dentistParts: { 'Cavity Filling': { dentistFrom: 10, dentistTo: 50 } },
      },
    });
    expect(saved.statusCode).toBe(200);
    const file = await exported();
    expect(file.settings).toMatchObject({
      turnover_minutes: 15,
      dentist_parts: { 'Cavity Filling': { from: 10, to: 50 } },
    });

    const copy = await importClinic(fresh.db, {
      ...file,
      users: [],
      clinic: { ...file.clinic, name: 'Parts Copy' },
    });
    const settings = await readSettings(fresh.db, copy.clinicId);
    expect(settings.turnoverMinutes).toBe(15);
    expect(settings.dentistParts).toEqual({
      ...wholeVisitParts(settings.treatmentMinutes),
      'Cavity Filling': { dentistFrom: 10, dentistTo: 50 },
    });
  });

  it('imports a file from before them with no turnover and the whole visit for each treatment', async () => {
    const file = await exported();
    const { turnover_minutes: _turnover, dentist_parts: _parts, ...olderSettings } = file.settings;
    const copy = await importClinic(fresh.db, {
      ...file,
      users: [],
      settings: { ...olderSettings, treatment_minutes: undefined },
      clinic: { ...file.clinic, name: 'Before Parts' },
    });
    const settings = await readSettings(fresh.db, copy.clinicId);
    expect(settings.turnoverMinutes).toBe(0);
    expect(settings.dentistParts).toEqual(wholeVisitParts(DEFAULT_TREATMENT_MINUTES));
  });

  it.each([
    ['settings.turnover_minutes', { turnover_minutes: 7 }],
    [
      'settings.dentist_parts.Cavity Filling.to',
      { dentist_parts: { 'Cavity Filling': { from: 50, to: 10 } } },
    ],
    ['settings.dentist_parts', { dentist_parts: { 'Teeth Whitening': { from: 0, to: 10 } } }],
  ])('refuses a file whose %s is not one a clinic could save', async (field, settings) => {
    const file = await exported();
    await expect(
      importClinic(fresh.db, {
        ...file,
        users: [],
        settings: { ...file.settings, ...settings },
        clinic: { ...file.clinic, name: 'Bad Parts' },
      }),
    ).rejects.toThrow(field);
  });
});
