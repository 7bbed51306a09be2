import { createHash, timingSafeEqual } from 'node:crypto';
import {
  MODULE_IDS,
  modulePointSchema,
  modulePublishSchema,
  moduleReleaseSchema,
} from '@dental/shared/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppConfig } from '../../config';
import type { Database } from '../../db/client';
import { Conflict, InvalidValue, Unavailable } from '../../domain/errors';
import { errorResponses } from '../../plugins/errors';
import {
  type BuildFile,
  entryOf,
  integrityOf,
  needsOf,
  releaseNameOf,
  shellProvides,
  skewOf,
  storeRelease,
} from './releaseFiles';
import { followDefault, pointAt, recordRelease } from './releasesData';

/** A build sent to publish is at most this big (a module's whole `dist/`, base64 in JSON). */
const PUBLISH_BODY_LIMIT = 64 * 1024 * 1024;
const PLATFORM_SECURITY = [{ platformKey: [] }];
/** The platform's key publishes code every clinic runs: a guessable one is refused at start. */
export const PLATFORM_TOKEN_MIN_LENGTH = 32;

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * The platform's API for module releases (docs/architecture.md, Module releases): publishing a build
 * and pointing the default or one clinic at a release. It is the operator's, not a clinic admin's:
 * it answers only to `Authorization: Bearer <PLATFORM_TOKEN>`, and not at all when no key is set.
 */
export function registerPlatformRoutes(app: FastifyInstance, db: Database, config: AppConfig): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const key = config.platformToken ? digest(config.platformToken) : null;

  const platformOnly = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!key) return reply.code(404).send({ message: 'Not found' });
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!given || !timingSafeEqual(digest(given), key))
      return reply.code(401).send({ message: 'This call needs the platform key (PLATFORM_TOKEN)' });
  };
  /** Who published or pointed, as the tool names them: kept in the releases' history. */
  const actorOf = (request: FastifyRequest) => {
    const named = String(request.headers['x-release-actor'] ?? '')
      .replace(/[^\w .@-]/g, '')
      .slice(0, 60);
    return named ? `platform (${named})` : 'platform';
  };
  const params = z.object({ id: z.enum(MODULE_IDS) });

  routes.post(
    '/platform/modules/:id/releases',
    {
      onRequest: platformOnly,
      bodyLimit: PUBLISH_BODY_LIMIT,
      schema: {
        tags: ['platform'],
        summary:
          "Publish a module's build as an immutable release under /modules/<id>/<release>/; refused (409) when it needs a shared package the deployed shell does not provide",
        security: PLATFORM_SECURITY,
        params,
        body: modulePublishSchema,
        response: { 201: moduleReleaseSchema, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const files: BuildFile[] = request.body.files.map((file) => ({
        path: file.path,
        bytes: Buffer.from(file.content, 'base64'),
      }));
      if (new Set(files.map((file) => file.path)).size !== files.length)
        throw InvalidValue.of('files', 'each file is sent once');
      const entry = entryOf(files);
      if (!entry) throw InvalidValue.of('files', 'the build has no remoteEntry.js');
      const needs = needsOf(files);
      if (!needs) throw InvalidValue.of('files', 'the build has no readable mf-manifest.json');
      const provides = shellProvides(config.staticRoot);
      if (!provides)
        throw new Unavailable("The app's shell is not built here: build it before publishing a module");
      const skew = skewOf(needs, provides);
      if (skew)
        throw new Conflict(
          `The ${id} module was built for ${skew.name} ${skew.needed}; the app provides ${skew.provided ?? 'none'}`,
        );
      const release = releaseNameOf(request.body.version, files);
      await storeRelease(config.moduleReleasesDir, id, release, files);
      const recorded = await recordRelease(db, {
        moduleId: id,
        release,
        version: request.body.version,
        builtAt: new Date(request.body.built_at),
        commit: request.body.commit,
        shared: needs,
        integrity: integrityOf(entry.bytes),
        publishedBy: actorOf(request),
      });
      return reply.code(201).send(recorded);
    },
  );

  routes.put(
    '/platform/modules/:id/pointer',
    {
      onRequest: platformOnly,
      schema: {
        tags: ['platform'],
        summary:
          'Point the default (clinic null) or one clinic (its slug) at a published release: it runs on the next page load; rolling back is pointing back',
        security: PLATFORM_SECURITY,
        params,
        body: modulePointSchema,
        response: {
          200: z.object({
            module_id: z.enum(MODULE_IDS),
            release: z.string(),
            clinic: z.string().nullable(),
          }),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) => {
      const { release, clinic } = request.body;
      await pointAt(db, request.params.id, release, clinic, actorOf(request));
      return { module_id: request.params.id, release, clinic };
    },
  );

  routes.delete(
    '/platform/modules/:id/pointer',
    {
      onRequest: platformOnly,
      schema: {
        tags: ['platform'],
        summary: 'A clinic follows the default release again: its own pointer goes',
        security: PLATFORM_SECURITY,
        params,
        querystring: z.object({ clinic: z.string().min(1).max(100) }),
        response: { 204: z.null(), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await followDefault(db, request.params.id, request.query.clinic, actorOf(request));
      return reply.code(204).send(null);
    },
  );
}
