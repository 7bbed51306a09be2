import { buildApp } from './app';
import { loadConfig, productionKeysRefusal, testConfig } from './config';

describe('configuration from the environment', () => {
  it('reads whole numbers, and takes the default when a variable is unset or empty', () => {
    const config = loadConfig(
      { REMINDERS_POLL_S: '30', PORT: '', DB_POOL_SIZE: ' 4 ', PGLITE_SHARED_BUFFERS_MB: '768' },
      false,
    );
    expect([
      config.remindersPollSeconds,
      config.port,
      config.dbPoolSize,
      config.pgliteSharedBuffersMb,
    ]).toEqual([30, 3000, 4, 768]);
    expect(loadConfig({}, false).remindersPollSeconds).toBe(60);
  });

  it.each([
    ['REMINDERS_POLL_S', 'soon', 'REMINDERS_POLL_S must be a whole number of at least 0, not "soon"'],
    ['REMINDERS_POLL_S', '-5', 'REMINDERS_POLL_S must be a whole number of at least 0, not "-5"'],
    ['PORT', '80a', 'PORT must be a whole number of at least 0, not "80a"'],
    ['DB_POOL_SIZE', '0', 'DB_POOL_SIZE must be a whole number of at least 1, not "0"'],
    ['STATEMENT_TIMEOUT_MS', '1.5', 'STATEMENT_TIMEOUT_MS must be a whole number of at least 0, not "1.5"'],
    [
      'PGLITE_SHARED_BUFFERS_MB',
      '512MB',
      'PGLITE_SHARED_BUFFERS_MB must be a whole number of at least 0, not "512MB"',
    ],
  ])('stops the start on %s=%s, naming it', (name, value, message) => {
    expect(() => loadConfig({ [name]: value }, false)).toThrow(message);
  });
});

describe('keys in service', () => {
  const KEY = 'k'.repeat(48);

  it('refuses to serve in production without JWT_SECRET, FACTOR_KEY and AUDIT_KEY, naming what is missing', () => {
    const refusal = productionKeysRefusal(
      loadConfig({ NODE_ENV: 'production', JWT_SECRET: KEY, AUDIT_KEY: KEY }, false),
    );
    expect(refusal).toMatch(/^NODE_ENV=production needs FACTOR_KEY set/);
    expect(productionKeysRefusal(loadConfig({ NODE_ENV: 'production' }, false))).toMatch(
      /needs JWT_SECRET, FACTOR_KEY and AUDIT_KEY set/,
    );
    expect(
      productionKeysRefusal(
        loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'short', FACTOR_KEY: KEY, AUDIT_KEY: KEY }, false),
      ),
    ).toMatch(/needs JWT_SECRET set, each at least 32/);
    expect(
      productionKeysRefusal(
        loadConfig({ NODE_ENV: 'production', JWT_SECRET: KEY, FACTOR_KEY: KEY, AUDIT_KEY: KEY }, false),
      ),
    ).toBeNull();
    // Development generates keys and keeps them in the database (with a warning in the log).
    expect(productionKeysRefusal(loadConfig({}, false))).toBeNull();
  });

  it('the server does not start in production without its keys', async () => {
    await expect(buildApp(testConfig({ production: true, factorKey: null }))).rejects.toThrow(
      /NODE_ENV=production needs FACTOR_KEY and AUDIT_KEY set/,
    );
  });

  it('reads earlier factor keys for a rotation', () => {
    expect(loadConfig({ FACTOR_KEY_PREVIOUS: ' old-one , older-one ,' }, false).factorKeysPrevious).toEqual([
      'old-one',
      'older-one',
    ]);
  });
});
