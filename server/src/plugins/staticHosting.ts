import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { BOOKING_PAGE_PREFIX, MODULE_CATALOG, MODULE_IDS, publicPageOf } from '@dental/shared/domain';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Files a release replaces in place: browsers must revalidate them on every load. */
const ALWAYS_REVALIDATE = new Set([
  'index.html',
  'book.html',
  'mf-manifest.json',
  'remoteEntry.js',
  'mf-manifest-stats.json',
  'provides.json',
]);
const API_PREFIXES = ['/api/', '/auth/', '/modules/', '/public/', '/platform/'];

/** A file of a published release never changes (docs/architecture.md, Module releases): cached for good. */
const cacheHeadersFor = (releasesDir: string) => (reply: FastifyReply, filePath: string) => {
  const published = filePath.startsWith(releasesDir + path.sep);
  reply.header(
    'Cache-Control',
    !published && ALWAYS_REVALIDATE.has(path.basename(filePath))
      ? 'no-cache'
      : 'public, max-age=31536000, immutable',
  );
};

/**
 * Serves the shell at `/` and each module's build at `/modules/<id>/`, read from disk on every
 * request so that a module rebuilt alone is live on the next page load, and each published release
 * of a module at `/modules/<id>/<release>/`. Any other GET that is not an
 * API call answers the shell's page, whose router shows the screen (or its 404).
 */
export interface PublicPages {
  /** Whether a clinic's booking page is open; a closed one and an unknown slug both answer 404. */
  bookingPageOpen: (slug: string) => Promise<boolean>;
  rateLimit: number;
}

export function registerStaticHosting(
  app: FastifyInstance,
  staticRoot: string,
  publicPages: PublicPages,
  releasesDir: string,
): void {
  const shellDist = path.join(staticRoot, 'shell', 'dist');
  const setCacheHeaders = cacheHeadersFor(releasesDir);
  if (!existsSync(shellDist)) app.log.warn(`No shell build at ${shellDist}: run npm run build`);

  app.register(fastifyStatic, {
    root: shellDist,
    prefix: '/',
    index: false,
    cacheControl: false,
    setHeaders: setCacheHeaders,
  });
  // `/modules/<id>/<release>/…` is a published release (looked for first), anything else the build in place.
  for (const id of MODULE_IDS) {
    const published = path.join(releasesDir, id);
    mkdirSync(published, { recursive: true });
    app.register(fastifyStatic, {
      root: [published, path.join(staticRoot, MODULE_CATALOG[id].packageDir, 'dist')],
      prefix: `/modules/${id}/`,
      decorateReply: false,
      index: false,
      cacheControl: false,
      setHeaders: setCacheHeaders,
    });
  }

  const sendShell = (reply: FastifyReply, page = 'index.html') => {
    if (!existsSync(path.join(shellDist, page))) {
      return reply.code(503).type('text/plain').send('The app is not built yet: run npm run build');
    }
    return reply.header('Cache-Control', 'no-cache').type('text/html').sendFile(page, shellDist);
  };

  app.get('/', (_request, reply) => sendShell(reply));

  // The patients' pages have a light page of their own, without the staff app (docs/architecture.md,
  // Online booking). A booking page whose clinic has it off is a 404 whose page says so, like an unknown one.
  app.get(
    `${BOOKING_PAGE_PREFIX}*`,
    { config: { rateLimit: { max: publicPages.rateLimit, timeWindow: '1 minute' } } },
    async (request, reply) => {
      const page = publicPageOf(request.url.split('?')[0] ?? '');
      const found =
        page.page === 'manage' || (page.page === 'book' && (await publicPages.bookingPageOpen(page.slug)));
      if (!found) reply.code(404);
      return sendShell(reply, 'book.html');
    },
  );

  // An unknown path is counted like an API call: probing for routes, however spelled, is limited.
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isApi =
      API_PREFIXES.some((prefix) => pathname.startsWith(prefix)) ||
      pathname === '/api' ||
      pathname === '/auth';
    if (request.method === 'GET' && !isApi && !path.extname(pathname)) return sendShell(reply);
    return reply.code(404).send({ message: 'Not found' });
  });
}
