import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { isAppFileRequest } from './apiRoutes';

/** Scripts come only from our own origin and the operator's configured module origins. */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  moduleOrigins: string[],
  /** Served over https only (HTTPS_ONLY): browsers are told to come back over https alone (HSTS). */
  httpsOnly: boolean,
): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...moduleOrigins],
        connectSrc: ["'self'", ...moduleOrigins],
        // antd writes its styles at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // A clinic's own machine may be reached over plain http (HTTPS_ONLY off): no HSTS there.
    strictTransportSecurity: httpsOnly ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
    frameguard: { action: 'deny' },
  });
  // The API's answers carry patients' and staff's records: no browser or proxy may keep them
  // (ASVS 14.3.2), unless a route says otherwise (a dentist's calendar feed, for their calendar app).
  // Every answer but the app's own files is the API's, decided by the matched route, not the URL.
  app.addHook('onSend', async (request, reply) => {
    if (isAppFileRequest(request) || reply.hasHeader('cache-control')) return;
    reply.header('cache-control', 'no-store');
  });
}
