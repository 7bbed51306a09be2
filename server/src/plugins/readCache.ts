import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { ClinicVersions } from './clinicVersions';
import type { ReadTrail } from './readTrail';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answers of this GET route are the same for every staff member of a clinic: keep them. */
    clinicReadCache?: boolean;
  }
  interface FastifyRequest {
    readCacheVersion?: string;
    /** Answered from the read cache by the preValidation hook. */
    readCacheHit?: boolean;
  }
}

/** Per clinic: at most this many answers, and answers up to this size, are kept. */
const ENTRIES_PER_CLINIC = 200;
const MAX_ENTRY_BYTES = 512 * 1024;
const MAX_CLINICS = 1_000;
/** Bounds what a change made outside the API (no audit record) could leave behind. */
const MAX_AGE_MS = 10_000;

interface Entry {
  version: string;
  /** Encoded once: a hit sends the bytes as they are. */
  body: Buffer;
  storedAt: number;
  /** The read the answer made, recorded again at every hit (plugins/readTrail.ts). */
  readTrail: ReadTrail | null;
}

/**
 * The clinic's busiest reads (lists, searches, the calendar month) are served again from memory
 * while the clinic's version (ClinicVersions) holds: the same URL for the same clinic gives the same
 * answer, whoever of its staff asks, because the route's guard has already decided who may ask.
 */
export function registerClinicReadCache(
  app: FastifyInstance,
  versions: Pick<ClinicVersions, 'current'>,
): void {
  const clinics = new Map<number, Map<string, Entry>>();

  const cacheable = (request: FastifyRequest) =>
    request.method === 'GET' &&
    request.routeOptions.config.clinicReadCache === true &&
    request.staff !== null;

  // Before validation: the same URL was validated when its answer was kept.
  app.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!cacheable(request) || !request.staff) return;
    const clinicId = request.staff.clinicId;
    const version = await versions.current(clinicId);
    request.readCacheVersion = version;
    const entry = clinics.get(clinicId)?.get(request.url);
    if (!entry || entry.version !== version || Date.now() - entry.storedAt > MAX_AGE_MS) return;
    reply.header('content-type', 'application/json; charset=utf-8');
    reply.header('x-read-cache', 'hit');
    if (entry.readTrail) request.readTrail = { ...entry.readTrail, userId: request.staff.id };
    request.readCacheHit = true;
    // A reply is a thenable: the hook ends once the answer has left, or once the client has gone.
    return reply.send(entry.body);
  });

  // When the client went away while the kept answer was on its way (an audited read waits for its
  // record), nothing has ended the response and Fastify would go on to run the route for nobody,
  // answering twice (ERR_HTTP_HEADERS_SENT) and recording the read again: it stops here instead.
  // Only a kept route can be answered so, and only its requests pass this check.
  const stopAfterKeptAnswer: preHandlerHookHandler = (request, reply, done) => {
    if (request.readCacheHit) reply.hijack();
    done();
  };
  app.addHook('onRoute', (route) => {
    if (route.config?.clinicReadCache !== true) return;
    const own = route.preHandler ?? [];
    route.preHandler = [...(Array.isArray(own) ? own : [own]), stopAfterKeptAnswer];
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const version = request.readCacheVersion;
    if (!version || !request.staff || reply.statusCode !== 200 || reply.getHeader('x-read-cache')) return;
    // A long list's answer comes already as bytes (responseSerialization.ts).
    const body =
      typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : null;
    if (!body || body.length > MAX_ENTRY_BYTES) return;
    const clinicId = request.staff.clinicId;
    let entries = clinics.get(clinicId);
    if (!entries) {
      if (clinics.size >= MAX_CLINICS) clinics.clear();
      entries = new Map();
      clinics.set(clinicId, entries);
    }
    entries.delete(request.url);
    if (entries.size >= ENTRIES_PER_CLINIC) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    entries.set(request.url, { version, body, storedAt: Date.now(), readTrail: request.readTrail });
  });
}
