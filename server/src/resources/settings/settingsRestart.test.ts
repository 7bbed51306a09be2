import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../app';
import { testConfig } from '../../config';
import { authHeader, login } from '../../test/testApp';

/** Settings an admin saved are what the server answers after a restart on the same database. */
describe('settings across a server restart', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'dental-settings-restart-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('answers the saved settings after the server is stopped and started again', async () => {
    const config = testConfig({ dataDir, apiRateLimit: 1_000_000 });
    const change = {
      practiceName: 'Kept Across Restarts',
      idleTimeoutMinutes: 20,
      workingHours: { sunday: { start: '10:00', end: '12:00', closed: false } },
      notifications: { smsReminders: true },
    };
    const first = await buildApp(config);
    const saved = await first.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: authHeader((await login(first, 'admin', 'admin123')).token),
      payload: change,
    });
    expect(saved.statusCode).toBe(200);
    await first.close();

    const second = await buildApp(config);
    try {
      const read = await second.inject({
        method: 'GET',
        url: '/api/settings',
        headers: authHeader((await login(second, 'admin', 'admin123')).token),
      });
      expect(read.json()).toEqual(saved.json());
      expect(read.json()).toMatchObject(change);
    } finally {
      await second.close();
    }
  }, 120_000);
});
