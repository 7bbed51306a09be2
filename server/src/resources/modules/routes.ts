import {
  hasPermission,
  MODULE_IDS,
  moduleEntrySchema,
  moduleReleasesAnswerSchema,
  moduleUpdateSchema,
  publicModuleEntrySchema,
} from '@dental/shared/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Guard } from '../../auth/guard';
import type { Database } from '../../db/client';
import { clinicModules } from '../../db/schema';
import { SECURITY } from '../../plugins/apiDocs';
import { errorResponses } from '../../plugins/errors';
import { actorOfStaff, recordActorAudit } from '../actorAudit';
import { switchesOf } from './moduleSwitches';
import { type RegisteredModule, withEnabled } from './registry';
import { clinicIdOfSlug, releasesOf, releasesRunBy } from './releasesData';

export function registerModuleRoutes(
  app: FastifyInstance,
  db: Database,
  guard: Guard,
  registry: RegisteredModule[],
): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/modules',
    {
      onRequest: guard.authenticated,
      schema: {
        tags: ['modules'],
        summary:
          "The modules enabled for the caller's clinic (any role); `all=true` lists every module (admin)",
        security: SECURITY,
        querystring: z.object({ all: z.enum(['true', 'false']).optional() }),
        response: { 200: z.object({ data: z.array(moduleEntrySchema) }), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const staff = guard.staffOf(request);
      const all = request.query.all === 'true';
      if (all && !hasPermission(staff.role, 'all')) {
        return reply.code(403).send({ message: "You don't have permission to manage modules." });
      }
      const switches = await switchesOf(db, staff.clinicId);
      const running = await releasesRunBy(db, staff.clinicId);
      // A module the clinic never switched is on.
      const entries = registry.map((module) =>
        withEnabled(module, switches.get(module.id) ?? true, running.get(module.id)),
      );
      return { data: all ? entries : entries.filter((entry) => entry.enabled) };
    },
  );

  const booking = registry.find((module) => module.id === 'booking');
  routes.get(
    '/public/modules/booking',
    {
      schema: {
        tags: ['modules'],
        summary:
          "Where the booking module's entry is served from, for the patients' pages (no sign-in; whether a clinic has it on is its booking page's answer): the release the clinic of `clinic` (a slug) runs, else the default's",
        querystring: z.object({ clinic: z.string().max(100).optional() }),
        response: { 200: publicModuleEntrySchema, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      if (!booking) return reply.code(404).send({ message: 'Not found' });
      const clinicId = request.query.clinic ? await clinicIdOfSlug(db, request.query.clinic) : null;
      const entry = withEnabled(booking, true, (await releasesRunBy(db, clinicId)).get(booking.id));
      return {
        container: entry.container,
        entry: entry.entry,
        version: entry.version,
        integrity: entry.integrity,
      };
    },
  );

  routes.get(
    '/api/modules/:id/releases',
    {
      onRequest: guard.permitted('all', 'see module releases'),
      schema: {
        tags: ['modules'],
        summary:
          "A module's published releases, the one the default and the caller's clinic run, and their history (admin)",
        security: SECURITY,
        params: z.object({ id: z.enum(MODULE_IDS) }),
        response: { 200: moduleReleasesAnswerSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => releasesOf(db, request.params.id, guard.staffOf(request).clinicId),
  );

  routes.put(
    '/api/modules/:id',
    {
      onRequest: guard.permitted('all', 'manage modules'),
      schema: {
        tags: ['modules'],
        summary: "Switch a module on or off for the caller's clinic (admin)",
        security: SECURITY,
        params: z.object({ id: z.string() }),
        body: moduleUpdateSchema,
        response: { 200: moduleEntrySchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const staff = guard.staffOf(request);
      const module = registry.find((candidate) => candidate.id === request.params.id);
      if (!module || !(MODULE_IDS as readonly string[]).includes(module.id)) {
        return reply.code(404).send({ message: 'Module not found' });
      }
      const { enabled } = request.body;
      await db.transaction(async (tx) => {
        await tx
          .insert(clinicModules)
          .values({ clinicId: staff.clinicId, moduleId: module.id, enabled })
          .onConflictDoUpdate({
            target: [clinicModules.clinicId, clinicModules.moduleId],
            set: { enabled, updatedAt: new Date() },
          });
        await recordActorAudit(tx, actorOfStaff(staff, request), {
          action: enabled ? 'module_enabled' : 'module_disabled',
          entity: 'module',
          entityId: module.id,
        });
      });
      return withEnabled(module, enabled, (await releasesRunBy(db, staff.clinicId)).get(module.id));
    },
  );
}
