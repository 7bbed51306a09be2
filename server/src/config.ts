import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { MODULE_IDS, type ModuleId } from '@dental/shared/domain';

export interface AppConfig {
  port: number;
  host: string;
  /** Folder of the embedded PGlite database; `null` keeps it in memory (tests). */
  dataDir: string | null;
  /** A PostgreSQL server's URL; when set, PGlite is not used. */
  databaseUrl: string | null;
  /** Connections to the PostgreSQL server (DB_POOL_SIZE): by default twice the cores, plus one. */
  dbPoolSize: number;
  /**
   * How long one statement may run on the PostgreSQL server before it is cancelled and the request
   * answers 503 (STATEMENT_TIMEOUT_MS, 0 for none), so one slow query cannot hold a connection.
   */
  statementTimeoutMs: number;
  /**
   * The embedded database's buffer cache in MB (PGLITE_SHARED_BUFFERS_MB; 0: PGlite's own 128 MB).
   * A clinic whose tables outgrow it reads pages through PGlite's file layer on every query; the
   * memory is the process's own, so it is taken only when asked.
   */
  pgliteSharedBuffersMb: number;
  /** Access-token signing key; when null one is generated once and kept in the database. */
  jwtSecret: string | null;
  /**
   * The key authenticator keys are sealed with (FACTOR_KEY); when null one is generated once and kept
   * in the database. Kept outside it, a copy of the database gives nobody's second factor.
   */
  factorKey: string | null;
  /**
   * Earlier factor keys (FACTOR_KEY_PREVIOUS, comma-separated) that still open what they sealed, for
   * a rotation: keys sealed under them are resealed under FACTOR_KEY at start or by `keys:rotate`.
   */
  factorKeysPrevious: string[];
  /**
   * In service (NODE_ENV=production): the server refuses to start without JWT_SECRET and FACTOR_KEY,
   * so no copy of the database holds the keys that protect it.
   */
  production: boolean;
  /**
   * Served to browsers over https only (HTTPS_ONLY; on by default in production): the refresh cookie
   * is always `Secure` and answers carry HSTS. Off, the cookie is `Secure` on https requests alone, for
   * a clinic's own machine reached over plain http.
   */
  httpsOnly: boolean;
  /**
   * The key each sealed audit record's HMAC is made with (AUDIT_KEY); when null (development) one is
   * generated once and kept in the database. Kept outside it, a chain rewritten in the database shows.
   */
  auditKey: string | null;
  /**
   * The file each sealing appends the audit chains' heads to (AUDIT_HEAD_FILE), for `audit:verify`
   * to find a rewritten or cut-back chain; a place the clinic can make write-once. By default, for the
   * embedded database, `<DATA_DIR>.audit-heads.jsonl` beside its folder; none for a PostgreSQL server.
   */
  auditHeadFile: string | null;
  /**
   * The owner of the database's tables, for migrations (DATABASE_OWNER_URL): with it, DATABASE_URL's
   * role serves requests with no right to change or delete audit records, and the server grants it
   * what it needs at each start.
   */
  databaseOwnerUrl: string | null;
  /** scrypt's cost for new password hashes, as log2 N (PASSWORD_HASH_COST, 14-18; OWASP's 17 by default). */
  passwordHashCost: number;
  /** Repository root: `shell/dist` and each module's `dist` are served from under it. */
  staticRoot: string;
  /** Operator overrides of where a module's entry is served from. */
  moduleEntries: Partial<Record<ModuleId, string>>;
  /** Where published module releases are kept (docs/architecture.md, Module releases). */
  moduleReleasesDir: string;
  /** The platform's key for publishing and pointing module releases; null: that API is closed. */
  platformToken: string | null;
  seedDemo: boolean;
  logLevel: string;
  /** `json`: one JSON object a line (files, services, CI); `pretty`: pino-pretty's readable lines. */
  logFormat: LogFormat;
  /** Where JSON log lines go instead of standard output (tests read them). */
  logStream?: NodeJS.WritableStream;
  /** Whether pretty lines are coloured (only when they go to a terminal). */
  logColors: boolean;
  /** Requests a minute one user (or address) may make to the API. */
  apiRateLimit: number;
  /** Sign-in attempts a minute from one address. */
  loginRateLimit: number;
  /** Calls a minute from one address to each of the public booking page's endpoints. */
  publicRateLimit: number;
  /**
   * Whether repeated reads of a clinic (lists, the calendar month, the dashboard's stats) are answered
   * from memory while nothing of the clinic changed; off, every read goes to the database (benchmarks).
   */
  readCache: boolean;
  /**
   * Every answer also written by zod's serializer, and a request fails when the two texts differ
   * (plugins/responseSerialization.ts): on in tests, off in service.
   */
  checkResponses: boolean;
  /**
   * Which X-Forwarded-For hops to believe when naming a client's address (rate limits, audit):
   * none by default, since a client could claim any address; the proxy's address(es) or a hop count.
   */
  trustProxy: boolean | string | ((address: string, hop: number) => boolean);
  /** Where reminders and alerts go: an SMTP server (`smtp://user:pass@host:587`), and their sender. */
  smtpUrl: string | null;
  mailFrom: string;
  /** An SMS gateway's webhook: POST JSON `{ "to": "...", "body": "..." }`. */
  smsWebhookUrl: string | null;
  /**
   * The address patients reach this app at (PUBLIC_URL, e.g. `https://book.example.com`): the manage
   * links in reminders, written with no request to learn it from. Unset: `http://localhost:<port>`.
   */
  publicUrl: string;
  /** How often the outbox sender wakes (it also wakes on start-up); 0 turns it off. */
  remindersPollSeconds: number;
}

export type LogFormat = 'json' | 'pretty';

/** LOG_FORMAT=pretty|json; unset (or anything else): pretty on a terminal, JSON when stdout is piped or a file. */
function logFormatOf(value: string | undefined, terminal: boolean): LogFormat {
  const asked = value?.trim().toLowerCase();
  if (asked === 'pretty' || asked === 'json') return asked;
  return terminal ? 'pretty' : 'json';
}

/** TRUST_PROXY: unset or 'false' → trust no proxy; a number → that many hops; 'true' → every hop; else addresses/CIDRs. */
function trustedProxies(value: string | undefined): AppConfig['trustProxy'] {
  const text = value?.trim() ?? '';
  if (text === '' || text.toLowerCase() === 'false') return false;
  if (text.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(text)) {
    const hops = Number.parseInt(text, 10);
    return (_address, hop) => hop < hops;
  }
  return text;
}

/**
 * A whole-number variable: unset or empty takes the fallback; anything else that is not a whole
 * number of at least `least` stops the start with its name, rather than running on NaN (a sender
 * that never wakes, a port the system picks).
 */
function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, least = 0): number {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < least)
    throw new Error(`${name} must be a whole number of at least ${least}, not "${text}"`);
  return value;
}

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return !['0', 'false', 'no', 'off'].includes(value.toLowerCase());
}

/**
 * scrypt's cost as log2 of N: 17 is OWASP's (N·r·128 = 128 MiB per hash, about 360 ms on a two-core
 * office machine).
 */
export const DEFAULT_PASSWORD_HASH_COST = 17;

/** Reads the configuration from the environment; `terminal` says whether stdout is a terminal. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  terminal: boolean = process.stdout.isTTY === true,
): AppConfig {
  const invokedFrom = env.INIT_CWD ?? process.cwd();
  const moduleEntries: Partial<Record<ModuleId, string>> = {};
  for (const id of MODULE_IDS) {
    const entry = env[`MODULE_ENTRY_${id.toUpperCase()}`];
    if (entry) moduleEntries[id] = entry;
  }
  return {
    port: wholeNumber(env, 'PORT', 3000),
    host: env.HOST ?? 'localhost',
    dataDir: path.resolve(invokedFrom, env.DATA_DIR ?? 'data'),
    databaseUrl: env.DATABASE_URL || null,
    dbPoolSize: wholeNumber(env, 'DB_POOL_SIZE', 2 * os.availableParallelism() + 1, 1),
    statementTimeoutMs: wholeNumber(env, 'STATEMENT_TIMEOUT_MS', 10_000),
    pgliteSharedBuffersMb: wholeNumber(env, 'PGLITE_SHARED_BUFFERS_MB', 0),
    jwtSecret: env.JWT_SECRET || null,
    factorKey: env.FACTOR_KEY || null,
    factorKeysPrevious: (env.FACTOR_KEY_PREVIOUS ?? '')
      .split(',')
      .map((key) => key.trim())
      .filter(Boolean),
    production: env.NODE_ENV === 'production',
    httpsOnly: flag(env.HTTPS_ONLY, env.NODE_ENV === 'production'),
    auditKey: env.AUDIT_KEY || null,
    auditHeadFile: env.AUDIT_HEAD_FILE
      ? path.resolve(invokedFrom, env.AUDIT_HEAD_FILE)
      : env.DATABASE_URL
        ? null
        : `${path.resolve(invokedFrom, env.DATA_DIR ?? 'data')}.audit-heads.jsonl`,
    databaseOwnerUrl: env.DATABASE_OWNER_URL || null,
    passwordHashCost: Math.min(wholeNumber(env, 'PASSWORD_HASH_COST', DEFAULT_PASSWORD_HASH_COST, 14), 18),
    staticRoot: path.resolve(env.STATIC_ROOT ?? path.join(__dirname, '..', '..')),
    moduleEntries,
    moduleReleasesDir: path.resolve(invokedFrom, env.MODULE_RELEASES_DIR ?? 'module-releases'),
    platformToken: env.PLATFORM_TOKEN || null,
    seedDemo: flag(env.SEED_DEMO, true),
    logLevel: env.LOG_LEVEL ?? 'info',
    logFormat: logFormatOf(env.LOG_FORMAT, terminal),
    logColors: terminal && !env.NO_COLOR,
    apiRateLimit: wholeNumber(env, 'API_RATE_LIMIT', 3000, 1),
    loginRateLimit: wholeNumber(env, 'LOGIN_RATE_LIMIT', 20, 1),
    publicRateLimit: wholeNumber(env, 'PUBLIC_RATE_LIMIT', 60, 1),
    readCache: flag(env.READ_CACHE, true),
    checkResponses: false,
    trustProxy: trustedProxies(env.TRUST_PROXY),
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM || 'Dental Clinic <no-reply@localhost>',
    smsWebhookUrl: env.SMS_WEBHOOK_URL || null,
    publicUrl: (env.PUBLIC_URL || `http://localhost:${wholeNumber(env, 'PORT', 3000)}`).replace(/\/+$/, ''),
    remindersPollSeconds: wholeNumber(env, 'REMINDERS_POLL_S', 60),
  };
}

/** A configuration for tests: in-memory database, no demo seeding unless asked, quiet logs. */
export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    ...loadConfig({}, false),
    dataDir: null,
    databaseUrl: null,
    // A test that checks the heads' file names one of its own.
    auditHeadFile: null,
    // Hundreds of sign-ins a run: the lowest cost a server takes (a test raises it to check the default).
    passwordHashCost: 14,
    jwtSecret: randomBytes(32).toString('hex'),
    seedDemo: true,
    logLevel: 'silent',
    // JSON even when jest runs in a terminal: no pino-pretty worker thread in tests.
    logFormat: 'json',
    // Tests run the outbox sender themselves, when they want it.
    remindersPollSeconds: 0,
    checkResponses: true,
    ...overrides,
  };
}

/** A configuration the server refuses to start with: its message says what to set. */
export class ConfigRefusal extends Error {}

/** Keys shorter than this are refused in service: 32 characters of a random key carry ≥ 128 bits. */
export const MIN_KEY_LENGTH = 32;

/**
 * Why this configuration may not serve a clinic, or null when it may: in service, the access-token
 * and factor keys must come from outside the database (docs/security.md "Keys").
 */
export function productionKeysRefusal(
  config: Pick<AppConfig, 'production' | 'jwtSecret' | 'factorKey' | 'auditKey'>,
): string | null {
  if (!config.production) return null;
  const missing = [
    ...(config.jwtSecret && config.jwtSecret.length >= MIN_KEY_LENGTH ? [] : ['JWT_SECRET']),
    ...(config.factorKey && config.factorKey.length >= MIN_KEY_LENGTH ? [] : ['FACTOR_KEY']),
    ...(config.auditKey && config.auditKey.length >= MIN_KEY_LENGTH ? [] : ['AUDIT_KEY']),
  ];
  if (missing.length === 0) return null;
  const named = missing.length > 1 ? `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}` : missing[0];
  return `NODE_ENV=production needs ${named} set, each at least ${MIN_KEY_LENGTH} random characters (for example: openssl rand -base64 48). Kept in the database instead, a copy of it could sign in as anyone and open every authenticator key, and its owner could rewrite the audit chain unseen. See README "Settings".`;
}
