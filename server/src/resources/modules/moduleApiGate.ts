import { MODULE_OWNED_API, type ModuleId, type OwnedApi } from '@dental/shared/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client';
import type { ClinicVersions } from '../../plugins/clinicVersions';
import { switchesOf } from './moduleSwitches';

type StaffModule = Exclude<ModuleId, 'booking'>;

/** What an unknown route answers (plugins/staticHosting.ts): an off module's route looks the same. */
const NOT_FOUND = { message: 'Not found' } as const;
/** Bounds what a switch changed outside the API (no audit record, so no announcement) leaves behind. */
const MAX_AGE_MS = 10_000;
const MAX_CLINICS = 10_000;

const OWNED = Object.entries(MODULE_OWNED_API) as Array<[StaffModule, readonly OwnedApi[]]>;

/** Fastify answers HEAD with the GET route. */
const methodOf = (method: string) => (method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase());

const covers = (entry: OwnedApi, method: string, pattern: string): boolean =>
  (!entry.method || entry.method === method) &&
  (pattern === entry.prefix || (!entry.exact && pattern.startsWith(`${entry.prefix}/`)));

/** The module that owns a route (its method and pattern), or null for a shared or public one. */
export function apiOwnerOf(method: string, pattern: string): StaffModule | null {
  const asked = methodOf(method);
  for (const [id, owned] of OWNED) if (owned.some((entry) => covers(entry, asked, pattern))) return id;
  return null;
}

interface Switches {
  /** The clinic's version (ClinicVersions) the switches were read under. */
  version: string;
  readAt: number;
  off: Promise<ReadonlySet<string>>;
}

/**
 * "Switched off means off" (docs/architecture.md, Modules): a route a staff module owns
 * (MODULE_OWNED_API, shared/src/domain/modules.ts) answers 404 `{ message: 'Not found' }`, as an
 * unknown route does, to a clinic that has the module off.
 *
 * The check is a `preParsing` hook: it runs after every `onRequest` hook, the route's guard among
 * them (so the staff member, and their clinic, are known), and before the body is parsed and
 * validated (a 400 would tell that the route is there) and before the read cache could answer from
 * memory (`preValidation`, plugins/readCache.ts). It matches the route's pattern
 * (`request.routeOptions.url`), never the raw URL, so no spelling of a path gets past it.
 *
 * A clinic's switches are kept in memory under its version (plugins/clinicVersions.ts), so a call
 * costs no database round trip while the version holds. Switching (`PUT /api/modules/:id`) is a
 * staff write, which moves the clinic's version in this process as its answer is sent; its audit
 * record is announced on the clinic events channel at commit (migration 0016), which moves the
 * version in every other API process within moments; a break in listening moves every clinic's.
 */
export function registerModuleApiGate(app: FastifyInstance, db: Database, versions: ClinicVersions): void {
  const clinics = new Map<number, Switches>();
  /** Each route's owner, worked out once: a route pattern, not a URL, so the keys are few. */
  const owners = new Map<string, StaffModule | null>();
  const patterns: Array<{ method: string; url: string }> = [];

  const ownerOf = (method: string, pattern: string): StaffModule | null => {
    const key = `${method} ${pattern}`;
    let owner = owners.get(key);
    if (owner === undefined) {
      owner = apiOwnerOf(method, pattern);
      owners.set(key, owner);
    }
    return owner;
  };

  const offModulesOf = async (clinicId: number): Promise<ReadonlySet<string>> => {
    // Taken before the read: a switch committed meanwhile moves the version, and is read again.
    const version = await versions.current(clinicId);
    const kept = clinics.get(clinicId);
    if (kept && kept.version === version && Date.now() - kept.readAt < MAX_AGE_MS) return kept.off;
    const off = switchesOf(db, clinicId).then(
      (switches) => new Set([...switches].filter(([, enabled]) => !enabled).map(([id]) => id)),
    );
    if (clinics.size >= MAX_CLINICS && !clinics.has(clinicId)) clinics.clear();
    const entry: Switches = { version, readAt: Date.now(), off };
    clinics.set(clinicId, entry);
    // A failed read is not kept: the next call reads again (this one answers 500).
    off.catch(() => {
      if (clinics.get(clinicId) === entry) clinics.delete(clinicId);
    });
    return off;
  };

  app.addHook('preParsing', async (request: FastifyRequest, reply: FastifyReply, payload) => {
    const pattern = request.routeOptions.url;
    // An unknown path (no route) or a call without a signed-in staff member: nothing to switch.
    if (!pattern || !request.staff) return payload;
    const owner = ownerOf(request.method, pattern);
    if (!owner) return payload;
    if ((await offModulesOf(request.staff.clinicId)).has(owner)) {
      // Awaited: the answer has left before the request's later steps would run.
      await reply.code(404).send(NOT_FOUND);
    }
    return payload;
  });

  // Every entry must name a route: a route renamed under it would otherwise be left open unseen.
  // The gate is registered before the resources' routes, so it hears of every owned one.
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) patterns.push({ method: methodOf(method), url: route.url });
  });
  app.addHook('onReady', async () => {
    const unmatched = OWNED.flatMap(([id, owned]) =>
      owned
        .filter((entry) => !patterns.some(({ method, url }) => covers(entry, method, url)))
        .map((entry) => `${id}: ${entry.method ?? '*'} ${entry.prefix}`),
    );
    patterns.length = 0;
    if (unmatched.length > 0) {
      throw new Error(`MODULE_OWNED_API names no route for ${unmatched.join(', ')}`);
    }
  });
}
