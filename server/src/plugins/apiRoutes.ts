import type { FastifyRequest } from 'fastify';

/** The routes of the app's own files (staticHosting): the shell's page and files, each module's build. */
const APP_FILE_ROUTE = /^\/(\*|modules\/[a-z-]+\/\*)?$/;

/**
 * Whether a request reached one of the app's own files (the shell's page or files, a module's build):
 * every other route is the API's (`/api`, `/auth`, a calendar feed). Decided by the matched route's pattern, never by the raw
 * URL, which may spell the same path percent-encoded (`/%61uth/login`) or with odd case; a request
 * no route matched (a 404) is not a file either. See docs/security.md "Limits".
 */
export function isAppFileRequest(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  return route !== undefined && APP_FILE_ROUTE.test(route);
}
