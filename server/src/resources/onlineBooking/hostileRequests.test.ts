import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PublicClinic, PublicFreeTimes } from '@dental/shared/domain';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { hashSecretToken } from '../../auth/secretTokens';
import { addDays, clinicToday, isoWeekday } from '../../db/clinicTime';
import { bookingHolds, patients } from '../../db/schema';
import { seededRandom } from '../../db/seedDemo';
import { apiSender, createTestApp, fieldErrorsOf, login } from '../../test/testApp';

type Clinic = 'bright' | 'harbor';

/** One hostile request, and what its answer may be besides a clean 4xx refusal. */
interface Attack {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  url: string;
  /** The body's raw text, sent as JSON unless `type` says otherwise (null: no content type). */
  body?: string;
  type?: string | null;
  /** Answers besides a 4xx it may get: a read served, a bot told "sent", a visit confirmed again. */
  ok?: number[];
  /** A 400 names one of these fields. */
  names?: string[];
  /** The clinic asked through (page, hold or link): nothing of the other shows; none: nothing of either. */
  clinic?: Clinic;
}
type Answer = { statusCode: number; headers: Record<string, unknown>; body: string };
/** What no answer may show: patients' details; a clinic's, but through its own page or link. */
type Secrets = { patients: string[]; clinics: Record<Clinic, string[]> };

const BOOK_HTML = '<!doctype html><html><head><title>Book a visit</title></head><body></body></html>';
const BRIGHT = '/public/clinics/bright-smile-dental';
const HARBOR = '/public/clinics/harbor-dental';
const ONLINE = {
  enabled: true,
  horizonDays: 365,
  visitTypes: [{ treatment: 'Dental Checkup', newPatients: true, returningPatients: true }],
};
const STACK_TRACE = /(\\n|\n)\s+at \S+ \(|node_modules|\.[jt]s:\d+:\d+/;
const nested = (levels: number): unknown => (levels === 0 ? 'x' : { a: nested(levels - 1) });

/** Values no field takes as they are: wrong types, hostile text, impossible dates and times, odd numbers. */
// biome-ignore format: a table of values
const HOSTILE: unknown[] = [
  '', '   ', 'x'.repeat(10_240), "' or 1=1 --", '; drop table patients; --', '<script>alert(1)</script>',
  'a\u0000b', '\u0007\u001b[2J\u202e\u200b', '🦷😀'.repeat(40), '\ud800', '2026-02-30', '0000-00-00',
  '99999-01-01', '25:00', '9:5', '09:07', '1', 'NaN', 0, -1, 1.5, 2147483648, 1e308, true, null, [],
  ['09:00'], {}, { $ne: null }, nested(300),
];
/** `run`'s value, or `otherwise` when it throws. */
const attempt = <T>(run: () => T, otherwise: T): T => {
  try {
    return run();
  } catch {
    return otherwise;
  }
};
/** A lone surrogate has no UTF-8: it goes as the bytes a careless client would send. */
const enc = (text: string) => attempt(() => encodeURIComponent(text), '%ED%A0%80');
const QUERY_VALUES = [
  ...HOSTILE.filter((value): value is string => typeof value === 'string'),
  ...['1e3', '0x10', '-0', 'Infinity', ' 1'],
];
/** Path segments in place of a slug, a hold id or a manage token (`real`). */
// biome-ignore format: a table of values
const segmentTricks = (real: string) => [
  'x', real.slice(0, -1), `${real}A`, real.toUpperCase(), `${real.slice(0, -1)}${real.endsWith('A') ? 'B' : 'A'}`,
  'A'.repeat(100), 'A'.repeat(101), 'b'.repeat(5000), '%00', `${real}%00`, `${real}%2F..%2Fharbor-dental`,
  '%2e%2e%2f%2e%2e%2fapi%2fsettings', '%252e%252e%252fapi', '..', '%', '%E0%A4%A', enc("' or 1=1 --"),
  enc('<b>x</b>'), enc('🦷'), '__proto__', 'constructor', '-1', 'NaN',
];
const JSON_TYPE = 'application/json';
/** Bodies no route reads: not JSON, or of a type no route takes; refused before any handler runs. */
// biome-ignore format: a table of bodies
const UNREAD: Array<[string, string | null]> = [
  ['{', JSON_TYPE], ['{"date":', JSON_TYPE], ["{'code':'123456'}", JSON_TYPE], ['{"code":"1",}', JSON_TYPE],
  ['{"a":1}}', JSON_TYPE], ['', JSON_TYPE], ['x'.repeat(2_000_000), JSON_TYPE], ['<code/>', 'application/xml'],
  ['code=123456', 'application/x-www-form-urlencoded'], ['--x\r\n--x--', 'multipart/form-data; boundary=x'],
];
/** Bodies that are read but are no route's shape: other types, poisoned prototypes, deep nesting, no type. */
// biome-ignore format: a table of bodies
const MISSHAPEN: Array<[string, string | null]> = [
  ['[]', JSON_TYPE], ['null', JSON_TYPE], ['"123456"', JSON_TYPE], ['123456', JSON_TYPE], ['true', JSON_TYPE],
  ['\uFEFF{}', JSON_TYPE], ['{"__proto__":{"admin":true}}', JSON_TYPE],
  ['{"constructor":{"prototype":{"admin":true}}}', JSON_TYPE],
  [`${'['.repeat(5000)}${']'.repeat(5000)}`, JSON_TYPE],
  [`${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`, JSON_TYPE], ['{"code":"123456"}', 'text/plain'],
  ['{}', 'application/json; charset=utf-16'], ['{}', null],
];

/** Seeded: the same sample of hostile values for each field every run. */
const random = seededRandom(20_260_530);
const sample = <T>(items: readonly T[], count: number): T[] => {
  const pool = [...items];
  for (let index = pool.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [pool[index], pool[other]] = [pool[other] as T, pool[index] as T];
  }
  return pool.slice(0, count);
};
const omit = (record: Record<string, unknown>, key: string) => {
  const { [key]: _left, ...rest } = record;
  return rest;
};
const get = (url: string, more: Partial<Attack> = {}): Attack => ({ method: 'GET', url, ...more });
const post = (url: string, body: unknown, more: Partial<Attack> = {}): Attack => ({
  method: 'POST',
  url,
  body: JSON.stringify(body),
  ...more,
});
const raw = (url: string, bodies: Array<[string, string | null]>, more: Partial<Attack> = {}) =>
  bodies.map(([body, type]): Attack => ({ method: 'POST', url, body, type, ...more }));
/**
 * `base` with each field given hostile values, left out, or beside fields it has not: a 400 names the
 * field (or `more.names`, the base's own refusal).
 */
const mutations = (url: string, base: Record<string, unknown>, perField: number, more: Partial<Attack>) => [
  ...Object.keys(base).flatMap((field) =>
    [...sample(HOSTILE, perField).map((value) => ({ ...base, [field]: value })), omit(base, field)].map(
      (body) => post(url, body, { ...more, names: [field, ...(more.names ?? [])] }),
    ),
  ),
  ...['patient_id', 'website'].map((key) => post(url, { ...base, [key]: 1 }, { ...more, names: [key] })),
];
const codeOf = (hold: string) => `/public/holds/${hold}/code`;
const confirmOf = (hold: string) => `/public/holds/${hold}/confirm`;
const linkOf = (token: string, action = '') => `/public/manage/${token}${action && `/${action}`}`;
const query = (params: Record<string, string>) =>
  Object.entries(params)
    .map(([key, value]) => `${key}=${value}`)
    .join('&');

/** What is wrong with an answer: nothing for a clean one. */
function problemsOf(attack: Attack, answer: Answer, secrets: Secrets): string[] {
  const { statusCode: status, body } = answer;
  const problems: string[] = [];
  if (status >= 500) problems.push('server error');
  else if (status === 429 || (status < 400 && !attack.ok?.includes(status))) problems.push('not refused');
  if (attack.url.startsWith('/book/') && (status === 200 || status === 404)) {
    if (body !== BOOK_HTML) problems.push('not the booking page');
  } else if (status >= 400) {
    const message = attempt(() => (JSON.parse(body) as { message?: unknown }).message, undefined);
    if (!String(answer.headers['content-type']).startsWith(JSON_TYPE)) problems.push('not JSON');
    if (typeof message !== 'string' || !message.trim()) problems.push('no message');
    else if (status === 400) {
      const fields = fieldErrorsOf({ json: () => JSON.parse(body) }).map((error) => error.field);
      if (fields.length === 0) problems.push('no field named');
      else if (attack.names && !fields.some((field) => attack.names?.includes(field)))
        problems.push(`names ${fields.join(', ')}`);
    }
  }
  if (STACK_TRACE.test(body)) problems.push('a stack trace');
  const others = attack.clinic
    ? secrets.clinics[attack.clinic === 'bright' ? 'harbor' : 'bright']
    : [...secrets.clinics.bright, ...secrets.clinics.harbor];
  for (const secret of [...secrets.patients, ...others]) {
    if (body.includes(secret)) problems.push(`shows ${JSON.stringify(secret)}`);
  }
  return problems;
}

const summary = (text = '') =>
  text.length > 60 ? `${JSON.stringify(text.slice(0, 40))}… (${text.length} chars)` : JSON.stringify(text);
/** The line a failed answer prints: the request, its body, its status and what was wrong; null when clean. */
function failureOf(attack: Attack, answer: Answer, secrets: Secrets): string | null {
  const problems = problemsOf(attack, answer, secrets);
  const url = attack.url.length > 120 ? `${attack.url.slice(0, 100)}…` : attack.url;
  if (problems.length === 0) return null;
  return `${attack.method} ${url} ${summary(attack.body)} → ${answer.statusCode}: ${problems.join('; ')}`;
}

/** Who books in the setup: their e-mails, phones and last names may not show either (a first name may). */
const contactOf = (name: string, index: number) => ({
  name,
  phone: `555 740 000${index}`,
  email: `${name.replace(' ', '.').toLowerCase()}@hostile.example`,
  date_of_birth: '1980-05-06',
});
const ADMINS = { bright: ['admin', 'admin123'], harbor: ['harbor.admin', 'harbor123'] } as const;
const PAGES = { bright: BRIGHT, harbor: HARBOR };

/**
 * A few hundred hostile and malformed requests at every public endpoint of online booking, the same
 * each run: each is answered cleanly, shows nothing of a patient or of another clinic, and changes nothing.
 */
describe('online booking: hostile requests', () => {
  let app: FastifyInstance;
  let root: string;
  const secrets: Secrets = { patients: [], clinics: { bright: [], harbor: [] } };
  const attacks: Attack[] = [];
  const failures: string[] = [];
  let before: Awaited<ReturnType<typeof snapshot>>;
  let codedHold = '';
  const send = apiSender(() => app);
  const visit = (method: 'GET' | 'POST', url: string, payload?: object) =>
    app.inject({ method, url, ...(payload ? { payload } : {}), remoteAddress: '203.0.113.66' });

  /** Each table's rows and checksum (holds' tries aside: a wrong code counts one), the audit log's length. */
  async function snapshot() {
    const sums: Record<string, string> = {};
    for (const table of ['appointments', 'patients', 'booking_holds', 'booking_requests', 'outbox']) {
      const rows = await app.database.db.execute(
        sql`select count(*) || ':' || md5(coalesce(string_agg((to_jsonb(t) - 'code_tries')::text, '|'
          order by t.id), '')) as sum from ${sql.raw(table)} t`,
      );
      sums[table] = (rows.rows[0] as { sum: string }).sum;
    }
    const audit = await app.database.db.execute(sql`select count(*)::int as count from audit_log`);
    const tries = await app.database.db
      .select({ id: bookingHolds.id, tries: bookingHolds.codeTries })
      .from(bookingHolds)
      .orderBy(bookingHolds.id);
    return { sums, auditRows: Number((audit.rows[0] as { count: number }).count), tries };
  }
  /** Holds the first free checkup of `date` through `page`: answers the hold's id. */
  const holdFirst = async (page: string, date: string) => {
    const free = (await visit('GET', `${page}/free-times?visit_type=dental-checkup&date=${date}`)).json();
    const slot = (free as PublicFreeTimes).times[0] as PublicFreeTimes['times'][number];
    const body = { visit_type_id: 'dental-checkup', dentist_id: slot.dentist_id, date, time: slot.time };
    const held = await visit('POST', `${page}/holds`, body);
    expect(held.statusCode).toBe(201);
    return held.json().hold_id as string;
  };
  /** Asks a code for the hold, and reads it from the e-mail queued. */
  const askCode = async (holdId: string, contact: { email: string }) => {
    expect((await visit('POST', codeOf(holdId), contact)).statusCode).toBe(202);
    const mail = await app.database.db.execute(
      sql`select body from outbox where kind = 'online_code' and recipient = ${contact.email}
        order by id desc limit 1`,
    );
    return /\b(\d{6})\b/.exec((mail.rows[0] as { body: string } | undefined)?.body ?? '')?.[1] as string;
  };
  /** Books the day's first free checkup: answers the hold id it used and the visit's manage token. */
  const book = async (date: string, contact: { email: string }) => {
    const holdId = await holdFirst(BRIGHT, date);
    const code = await askCode(holdId, contact);
    const booked = await visit('POST', confirmOf(holdId), { code });
    expect(booked.statusCode).toBe(201);
    return { holdId, token: /\/book\/manage\/([^/]+)$/.exec(booked.json().manage_url)?.[1] as string };
  };

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'dental-hostile-'));
    mkdirSync(path.join(root, 'shell', 'dist'), { recursive: true });
    writeFileSync(path.join(root, 'shell', 'dist', 'book.html'), BOOK_HTML);
    // No per-address limit in the way: a 429 would hide how the request itself is answered.
    app = await createTestApp({ staticRoot: root, publicRateLimit: 1_000_000 });
    const db = app.database.db;
    const demo = await db
      .select({ name: patients.name, email: patients.email, phone: patients.phone })
      .from(patients);
    let clinicId = 0;
    const dentists: Record<Clinic, number> = { bright: 0, harbor: 0 };
    for (const clinic of ['bright', 'harbor'] as const) {
      const [username, password] = ADMINS[clinic];
      const admin = await login(app, username, password);
      if (clinic === 'bright') clinicId = admin.user.clinic_id;
      const saved = await send(admin.token, 'PUT', '/api/settings', { onlineBooking: ONLINE });
      expect(saved.statusCode).toBe(200);
      const page = (await visit('GET', PAGES[clinic])).json() as PublicClinic;
      secrets.clinics[clinic] = [
        page.name,
        page.address,
        page.phone,
        ...page.dentists.map((one) => one.name),
      ];
      dentists[clinic] = page.dentists[0]?.id ?? 0;
    }
    const vera = contactOf('Vera Quillfeather', 1);
    const cato = contactOf('Cato Wrenbuckle', 2);
    const bea = contactOf('Bea Thornwhistle', 3);
    const onPages = [...secrets.clinics.bright, ...secrets.clinics.harbor];
    // A patient named like a dentist ("James Wilson") is the dentist's name on the page, not a leak.
    secrets.patients = [
      ...demo.flatMap((one) => [one.email, one.phone, one.name]),
      ...[vera, cato, bea].flatMap((one) => [one.email, one.phone, one.name, one.name.split(' ')[1]]),
    ].filter((text): text is string => !!text && !onPages.some((shown) => shown.includes(text)));

    // The few valid requests the attacks need, before the snapshot: two visits booked (one confirmed,
    // one cancelled), a hold, a hold with its code asked, an expired hold, and a hold at Harbor.
    let day = addDays(await clinicToday(db, clinicId), 300);
    while (isoWeekday(day) !== 2) day = addDays(day, 1);
    const live = await book(day, vera);
    expect((await visit('POST', linkOf(live.token, 'confirm'), {})).statusCode).toBe(200);
    const ended = await book(day, cato);
    expect((await visit('POST', linkOf(ended.token, 'cancel'), {})).statusCode).toBe(200);
    const fresh = await holdFirst(BRIGHT, day);
    codedHold = await holdFirst(BRIGHT, day);
    const code = await askCode(codedHold, bea);
    // On the next day, where no attack holds a time: a hold there would clear it away, as it should.
    const expired = await holdFirst(BRIGHT, addDays(day, 1));
    await db
      .update(bookingHolds)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(bookingHolds.tokenHash, hashSecretToken(expired)));
    const harborHold = await holdFirst(HARBOR, day);
    await app.outboxSender.runOnce();
    before = await snapshot();

    // Picks and moves off the times' grid: refused however well-formed the rest is.
    const pick = { visit_type_id: 'dental-checkup', dentist_id: dentists.bright, date: day, time: '09:07' };
    // Well-formed but born in years to come: refused before a code is sent, so no attack sends one.
    const unborn = { ...vera, date_of_birth: '2999-12-31' };
    const move = { date: day, time: '09:07' };
    const times = { visit_type: 'dental-checkup', date: day, dentist_id: String(dentists.bright) };
    const [bright, harbor] = [{ clinic: 'bright' as const }, { clinic: 'harbor' as const }];
    const read = { ok: [200], ...bright };
    const harborDentist = { ...times, dentist_id: String(dentists.harbor) };
    const everyBody = [...UNREAD, ...MISSHAPEN];
    const aCode = { code: '123456' };
    const wrongCodes = ['000000', '123456', '999999', '314159'].filter((one) => one !== code).slice(0, 3);
    // Each body a route reads: a base refused (or harmless) as it is, a sample of hostile values a field.
    const bodies: Array<[string, Record<string, unknown>, number, Partial<Attack>]> = [
      [`${BRIGHT}/holds`, pick, 16, bright],
      [codeOf(fresh), unborn, 14, { names: ['date_of_birth'], ...bright }],
      [confirmOf(codedHold), { code: '' }, HOSTILE.length, bright],
      [linkOf(live.token, 'move'), move, 16, { names: ['time'], ...bright }],
    ];
    // biome-ignore format: a table of requests
    attacks.push(
      // The clinic's page, its free times and its holds, through slugs that are not its own.
      ...sample(segmentTricks('bright-smile-dental'), 12).flatMap((slug) => [
        get(`/public/clinics/${slug}`, { ok: [200] }),
        get(`/public/clinics/${slug}/free-times?${query(times)}`, { ok: [200] }),
        post(`/public/clinics/${slug}/holds`, pick),
      ]),
      get(`${BRIGHT}?slug=harbor-dental&__proto__[x]=1`, read),
      get(`${HARBOR}?token=${live.token}`, { ok: [200], ...harbor }),
      // Free times: each parameter hostile, missing or repeated; parameters it has not; Harbor's dentist.
      ...Object.keys(times).flatMap((key) =>
        [...sample(QUERY_VALUES, 10).map((value) => ({ ...times, [key]: enc(value) })), omit(times, key)]
          .map((params) => query(params as Record<string, string>))
          .concat(`${query(times)}&${key}=x`)
          .map((params) => get(`${BRIGHT}/free-times?${params}`, { ...read, names: [key] })),
      ),
      ...['extra=1', '__proto__[admin]=1', 'constructor=1', 'dentist_id[]=1', 'dentist_id[a]=1', '&&=&']
        .map((extra) => get(`${BRIGHT}/free-times?${query(times)}&${extra}`, read)),
      get(`${BRIGHT}/free-times?${query(harborDentist)}`, { ...read, names: ['dentist_id'] }),
      get(`${HARBOR}/free-times?${query(times)}`, { ok: [200], ...harbor, names: ['dentist_id'] }),
      get(`${HARBOR}/free-times?visit_type=dental-checkup&date=${day}`, { ok: [200], ...harbor }),
      // Each body: every field hostile, missing, or beside fields it has not; bodies of no shape.
      ...bodies.flatMap(([url, base, perField, more]) => [
        ...mutations(url, base, perField, more),
        ...raw(url, everyBody, { clinic: more.clinic }),
      ]),
      post(`${HARBOR}/holds`, pick, { names: ['dentist_id'], ...harbor }),
      post(`${BRIGHT}/holds`, { ...pick, dentist_id: dentists.harbor }, { names: ['dentist_id'], ...bright }),
      // The hidden field filled: a bot, told "sent" as a person is, and nothing is sent (empty: a person).
      ...sample(HOSTILE, 12).map((website) =>
        post(codeOf(fresh), { ...unborn, website }, { ...bright, ok: [202], names: ['website', 'date_of_birth'] }),
      ),
      ...raw(codeOf(harborHold), sample(everyBody, 6), harbor),
      // Three well-formed wrong codes: each counted on the hold, as it should be.
      ...wrongCodes.map((wrong) => post(confirmOf(codedHold), { code: wrong }, { ...bright, names: ['code'] })),
      // Hold ids not live: made up, near misses, expired, used, a manage token, holds with no code asked.
      ...[...sample(segmentTricks(fresh), 12), expired, live.holdId, live.token, fresh, harborHold]
        .flatMap((id) => [post(codeOf(id), unborn, { names: ['date_of_birth', 'url'] }), post(confirmOf(id), aCode)]),
      // Manage links not a visit's: made up, near misses of a real one, hold ids.
      ...[...sample(segmentTricks(live.token), 12), fresh, codedHold].flatMap((token) => [
        get(linkOf(token)),
        ...['confirm', 'cancel', 'move'].map((action) => post(linkOf(token, action), move)),
      ]),
      // A confirmed visit's link: confirming again with any body changes nothing. Cancelling it is only
      // sent bodies no route reads: any other would cancel it, as it may.
      get(`${linkOf(live.token)}?token=x&__proto__[a]=1`, read),
      ...raw(linkOf(live.token, 'confirm'), everyBody, read),
      ...sample(HOSTILE, 8).map((value) => post(linkOf(live.token, 'confirm'), { status: value }, read)),
      ...raw(linkOf(live.token, 'cancel'), UNREAD, bright),
      // A cancelled visit's link.
      ...['confirm', 'cancel', 'move']
        .flatMap((action) => raw(linkOf(ended.token, action), sample(everyBody, 6), bright)),
      post(linkOf(ended.token, 'move'), { date: day, time: '10:00' }, bright),
      // Methods no public route takes, and addresses beside the routes.
      ...(['PUT', 'DELETE', 'PATCH'] as const).flatMap((method) =>
        [BRIGHT, `${BRIGHT}/holds`, codeOf(fresh), linkOf(live.token)]
          .map((url): Attack => ({ method, url, body: '{}' })),
      ),
      ...[confirmOf(fresh), linkOf(live.token, 'cancel'), `${BRIGHT}/holds/${harborHold}/code`]
        .map((url) => get(url)),
      post(`${HARBOR}/holds/${fresh}/confirm`, aCode),
      ...['', '?x=<b>', '%2F..%2F..%2Fapi%2Fsettings', '/../booking', 'x', `/${'a'.repeat(5000)}`]
        .map((tail) => get(`/public/modules/booking${tail}`, { ok: [200] })),
      post('/public/modules/booking', {}),
      // The booking page: its slug and link tricks answer its own page (200 or 404), never another.
      ...['bright-smile-dental?x=<script>', 'harbor-dental', 'BRIGHT', '%2e%2e%2fapi%2fsettings', '%00', 'a%00b']
        .concat(['..%2F..%2Fetc%2Fpasswd', 'a'.repeat(5000), '%', enc("' or 1=1 --"), `manage/${live.token}`])
        .map((page) => get(`/book/${page}`, { ok: [200] })),
    );

    for (const attack of attacks) {
      const { method, url, body: payload, type = JSON_TYPE } = attack;
      const headers = type === null || payload === undefined ? {} : { 'content-type': type };
      const answer = await app.inject({ method, url, payload, headers, remoteAddress: '203.0.113.66' });
      const failure = failureOf(attack, answer, secrets);
      if (failure) failures.push(failure);
    }
  }, 120_000);
  afterAll(async () => {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('sends a few hundred hostile requests', () => {
    expect(attacks.length).toBeGreaterThanOrEqual(300);
    expect(attacks.length).toBeLessThanOrEqual(600);
  });

  it('answers each cleanly: no 5xx, a JSON refusal naming its field, nothing of a patient or other clinic', () => {
    expect(failures).toEqual([]);
  });

  it('changes nothing, but for the three wrong codes counted on their hold', async () => {
    const [coded] = await app.database.db
      .select({ id: bookingHolds.id })
      .from(bookingHolds)
      .where(eq(bookingHolds.tokenHash, hashSecretToken(codedHold)));
    expect(await snapshot()).toEqual({
      ...before,
      tries: before.tries.map((hold) => (hold.id === coded?.id ? { ...hold, tries: hold.tries + 3 } : hold)),
    });
  });

  it('would report an offender: its method, URL, body, status and what was wrong', () => {
    const attack = post('/public/holds/x/code', { name: 1 }, { ok: [200], clinic: 'bright' });
    const answer = (statusCode: number, body: string) => ({
      statusCode,
      headers: { 'content-type': JSON_TYPE },
      body,
    });
    expect(failureOf(attack, answer(500, '{"message":"Internal server error"}'), secrets)).toBe(
      'POST /public/holds/x/code "{\\"name\\":1}" → 500: server error',
    );
    const leak = `{"message":"${secrets.patients[0]}"}`;
    expect(failureOf(attack, answer(404, leak), secrets)).toMatch(/→ 404: shows "/);
    expect(failureOf(attack, answer(200, 'Harbor Dental'), secrets)).toBe(
      'POST /public/holds/x/code "{\\"name\\":1}" → 200: shows "Harbor Dental"',
    );
  });
});
