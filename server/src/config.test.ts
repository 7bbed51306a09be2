import { loadConfig } from './config';

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
